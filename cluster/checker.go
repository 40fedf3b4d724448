package cluster

import (
	"bytes"
	"fmt"
	"math"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/replica"
)

// Invariant names, as [Violation.Invariant] and the violation events carry
// them.
const (
	// InvHWWithinLog: logStart ≤ HW ≤ LEO on every running replica.
	InvHWWithinLog = "hw-within-log"
	// InvLeaderHWMonotonic: the leader's HW never moves back while the same
	// broker leads in the same epoch.
	InvLeaderHWMonotonic = "leader-hw-monotonic"
	// InvLogMatching: any two running replicas that know their role hold the
	// same records below the smaller of their HWs (fails under 0.10 rules in
	// KIP-101 part 3).
	InvLogMatching = "log-matching"
	// InvISRComplete: every running, unfenced ISR member holds every offset
	// below the leader's HW (fails in KIP-101 part 1 and after the S3 power
	// cut).
	InvISRComplete = "isr-complete"
	// InvOneLeaderPerEpoch: no two brokers lead a partition in the same
	// leader epoch.
	InvOneLeaderPerEpoch = "one-leader-per-epoch"
	// InvEpochCache: epoch cache entries strictly increase in epoch and
	// start offset, and records' epochs never decrease along the log.
	InvEpochCache = "epoch-cache-ordered"
)

// Violation is one invariant found broken.
type Violation struct {
	TimeMs    int64
	Step      int
	Invariant string
	Topic     string
	Partition int32
	Text      string
}

// String prints the violation on one line.
func (v Violation) String() string {
	return fmt.Sprintf("t=%d #%d %s %s-%d: %s", v.TimeMs, v.Step, v.Invariant, v.Topic, v.Partition, v.Text)
}

// checker keeps what the invariants need across steps.
type checker struct {
	violations []Violation
	// active holds the (invariant, partition) pairs broken at the last
	// check, so that a lasting violation is reported once.
	active     map[activeKey]bool
	leaderHW   map[partitionKey]leaderMark
	epochOwner map[epochKey]int32
	// seen is the number of events at the last check: a step without a
	// new event changed no HW, role, ISR, truncation or broker, so the
	// check is skipped.
	seen int
	// matched remembers, per pair of logs, how far they were found equal.
	matched map[pairKey]pairMark
	// pending are the partitions changed since the last check, perhaps
	// some more than once, and pendingAll says that every partition is to
	// be checked (checkerchanges.go).
	pending    []partitionKey
	pendingAll bool
	// compacted is len(pending) when last sorted and compacted.
	compacted int
}

// activeKey is an invariant broken on a partition.
type activeKey struct {
	inv string
	tp  partitionKey
}

type pairKey struct {
	tp   partitionKey
	a, b int32
}

// pairMark is a verified common prefix, valid while neither log was
// replaced (its broker restarted: a new incarnation; its topic deleted:
// the mark goes with it) or truncated (a new generation of the log).
type pairMark struct {
	incA, incB int
	genA, genB int
	upTo       int64
}

type leaderMark struct {
	broker int32
	epoch  int32
	hw     int64
}

type epochKey struct {
	tp    partitionKey
	epoch int32
}

// Violations returns every invariant violation found so far.
func (w *World) Violations() []Violation { return w.check.violations }

// liveReplica is what the checker reads of one running replica: its
// progress and its epoch cache (the log's own, not to be modified).
type liveReplica struct {
	broker int32
	inc    int // the broker's incarnation
	st     replica.Progress
	epochs []replica.EpochEntry
	log    *replicalog.Log
}

// liveOf is what the checker reads of replica s on broker id.
func liveOf(b *broker.Broker, s *broker.Partition) liveReplica {
	return liveReplica{broker: b.ID(), inc: b.Incarnation(), st: s.Node.Progress(), epochs: s.Log.Epochs(), log: s.Log}
}

// runChecker checks the invariants after a step, on the partitions that
// changed since the last check (every partition with
// [Config.TickEveryPartition], on the first check and after a broker's
// standing changed): a partition whose replicas, leader and ISR did not
// change breaks what it broke at its last check, and no more.
func (w *World) runChecker() {
	c := &w.check
	w.takeChanged()
	if c.seen == w.eventBase+len(w.events) && c.active != nil {
		return
	}
	defer func() { c.seen = w.eventBase + len(w.events) }()
	if c.active == nil {
		c.active, c.leaderHW, c.epochOwner = map[activeKey]bool{}, map[partitionKey]leaderMark{}, map[epochKey]int32{}
		c.matched = map[pairKey]pairMark{}
		c.pendingAll = true
	}
	if c.pendingAll || w.cfg.TickEveryPartition {
		was := c.active
		c.active = map[activeKey]bool{}
		for _, tp := range w.ctl.Partitions() {
			w.checkOne(tp, func(k activeKey) bool { return was[k] })
		}
	} else {
		for _, tp := range c.takePending() {
			var was [len(invariants)]bool
			for i, inv := range invariants {
				k := activeKey{inv, tp}
				was[i] = c.active[k]
				delete(c.active, k)
			}
			w.checkOne(tp, func(k activeKey) bool { return was[slices.Index(invariants[:], k.inv)] })
		}
	}
	c.pending, c.pendingAll = c.pending[:0], false
}

// invariants are the invariants' names.
var invariants = [...]string{InvHWWithinLog, InvLeaderHWMonotonic, InvLogMatching, InvISRComplete, InvOneLeaderPerEpoch, InvEpochCache}

// checkOne checks partition tp's invariants: it records those broken that
// were not (was) and marks every one broken active.
func (w *World) checkOne(tp partitionKey, was func(activeKey) bool) {
	c := &w.check
	var buf [4]liveReplica // a partition's replicas, on the stack for the usual few
	live := buf[:0]
	for _, id := range w.ctl.Replicas(tp) {
		if s := w.brokers[id-1].Partition(tp); s != nil {
			live = append(live, liveOf(w.brokers[id-1], s))
		}
	}
	for _, f := range w.checkPartition(tp, live) {
		key := activeKey{f.Invariant, tp}
		if !was(key) {
			f.TimeMs, f.Step, f.Topic, f.Partition = w.now, w.actionBase+len(w.actions)-1, tp.Topic, tp.Partition
			c.violations = append(c.violations, f)
			w.record(EventViolation, 0, &tp, "%s: %s", f.Invariant, f.Text)
		}
		c.active[key] = true
	}
}

// checkPartition returns the invariants broken on one partition.
func (w *World) checkPartition(tp partitionKey, live []liveReplica) []Violation {
	var out []Violation
	bad := func(inv, format string, args ...any) {
		out = append(out, Violation{Invariant: inv, Text: fmt.Sprintf(format, args...)})
	}
	var leader *liveReplica
	for i := range live {
		r := &live[i]
		if r.st.HighWatermark > r.st.LogEndOffset || r.st.HighWatermark < r.st.LogStartOffset {
			bad(InvHWWithinLog, "b%d: HW %d outside [%d, %d]", r.broker, r.st.HighWatermark, r.st.LogStartOffset, r.st.LogEndOffset)
		}
		if msg := epochOrderProblem(r); msg != "" {
			bad(InvEpochCache, "b%d: %s", r.broker, msg)
		}
		if r.st.Role == replica.RoleLeader {
			k := epochKey{tp, r.st.LeaderEpoch}
			if owner, ok := w.check.epochOwner[k]; ok && owner != r.broker {
				bad(InvOneLeaderPerEpoch, "b%d and b%d both led epoch %d", owner, r.broker, r.st.LeaderEpoch)
			} else {
				w.check.epochOwner[k] = r.broker
			}
			if r.broker == w.ctl.Leader(tp) {
				leader = r
			}
		}
	}
	if leader != nil {
		mark := w.check.leaderHW[tp]
		if mark.broker == leader.broker && mark.epoch == leader.st.LeaderEpoch && leader.st.HighWatermark < mark.hw {
			bad(InvLeaderHWMonotonic, "leader b%d's HW went back from %d to %d in epoch %d", leader.broker, mark.hw, leader.st.HighWatermark, mark.epoch)
		}
		w.check.leaderHW[tp] = leaderMark{leader.broker, leader.st.LeaderEpoch, leader.st.HighWatermark}
		for _, r := range live {
			if w.ctl.InISR(tp, r.broker) && w.ctl.Unfenced(r.broker) && r.st.LogEndOffset < leader.st.HighWatermark {
				bad(InvISRComplete, "ISR member b%d ends at %d, below leader b%d's HW %d", r.broker, r.st.LogEndOffset, leader.broker, leader.st.HighWatermark)
			}
		}
	}
	for i := range live {
		for j := i + 1; j < len(live); j++ {
			if live[i].st.Role == replica.RoleNone || live[j].st.Role == replica.RoleNone {
				continue // just restarted: its HW is a checkpoint until it follows someone
			}
			if off, ok := w.check.firstDifference(tp, &live[i], &live[j]); ok {
				bad(InvLogMatching, "b%d and b%d differ at offset %d, below both HWs", live[i].broker, live[j].broker, off)
			}
		}
	}
	return out
}

// firstDifference is [firstDifference] starting where the same two logs
// were last found equal.
func (c *checker) firstDifference(tp partitionKey, a, b *liveReplica) (int64, bool) {
	key := pairKey{tp, a.broker, b.broker}
	m := c.matched[key]
	from := int64(0)
	if m.incA == a.inc && m.incB == b.inc && m.genA == a.log.Gen() && m.genB == b.log.Gen() {
		from = m.upTo
	}
	off, differ := firstDifference(a, b, from)
	if !differ {
		c.matched[key] = pairMark{incA: a.inc, incB: b.inc, genA: a.log.Gen(), genB: b.log.Gen(), upTo: max(from, min(a.st.HighWatermark, b.st.HighWatermark))}
	}
	return off, differ
}

// firstDifference finds the first offset in [from, min(HW_a, HW_b)) where
// two replicas hold different records.
func firstDifference(a, b *liveReplica, from int64) (int64, bool) {
	limit := min(a.st.HighWatermark, b.st.HighWatermark)
	from = max(from, a.st.LogStartOffset, b.st.LogStartOffset)
	ca, cb := a.log.Mirror().CursorAt(a.log.Index(from)), b.log.Mirror().CursorAt(b.log.Index(from))
	// Walk both by offset: an offset one replica's cleaner removed and the
	// other's not yet is no difference (each replica compacts on its own).
	for {
		if replicalog.SkipSame(&ca, &cb) {
			continue
		}
		x, y := ca.Entry(), cb.Entry()
		if x == nil || y == nil || x.Offset >= limit || y.Offset >= limit {
			return 0, false
		}
		switch {
		case x.Offset < y.Offset:
			ca.Next()
		case y.Offset < x.Offset:
			cb.Next()
		case x == y:
			// a follower's entry is its leader's own (the mirror shares
			// what a fetch carried)
			ca.Next()
			cb.Next()
		case x.LeaderEpoch != y.LeaderEpoch || !bytes.Equal(x.Key, y.Key) || !bytes.Equal(x.Value, y.Value):
			return x.Offset, true
		default:
			ca.Next()
			cb.Next()
		}
	}
}

// epochOrderProblem checks one replica's epoch cache and record epochs.
func epochOrderProblem(r *liveReplica) string {
	for i := 1; i < len(r.epochs); i++ {
		p, e := r.epochs[i-1], r.epochs[i]
		if e.Epoch <= p.Epoch || e.StartOffset <= p.StartOffset {
			return fmt.Sprintf("epoch cache not increasing at %v then %v", p, e)
		}
	}
	l := r.log
	if l.Mirror().Len() < 2 {
		return ""
	}
	// a lazy chunk's records all have its batch's epoch: checked as one
	from := max(l.EpochsCheckedTo, 1) - 1
	prev := int32(math.MinInt32)
	for span, epoch := range l.Mirror().Epochs(from) {
		if epoch < prev {
			return fmt.Sprintf("record at %d has epoch %d after epoch %d", l.Mirror().OffsetAt(span[0]), epoch, prev)
		}
		l.EpochsCheckedTo, prev = span[1]-1, epoch
	}
	return ""
}
