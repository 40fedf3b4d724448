package replica

import (
	"fmt"
	"slices"
)

// handleFetch is the leader's side of a follower fetch, in the order of
// ReplicaManager.fetchMessages and Partition.fetchRecords.
func (n *Node) handleFetch(m Message) error {
	resp := Message{Type: MsgFetchResponse, To: m.From, CorrelationID: m.CorrelationID,
		CurrentLeaderEpoch: n.leaderEpoch, FetchOffset: m.FetchOffset}
	if resp.Error = n.checkFencing(m); resp.Error == None && !slices.Contains(n.replicas, m.From) {
		resp.Error = NotLeaderOrFollower
	}
	if resp.Error != None {
		n.send(resp)
		return nil
	}
	// A follower has one fetch in flight; a new one replaces any parked one
	// (from an earlier incarnation of that follower, or a resend).
	n.alignShrinkCheck()
	n.settleHeld()
	if f := n.lead.followers[m.From]; f != nil && !m.Incremental {
		f.sentHW = -1 // a new session: its first answer is sent whatever it holds
	}
	n.lead.parkedFetches = slices.DeleteFunc(n.lead.parkedFetches, func(p parkedFetch) bool { return p.req.From == m.From })
	if n.cfg.Rules.TruncatesOnFetch() && m.LastFetchedEpoch != NoEpoch {
		e, end, ok := endOffsetFor(n.log.Epochs(), n.log.LogEndOffset(), m.LastFetchedEpoch, false)
		if !ok {
			n.send(n.outOfRange(resp))
			return nil
		}
		if e < m.LastFetchedEpoch || end < m.FetchOffset {
			resp.DivergingEpoch = &EpochEndOffset{Epoch: e, EndOffset: end}
			resp.HighWatermark = n.hw
			n.send(resp)
			return nil
		}
	}
	if m.FetchOffset > n.log.LogEndOffset() || m.FetchOffset < n.log.LogStartOffset() {
		n.send(n.outOfRange(resp))
		return nil
	}
	hwBefore := n.hw
	entries, err := n.readFetch(m.FetchOffset)
	if err != nil {
		return fmt.Errorf("%w: broker %d: read at %d for %d: %w", ErrLog, n.cfg.ID, m.FetchOffset, m.From, err)
	}
	n.recordFollowerFetch(m.From, m.FetchOffset)
	if len(entries) == 0 {
		n.lead.parkedFetches = append(n.lead.parkedFetches, parkedFetch{req: m, deadlineMs: n.now + m.MaxWaitMs, parkedMs: n.now})
		return nil
	}
	n.send(n.withRecords(resp, entries, hwBefore))
	return nil
}

// readFetch reads what a follower's fetch at from gets: whole batches
// from a [FetchLog], entries from any other Log.
func (n *Node) readFetch(from int64) ([]Entry, error) {
	if fl, ok := n.log.(FetchLog); ok {
		return fl.ReadFetch(from, n.cfg.ReplicaFetchMaxBytes)
	}
	return n.log.Read(from, n.cfg.ReplicaFetchMaxBytes)
}

// outOfRange fills an OFFSET_OUT_OF_RANGE answer with the leader's log
// bounds, standing for the follower's ListOffsets round trip (AbstractFetcherThread.handleOutOfRangeError).
func (n *Node) outOfRange(resp Message) Message {
	resp.Error = OffsetOutOfRange
	resp.LogStartOffset, resp.LogEndOffset = n.log.LogStartOffset(), n.log.LogEndOffset()
	resp.HighWatermark = n.hw
	return resp
}

func (n *Node) withRecords(resp Message, entries []Entry, hw int64) Message {
	resp.Entries = entries
	resp.HighWatermark = hw
	if f := n.lead.followers[resp.To]; f != nil {
		f.sentHW = hw // the follower takes it (an error or a DivergingEpoch it does not)
	}
	resp.LogStartOffset, resp.LogEndOffset = n.log.LogStartOffset(), n.log.LogEndOffset()
	return resp
}

// recordFollowerFetch is Partition.updateFollowerFetchState: the follower's
// LEO and caught-up time, then ISR expansion (Partition.maybeExpandIsr) and
// the HW (Partition.maybeIncrementLeaderHW).
func (n *Node) recordFollowerFetch(id int32, offset int64) {
	f := n.lead.followers[id]
	if f == nil {
		f = &followerProgress{leo: -1}
		n.lead.followers[id] = f
	}
	leo := n.log.LogEndOffset()
	switch {
	case offset >= leo:
		f.lastCaughtUpMs = n.now
	case offset >= f.leaderLEOAtLastFetch:
		f.lastCaughtUpMs = f.lastFetchMs
	}
	f.leaderLEOAtLastFetch, f.lastFetchMs, f.leo = leo, n.now, offset
	n.maybeExpandISR(id)
	n.maybeAdvanceHW()
}

// completeParkedFetches answers the parked fetches that now find records,
// with the HW of this moment.
func (n *Node) completeParkedFetches() {
	kept := n.lead.parkedFetches[:0]
	for _, p := range n.lead.parkedFetches {
		entries, err := n.readFetch(p.req.FetchOffset)
		if err != nil || len(entries) == 0 {
			kept = append(kept, p)
			continue
		}
		n.answerParkedFetch(p, entries)
	}
	n.lead.parkedFetches = kept
}

// answerParkedFetch answers the parked fetch p with entries (none when its
// wait is over) and the HW of this moment.
func (n *Node) answerParkedFetch(p parkedFetch, entries []Entry) {
	resp := Message{Type: MsgFetchResponse, To: p.req.From, CorrelationID: p.req.CorrelationID,
		CurrentLeaderEpoch: n.leaderEpoch, FetchOffset: p.req.FetchOffset}
	n.send(n.withRecords(resp, entries, n.hw))
}

// expireParkedFetches answers, empty, the parked fetches whose wait is
// over, or holds them in their follower's fetch session (session.go).
func (n *Node) expireParkedFetches() {
	kept := n.lead.parkedFetches[:0]
	for _, p := range n.lead.parkedFetches {
		if n.now < p.deadlineMs {
			kept = append(kept, p)
			continue
		}
		if n.holds(p) {
			kept = append(kept, p)
			n.hold(len(kept) - 1)
			continue
		}
		n.answerParkedFetch(p, nil)
	}
	n.lead.parkedFetches = kept
}
