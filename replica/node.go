package replica

import (
	"fmt"
	"math"
)

// Role is what a replica currently is for its partition.
type Role int

// The roles. A replica is RoleNone from [NewNode] until the controller's first
// LeaderAndIsr reaches it.
const (
	RoleNone Role = iota
	RoleLeader
	RoleFollower
)

// String returns "none", "leader" or "follower".
func (r Role) String() string {
	switch r {
	case RoleLeader:
		return "leader"
	case RoleFollower:
		return "follower"
	}
	return "none"
}

// NoLeader is the leader id of a partition without a leader (offline).
const NoLeader int32 = -1

// Node is one partition replica as a deterministic state machine, in the
// shape of etcd-io/raft's RawNode: the caller steps messages in with
// [Node.Step], moves time with [Node.Tick], applies the controller's decisions
// with [Node.BecomeLeader] and [Node.BecomeFollower], and collects what the
// node wants done with [Node.Ready] and [Node.Advance]. A Node starts no
// goroutines, reads no clock and does no I/O except through its [Log]. It is
// not safe for concurrent use.
type Node struct {
	cfg Config
	log Log
	now int64

	role           Role
	leaderID       int32
	leaderEpoch    int32
	partitionEpoch int32
	replicas       []int32
	isr            []int32
	hw             int64
	// byPart is set while a cut chosen by Config.TruncationPoint is made.
	byPart bool

	lead   leaderState
	follow followerState
	// alterCorr numbers AlterPartition proposals across leaderships.
	alterCorr int64

	out Ready
}

// NewNode returns a replica of the partition whose log is log, in
// [RoleNone]. Its HW is cfg.InitialHighWatermark clamped to the log.
func NewNode(cfg Config, log Log) (*Node, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if log == nil {
		return nil, fmt.Errorf("%w: nil Log", ErrInvalidConfig)
	}
	n := &Node{cfg: cfg, log: log, now: cfg.NowMs, leaderID: NoLeader, leaderEpoch: NoEpoch}
	n.hw = min(max(cfg.InitialHighWatermark, log.LogStartOffset()), log.LogEndOffset())
	n.out.HighWatermark = n.hw
	return n, nil
}

// Step hands the node one message: a Produce, a Fetch or an
// OffsetsForLeaderEpoch request, or an answer to one of its own requests.
// Answers it no longer waits for are ignored. An error means the message was
// not for this node or the Log failed; protocol errors go back as answers.
func (n *Node) Step(m Message) error {
	if m.To != n.cfg.ID {
		return fmt.Errorf("%w: %s to %d stepped into broker %d", ErrWrongNode, m.Type, m.To, n.cfg.ID)
	}
	n.alignShrinkCheck() // before what it brings ends a hold (session.go)
	switch m.Type {
	case MsgProduce:
		return n.handleProduce(m)
	case MsgFetch:
		return n.handleFetch(m)
	case MsgFetchResponse:
		return n.handleFetchResponse(m)
	case MsgOffsetsForLeaderEpoch:
		n.handleOffsetsForLeaderEpoch(m)
		return nil
	case MsgOffsetsForLeaderEpochResponse:
		return n.handleOffsetsForLeaderEpochResponse(m)
	case MsgAlterPartitionResponse:
		n.handleAlterPartitionResponse(m)
		return nil
	case MsgFetchHeld:
		n.handleFetchHeld(m)
		return nil
	}
	return fmt.Errorf("%w: %d from %d", ErrUnknownMessage, int(m.Type), m.From)
}

// Tick moves the node's clock to nowMs (earlier values are ignored) and runs
// what is due: parked fetches that waited long enough, acks=all produces past
// their timeout, the ISR shrink check, and a follower's resends.
func (n *Node) Tick(nowMs int64) {
	n.now = max(n.now, nowMs)
	switch n.role {
	case RoleLeader:
		n.tickLeader()
	case RoleFollower:
		n.tickFollower()
	}
}

// Ready returns what the node wants done since the last [Node.Advance]:
// messages to send, produce answers, ISR proposals for the controller, and
// the events that happened. The caller must pass it back to Advance once done.
func (n *Node) Ready() Ready {
	rd := n.out
	rd.HighWatermark = n.hw
	return rd
}

// HasReady reports whether [Node.Ready] holds anything to act on.
func (n *Node) HasReady() bool {
	return len(n.out.Messages)+len(n.out.ProduceResponses)+len(n.out.AlterPartitions)+len(n.out.Events) > 0
}

// Advance tells the node that everything in rd, obtained from [Node.Ready],
// was handled.
func (n *Node) Advance(rd Ready) {
	n.out.Messages = n.out.Messages[min(len(rd.Messages), len(n.out.Messages)):]
	n.out.ProduceResponses = n.out.ProduceResponses[min(len(rd.ProduceResponses), len(n.out.ProduceResponses)):]
	n.out.AlterPartitions = n.out.AlterPartitions[min(len(rd.AlterPartitions), len(n.out.AlterPartitions)):]
	n.out.Events = n.out.Events[min(len(rd.Events), len(n.out.Events)):]
}

func (n *Node) send(m Message) {
	m.From = n.cfg.ID
	n.out.Messages = append(n.out.Messages, m)
}

func (n *Node) emit(e Event) { n.out.Events = append(n.out.Events, e) }

// setHW moves the HW and records it; a follower's may go down (a
// follower takes the leader's HW, bounded by its own LEO).
func (n *Node) setHW(hw int64) {
	if hw == n.hw {
		return
	}
	n.emit(Event{Kind: EventHighWatermark, Old: n.hw, New: hw})
	n.hw = hw
	if n.role == RoleLeader {
		n.releaseHeld(NoLeader, n.now) // the followers it holds learn it at their wait's end
	}
}

// truncateTo cuts the log at offset if that is below its end, and keeps the
// HW within the log. An offset below the log start empties the log and
// starts it there, as Kafka does when the first segment's base offset is
// above the target (truncateFullyAndStartAt, the HW with it), in every
// version (0.10.2's Log.truncateTo, 3.7.0's UnifiedLog.truncateTo): a
// follower whose retention deleted what lay below its LEO, told that its
// leader ends below that, fetches from the leader's end.
func (n *Node) truncateTo(offset int64) error {
	leo := n.log.LogEndOffset()
	if offset > leo {
		return nil
	}
	if offset < n.log.LogStartOffset() {
		if offset < 0 {
			return fmt.Errorf("%w: broker %d: truncate to negative offset %d", ErrLog, n.cfg.ID, offset)
		}
		if err := n.log.TruncateFullyAndStartAt(offset); err != nil {
			return fmt.Errorf("%w: broker %d: truncate to %d below log start %d: %w", ErrLog, n.cfg.ID, offset, n.log.LogStartOffset(), err)
		}
		n.emit(Event{Kind: EventTruncated, Old: leo, New: offset, ByPart: n.byPart})
		n.setHW(offset)
		return nil
	}
	if err := n.log.TruncateTo(offset); err != nil {
		return fmt.Errorf("%w: broker %d: truncate to %d: %w", ErrLog, n.cfg.ID, offset, err)
	}
	if offset == leo {
		return nil
	}
	n.emit(Event{Kind: EventTruncated, Old: leo, New: offset, ByPart: n.byPart})
	n.setHW(min(n.hw, n.log.LogEndOffset()))
	return nil
}

// latestEpoch is the newest epoch in the log's epoch cache.
func (n *Node) latestEpoch() (int32, bool) {
	epochs := n.log.Epochs()
	if len(epochs) == 0 {
		return NoEpoch, false
	}
	return epochs[len(epochs)-1].Epoch, true
}

// requestEpoch is the CurrentLeaderEpoch to put in requests.
func (n *Node) requestEpoch() int32 {
	if n.cfg.Rules.Fencing() {
		return n.leaderEpoch
	}
	return NoEpoch
}

// NextTickMs returns the earliest time at which [Node.Tick] has something to
// do if no message or decision reaches the node first: a parked fetch's or
// produce's wait over, the leader's ISR shrink check due
// (replica.lag.time.max.ms / 2 after the last), an AlterPartition to send
// again, a follower's request past replica.socket.timeout.ms or its back-off
// over; math.MaxInt64 if nothing. A Tick before it changes nothing but the
// clock, so a caller hosting many replicas may tick each only when this
// time comes, as Kafka's purgatories fire only the operations whose timers
// expire, provided it moves the clock ([Node.SetNow]) before anything else
// it hands the node; the answer changes after Step, a leadership change and
// Tick.
func (n *Node) NextTickMs() int64 {
	next := int64(math.MaxInt64)
	switch n.role {
	case RoleLeader:
		for _, p := range n.lead.parkedFetches {
			next = min(next, p.deadlineMs)
		}
		for _, p := range n.lead.parkedProduces {
			next = min(next, p.deadlineMs)
		}
		if !n.allOthersHeld() {
			next = min(next, n.lead.lastShrinkCheckMs+n.cfg.ReplicaLagTimeMaxMs/2)
		}
		if n.lead.pendingISR != nil {
			next = min(next, n.lead.pendingSentMs+n.cfg.ReplicaSocketTimeoutMs)
		}
	case RoleFollower:
		switch f := &n.follow; {
		case f.state == FetchIdle, f.held:
		case f.outstanding != 0:
			next = f.sentMs + n.cfg.ReplicaSocketTimeoutMs
		case f.backoffUntilMs != 0:
			next = f.backoffUntilMs
		}
	}
	return next
}

// SetNow moves the node's clock to nowMs (earlier values are ignored)
// without running what is due: what a message or a decision handed to the
// node next reads as the time (a parked fetch's deadline, a follower's
// last fetch). See [Node.NextTickMs].
func (n *Node) SetNow(nowMs int64) { n.now = max(n.now, nowMs) }
