package explore

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
)

// Transactions in the user-level explorer ([UserConfig.Transactions]):
// besides what users do to the default world, a sequence adds
// transactional producers (some sharing a transactional.id, so that a
// newer one fences an older, a zombie), has them produce, commit and
// abort, and adds simple consumers with isolation.level read_committed.
// These draws come from a stream of their own, so that the other draws of
// a seed are those of a sequence without them. Checked after every
// operation while the world is within the fault model and the partition
// is not damaged:
//
//   - no partition's last stable offset is above its high watermark;
//   - no read_committed consumer has handed out a record of an aborted
//     transaction (its batch's producer id has an aborted transaction in
//     the leader's .txnindex covering the record's offset);
//
// and at a settle, once the consumers polled: a read_committed consumer
// whose position was never reset has handed out every record of its
// partition below its position (from the log start offset on) but the
// markers and the aborted transactions' records, and nothing else: each
// committed transaction in offset order, up to the last stable offset.
// Copiers (consume-transform-produce) are drawn too, with their own
// invariants (userctp.go).

// userTxnIDs are the transactional ids the explorer's producers take: two
// producers with the same one fence each other.
var userTxnIDs = []string{"pay-tx", "ledger-tx"}

// userTxnOp draws one transactional operation, the id-th of the sequence;
// producers are the transactional producers added so far.
func userTxnOp(r *rand.Rand, id int, producers *[]string) UserOp {
	o := UserOp{Kind: UserAction, ID: id}
	switch k := r.IntN(12); {
	case len(*producers) == 0 || k == 0:
		name := fmt.Sprintf("tx%d", id)
		p := cluster.ProducerConfig{Name: name, Topic: pick2(r, userTopics), TransactionalID: pick2(r, userTxnIDs)}
		if r.IntN(2) == 0 {
			p.Keys = []string{"alice", "bob", "u1"}
		}
		if r.IntN(3) == 0 {
			p.LingerMs = 20
		}
		*producers = append(*producers, name)
		o.Action = cluster.Action{Kind: cluster.ActAddProducer, Producer: p}
	case k < 7:
		o.Action = cluster.Action{Kind: cluster.ActProduce, Name: pick2(r, *producers), Partition: -1}
		o.Size = r.IntN(40)
	case k < 9:
		o.Action = cluster.Action{Kind: cluster.ActCommitTransaction, Name: pick2(r, *producers)}
	case k < 10:
		o.Action = cluster.Action{Kind: cluster.ActAbortTransaction, Name: pick2(r, *producers)}
	default:
		t := defaultworld.Topics()[r.IntN(len(defaultworld.Topics()))]
		o.Action = cluster.Action{Kind: cluster.ActAddConsumer, Consumer: cluster.ConsumerConfig{Name: fmt.Sprintf("rc%d", id),
			Topic: t.Name, Partition: int32(r.IntN(int(t.Partitions))), PollIntervalMs: 1000, IsolationLevel: cluster.ReadCommitted}}
	}
	return o
}

// checkTransactions checks the invariants of transactions on the world's
// state; settled: after a settle, when the read_committed consumers have
// read what they can.
func (u *userRun) checkTransactions(settled bool) {
	if !u.cfg.Transactions || !u.withinModel() {
		return
	}
	st := u.w.State()
	parts := map[cluster.PartitionRef]*cluster.PartitionInfo{}
	for i := range st.Partitions {
		p := &st.Partitions[i]
		parts[cluster.PartitionRef{Topic: p.Topic, Partition: p.Partition}] = p
		if p.LastStableOffset != nil && *p.LastStableOffset > p.HighWatermark {
			u.fail("lso-above-hw", "%s-%d: last stable offset %d above the high watermark %d", p.Topic, p.Partition, *p.LastStableOffset, p.HighWatermark)
		}
	}
	for _, c := range u.w.Consumers() {
		cfg := c.Config()
		ref := cluster.PartitionRef{Topic: cfg.Topic, Partition: cfg.Partition}
		p := parts[ref]
		if c.IsGroup() || cfg.IsolationLevel != cluster.ReadCommitted || p == nil || len(u.damagedOn(ref)) > 0 {
			continue
		}
		log := leaderRecords(p)
		if log == nil {
			continue
		}
		for _, r := range c.Records() {
			if ri, ok := log[r.Offset]; ok && ri.Value == r.Value && aborted(p, ri.ProducerID, r.Offset) {
				u.fail("read-committed-aborted", "%s handed out %s-%d offset %d (%s) of producer id %d's aborted transaction", c.Name(), ref.Topic, ref.Partition, r.Offset, r.Value, ri.ProducerID)
			}
		}
		if settled && c.Resets() == 0 {
			u.checkReadCommittedWhole(c, p, log)
		}
	}
	u.checkCopies(st, parts, settled)
}

// checkReadCommittedWhole checks that read_committed consumer c handed
// out every record of partition p below its position but the markers and
// the aborted ones, and nothing else.
func (u *userRun) checkReadCommittedWhole(c *cluster.Consumer, p *cluster.PartitionInfo, log map[int64]cluster.RecordInfo) {
	var want, got []string
	for _, ri := range log {
		if ri.Offset >= p.LogStartOffset && ri.Offset < c.Position() && !ri.Control && !aborted(p, ri.ProducerID, ri.Offset) {
			want = append(want, fmt.Sprintf("%d %s", ri.Offset, ri.Value))
		}
	}
	slices.Sort(want)
	for _, r := range c.Records() {
		if r.Offset >= p.LogStartOffset {
			got = append(got, fmt.Sprintf("%d %s", r.Offset, r.Value))
		}
	}
	slices.Sort(got)
	if !slices.Equal(want, got) {
		u.fail("read-committed-complete", "%s at position %d of %s-%d handed out %s, the committed records below it are %s", c.Name(), c.Position(), p.Topic, p.Partition,
			recordList(got), recordList(want))
	}
}

// recordList prints a list of records, its middle left out when long.
func recordList(xs []string) string {
	if len(xs) > 12 {
		return fmt.Sprintf("[%s ... %s] (%d)", strings.Join(xs[:6], ", "), strings.Join(xs[len(xs)-6:], ", "), len(xs))
	}
	return "[" + strings.Join(xs, ", ") + "]"
}

// leaderRecords are the records of p's leader replica by offset, nil
// without a running leader.
func leaderRecords(p *cluster.PartitionInfo) map[int64]cluster.RecordInfo {
	for _, l := range p.Logs {
		if l.Broker == p.Leader && l.Role == "leader" {
			out := make(map[int64]cluster.RecordInfo, len(l.Records))
			for _, ri := range l.Records {
				out[ri.Offset] = ri
			}
			return out
		}
	}
	return nil
}

// aborted reports whether the record at offset of producer id pid belongs
// to a transaction the partition's .txnindex lists as aborted.
func aborted(p *cluster.PartitionInfo, pid, offset int64) bool {
	if pid < 0 {
		return false
	}
	for _, t := range p.AbortedTransactions {
		if t.ProducerID == pid && offset >= t.FirstOffset && offset <= t.LastOffset {
			return true
		}
	}
	return false
}
