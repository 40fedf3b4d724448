package replica

import (
	"errors"
	"fmt"
	"slices"
)

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
	// follower, then where the last round cut. V3_7 and V4 read the
	// LEO instead ([RuleSet.InitialFetchOffsetIsLEO]).
	fetchOffset int64
	// part is the truncation [Config.Truncate] runs, nil while the
	// reference's rounds run.
	part *partTruncation
	// refused and refusedAt: the last fetch answer's records failed their
	// check at fetch offset refusedAt (reported once per offset).
	refused   bool
	refusedAt int64
	// held: the outstanding fetch is held in the leader's fetch session
	// (MsgFetchHeld) since heldMs: no request timeout runs. inSession: the
	// last fetch answer came without error, so the next fetch is
	// incremental.
	held, inSession bool
	heldMs          int64
}

// partTruncation is a truncation handed to [Config.Truncate]: the log as it
// started, the questions asked and the answers they got, in order, and the
// question in flight.
type partTruncation struct {
	start   FollowerState
	asked   []int32
	answers []EpochEndOffset
	next    int32
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
	case n.cfg.Rules < V3_7:
		n.follow.state = FetchTruncating
		if n.cfg.Truncate != nil && n.cfg.Rules == V2_1 {
			latest, _ := n.latestEpoch()
			n.follow.part = &partTruncation{next: latest, start: FollowerState{Epochs: slices.Clone(n.log.Epochs()),
				LogEndOffset: n.log.LogEndOffset(), HighWatermark: n.hw}}
		}
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
	n.follow.outstanding, n.follow.sentMs, n.follow.backoffUntilMs, n.follow.held = n.follow.corr, n.now, 0, false
	return n.follow.corr
}

// sendFetch sends the follower's Fetch from its LEO (LeaderEndPoint.buildFetch, 3.7).
func (n *Node) sendFetch() {
	m := Message{Type: MsgFetch, To: n.leaderID, CorrelationID: n.newRequest(),
		FetchOffset: n.log.LogEndOffset(), CurrentLeaderEpoch: n.requestEpoch(),
		LastFetchedEpoch: NoEpoch, MaxWaitMs: n.cfg.ReplicaFetchWaitMaxMs, Incremental: n.follow.inSession}
	if n.cfg.Rules.TruncatesOnFetch() {
		m.LastFetchedEpoch, _ = n.latestEpoch()
	}
	n.send(m)
}

func (n *Node) sendOffsetsForLeaderEpoch() {
	epoch, _ := n.latestEpoch()
	if n.follow.part != nil {
		epoch = n.follow.part.next
	}
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
	case f.state == FetchIdle, f.held:
	case f.outstanding != 0 && n.now-f.sentMs >= n.cfg.ReplicaSocketTimeoutMs:
		f.inSession = false // a failed fetch starts the session over (FetchSessionHandler.handleError)
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
	n.follow.outstanding, n.follow.held = 0, false
	n.follow.inSession = m.Type == MsgFetchResponse && m.Error == None
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
			if tooLarge := errors.Is(err, ErrRecordBatchTooLarge); tooLarge || errors.Is(err, ErrCorruptMessage) || errors.Is(err, ErrInvalidRecord) {
				// The leader's bytes fail their check (disk damage on the
				// leader): nothing is appended, nor the HW taken, and the
				// partition is retried after replica.fetch.backoff.ms, as
				// AbstractFetcherThread.processFetchRequest does with a
				// CorruptRecordException or InvalidRecordException
				// (Kafka 3.7); the follower falls behind, out of the ISR.
				// Records that no segment can hold are retried alike
				// (ErrRecordBatchTooLarge).
				if leo := n.log.LogEndOffset(); !n.follow.refused || n.follow.refusedAt != leo {
					n.follow.refused, n.follow.refusedAt = true, leo
					kind := EventInvalidFetchData
					if tooLarge {
						kind = EventFetchTooLarge
					}
					n.emit(Event{Kind: kind, Old: leo, New: int64(m.From)})
				}
				n.backOff()
				return nil
			}
			return fmt.Errorf("%w: broker %d: append %d entries at %d: %w", ErrLog, n.cfg.ID, len(m.Entries), m.Entries[0].Offset, err)
		}
	}
	n.setHW(max(min(m.HighWatermark, n.log.LogEndOffset()), n.log.LogStartOffset()))
	if err := n.followLogStart(m.LogStartOffset); err != nil {
		return err
	}
	n.sendFetch()
	return nil
}

// followLogStart moves the log start offset forward to the leader's
// (leaderStart, from a fetch answer) when the log is a [LogStartRaiser],
// the rules have it ([RuleSet.FollowsLeaderLogStart]) and the leader's start is above its own and not above the HW just
// taken, as Kafka's follower does after each fetch: a follower that was
// down while its leader's retention deleted records, or that rolled its
// segments elsewhere, has the leader's start, and a consumer reading it
// once it leads finds no record the partition already deleted.
func (n *Node) followLogStart(leaderStart int64) error {
	l, ok := n.log.(LogStartRaiser)
	old := n.log.LogStartOffset()
	if !ok || !n.cfg.Rules.FollowsLeaderLogStart() || leaderStart <= old || leaderStart > n.hw {
		return nil
	}
	if err := l.RaiseLogStartOffset(leaderStart, n.hw); err != nil {
		return fmt.Errorf("%w: broker %d: raise the log start to the leader's %d: %w", ErrLog, n.cfg.ID, leaderStart, err)
	}
	n.emit(Event{Kind: EventLogStartRaised, Old: old, New: n.log.LogStartOffset()})
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
	answer := EpochEndOffset{Epoch: m.Epoch, EndOffset: m.EndOffset}
	if p := n.follow.part; p != nil && (len(p.answers) > 0 || answer.EndOffset != UndefinedOffset) {
		p.asked, p.answers = append(p.asked, p.next), append(p.answers, answer)
		return n.partRound()
	}
	n.follow.part = nil
	done, err := n.truncationRound(answer)
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

// partRound calls [Config.Truncate] with the answers so far and applies the
// follower state it returns: the cut of the rounds answered, as Kafka cuts
// after each answer. Then it asks the question still unanswered, or starts
// fetching; declined, the reference's rounds go on from the log as it is.
func (n *Node) partRound() error {
	p := n.follow.part
	i, unanswered := 0, false
	ask := func(epoch int32) EpochEndOffset {
		if !unanswered && i < len(p.answers) && p.asked[i] == epoch {
			i++
			return p.answers[i-1]
		}
		if !unanswered {
			// A question not asked yet: the answers after it are stale.
			unanswered, p.next = true, epoch
			p.asked, p.answers = p.asked[:i], p.answers[:i]
		}
		// Still in flight: the answer that cuts nothing (the epoch asked
		// about ends where the log ended), so that the call returns what
		// the answered rounds left.
		return EpochEndOffset{Epoch: epoch, EndOffset: p.start.LogEndOffset}
	}
	got, ok := n.cfg.Truncate(FollowerState{Epochs: slices.Clone(p.start.Epochs),
		LogEndOffset: p.start.LogEndOffset, HighWatermark: p.start.HighWatermark}, ask)
	if !ok || !n.validTruncation(p.start, got) || unanswered && len(p.answers) > len(p.start.Epochs) {
		n.follow.part = nil
		n.sendOffsetsForLeaderEpoch()
		return nil
	}
	if err := n.applyTruncation(got); err != nil {
		return err
	}
	if unanswered {
		n.sendOffsetsForLeaderEpoch()
		return nil
	}
	n.follow.part = nil
	n.startFetching()
	return nil
}

// validTruncation reports whether got is a state a truncation of start may
// leave ([FollowerState]) on the log as it is now: no longer than it, with
// an epoch for every record below its end (the cut puts back only those it
// would drop), on a log whose cache is still a prefix of start's.
func (n *Node) validTruncation(start, got FollowerState) bool {
	logStart := n.log.LogStartOffset()
	kept := 0
	for kept < len(start.Epochs) && start.Epochs[kept].StartOffset < got.LogEndOffset {
		kept++
	}
	now := n.log.Epochs()
	return len(now) <= len(start.Epochs) && slices.Equal(now, start.Epochs[:len(now)]) &&
		got.LogEndOffset >= logStart && got.LogEndOffset <= n.log.LogEndOffset() &&
		got.HighWatermark >= logStart && got.HighWatermark <= start.HighWatermark &&
		len(got.Epochs) >= kept && len(got.Epochs) <= len(start.Epochs) &&
		slices.Equal(got.Epochs, start.Epochs[:len(got.Epochs)])
}

// applyTruncation makes the log what [Config.Truncate] returned: cut at its
// LogEndOffset, the epochs it kept that the cut dropped put back, its HW.
func (n *Node) applyTruncation(got FollowerState) error {
	n.byPart = true
	err := n.truncateTo(got.LogEndOffset)
	n.byPart = false
	if err != nil {
		return err
	}
	kept := len(n.log.Epochs())
	if kept > len(got.Epochs) {
		return fmt.Errorf("%w: broker %d: truncation to %d keeps %d epochs, the log %d", ErrLog, n.cfg.ID, got.LogEndOffset, len(got.Epochs), kept)
	}
	for _, e := range got.Epochs[kept:] {
		if err := n.log.AssignEpoch(e.Epoch, e.StartOffset); err != nil {
			return fmt.Errorf("%w: broker %d: epoch %d at %d: %w", ErrLog, n.cfg.ID, e.Epoch, e.StartOffset, err)
		}
	}
	n.follow.fetchOffset = got.LogEndOffset
	n.setHW(got.HighWatermark)
	return nil
}
