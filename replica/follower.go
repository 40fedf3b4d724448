package replica

import "fmt"

// FetchState is where a follower is in finding its truncation point and
// fetching (AbstractFetcherThread's partition states).
type FetchState int

// The fetch states.
const (
	// FetchIdle: not following anyone (no leader, or not a follower).
	FetchIdle FetchState = iota
	// FetchTruncating: waiting for an OffsetsForLeaderEpoch answer (V0_11-V2_1).
	FetchTruncating
	// FetchFetching: fetching from the leader.
	FetchFetching
)

// String returns "idle", "truncating" or "fetching".
func (s FetchState) String() string {
	switch s {
	case FetchTruncating:
		return "truncating"
	case FetchFetching:
		return "fetching"
	}
	return "idle"
}

// followerState is what only a follower keeps.
type followerState struct {
	state FetchState
	// corr is the last correlation id used; outstanding is the one of the
	// request awaiting an answer (0: none).
	corr, outstanding int64
	sentMs            int64
	// backoffUntilMs is when to retry after an error answer (0: no backoff).
	backoffUntilMs int64
	// fetchOffset is the fetch offset a truncation round starts from
	// (PartitionFetchState.fetchOffset): the HW when the replica became a
	// follower, then where the last round cut. Modern rule sets read the
	// LEO instead ([RuleSet.InitialFetchOffsetIsLEO]).
	fetchOffset int64
}

func (n *Node) becomeFollower(s LeaderAndISR) error {
	n.endLeadership(NotLeaderOrFollower)
	n.role = RoleFollower
	n.setPartition(s)
	n.follow = followerState{corr: n.follow.corr, fetchOffset: n.hw}
	n.emit(Event{Kind: EventBecameFollower, Old: int64(s.Leader), New: int64(s.LeaderEpoch)})
	if s.Leader == NoLeader {
		return nil
	}
	_, hasEpochs := n.latestEpoch()
	switch {
	case n.cfg.Rules == V0_10, !hasEpochs:
		// 0.10 truncates to the HW (ReplicaManager.makeFollowers); so does a
		// log without epochs under every later rule set (0.11's
		// ReplicaFetcherThread.maybeTruncate, 3.7's
		// AbstractFetcherThread.truncateToHighWatermark).
		if err := n.truncateTo(n.hw); err != nil {
			return err
		}
		n.startFetching()
	case n.cfg.Rules < Modern:
		n.follow.state = FetchTruncating
		n.sendOffsetsForLeaderEpoch()
	default:
		n.startFetching()
	}
	return nil
}

func (n *Node) startFetching() {
	n.follow.state = FetchFetching
	n.sendFetch()
}

func (n *Node) newRequest() int64 {
	n.follow.corr++
	n.follow.outstanding, n.follow.sentMs, n.follow.backoffUntilMs = n.follow.corr, n.now, 0
	return n.follow.corr
}

// sendFetch sends the follower's Fetch from its LEO (LeaderEndPoint.buildFetch, 3.7).
func (n *Node) sendFetch() {
	m := Message{Type: MsgFetch, To: n.leaderID, CorrelationID: n.newRequest(),
		FetchOffset: n.log.LogEndOffset(), CurrentLeaderEpoch: n.requestEpoch(),
		LastFetchedEpoch: NoEpoch, MaxWaitMs: n.cfg.ReplicaFetchWaitMaxMs}
	if n.cfg.Rules.TruncatesOnFetch() {
		m.LastFetchedEpoch, _ = n.latestEpoch()
	}
	n.send(m)
}

func (n *Node) sendOffsetsForLeaderEpoch() {
	epoch, _ := n.latestEpoch()
	n.send(Message{Type: MsgOffsetsForLeaderEpoch, To: n.leaderID, CorrelationID: n.newRequest(),
		Epoch: epoch, CurrentLeaderEpoch: n.requestEpoch()})
}

// resend sends the request the follower's state calls for.
func (n *Node) resend() {
	switch n.follow.state {
	case FetchTruncating:
		n.sendOffsetsForLeaderEpoch()
	case FetchFetching:
		n.sendFetch()
	}
}

func (n *Node) tickFollower() {
	f := &n.follow
	switch {
	case f.state == FetchIdle:
	case f.outstanding != 0 && n.now-f.sentMs >= n.cfg.ReplicaSocketTimeoutMs:
		n.resend()
	case f.outstanding == 0 && f.backoffUntilMs != 0 && n.now >= f.backoffUntilMs:
		n.resend()
	}
}

// accepts reports whether m answers the request the follower waits for, and
// if so marks it answered.
func (n *Node) accepts(m Message, want FetchState) bool {
	if n.role != RoleFollower || n.follow.state != want || m.From != n.leaderID ||
		m.CorrelationID != n.follow.outstanding ||
		m.Type == MsgFetchResponse && m.FetchOffset != n.log.LogEndOffset() {
		return false
	}
	n.follow.outstanding = 0
	return true
}

// backOff waits replica.fetch.backoff.ms before asking again.
func (n *Node) backOff() { n.follow.backoffUntilMs = n.now + max(n.cfg.ReplicaFetchBackoffMs, 1) }

// handleFetchResponse appends what the leader sent and takes its HW
// (AbstractFetcherThread.processFetchRequest).
func (n *Node) handleFetchResponse(m Message) error {
	if !n.accepts(m, FetchFetching) {
		return nil
	}
	switch {
	case m.Error == OffsetOutOfRange:
		return n.handleOutOfRange(m)
	case m.Error != None:
		n.backOff()
		return nil
	case m.DivergingEpoch != nil:
		leo := n.log.LogEndOffset()
		if _, err := n.truncationRound(*m.DivergingEpoch); err != nil {
			return err
		}
		if n.cfg.TruncationPoint != nil && n.log.LogEndOffset() == leo {
			// A rule given in Config that cuts nothing would get the same
			// DivergingEpoch at once, forever: ask again after the backoff.
			n.backOff()
			return nil
		}
		n.sendFetch()
		return nil
	}
	// Entries may start above the LEO when the fetch offset fell in a gap
	// the leader's cleaner left: they are appended at their offsets.
	if len(m.Entries) > 0 && m.Entries[0].Offset >= n.log.LogEndOffset() {
		if err := n.log.AppendAsFollower(m.Entries); err != nil {
			return fmt.Errorf("%w: broker %d: append %d entries at %d: %w", ErrLog, n.cfg.ID, len(m.Entries), m.Entries[0].Offset, err)
		}
	}
	n.setHW(max(min(m.HighWatermark, n.log.LogEndOffset()), n.log.LogStartOffset()))
	n.sendFetch()
	return nil
}

// handleOutOfRange is AbstractFetcherThread.handleOutOfRangeError: truncate to the leader's end if it is below
// ours, start over at the leader's log start if we are below it, else wait.
func (n *Node) handleOutOfRange(m Message) error {
	leo := n.log.LogEndOffset()
	switch {
	case m.LogEndOffset < leo:
		if err := n.truncateTo(m.LogEndOffset); err != nil {
			return err
		}
	case m.LogStartOffset > leo:
		if err := n.log.TruncateFullyAndStartAt(m.LogStartOffset); err != nil {
			return fmt.Errorf("%w: broker %d: start at %d: %w", ErrLog, n.cfg.ID, m.LogStartOffset, err)
		}
		n.emit(Event{Kind: EventTruncated, Old: leo, New: m.LogStartOffset})
		n.setHW(m.LogStartOffset)
	default:
		n.backOff()
		return nil
	}
	n.sendFetch()
	return nil
}

// handleOffsetsForLeaderEpochResponse finishes a truncation round (KIP-101,
// KIP-279) and either asks again or starts fetching.
func (n *Node) handleOffsetsForLeaderEpochResponse(m Message) error {
	if !n.accepts(m, FetchTruncating) {
		return nil
	}
	if m.Error != None {
		n.backOff()
		return nil
	}
	done, err := n.truncationRound(EpochEndOffset{Epoch: m.Epoch, EndOffset: m.EndOffset})
	if err != nil {
		return err
	}
	if _, hasEpochs := n.latestEpoch(); done || !hasEpochs {
		n.startFetching()
		return nil
	}
	n.sendOffsetsForLeaderEpoch()
	return nil
}
