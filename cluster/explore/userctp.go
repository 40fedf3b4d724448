package explore

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
)

// Consume-transform-produce in the user-level explorer (with
// [UserConfig.Transactions]): copiers ([cluster.ActAddCopier]) read a
// partition of the default world's topics and copy it to the same
// partition of CopiesTopic, committing their group's offsets in their
// transactions. Each input partition has one transactional.id and one
// group (cp-orders-0...), so that a second copier of it fences the first,
// a zombie; the sequences abort and commit the copiers' transactions too.
// Checked, for each copier's group and input partition, on the leaders'
// logs (while the world is within the fault model and neither partition
// nor __consumer_offsets is damaged), a copy being committed when its
// transaction's COMMIT marker is in the output log (no ABORT, no open
// transaction of its producer before it) and below the high watermark:
//
//   - exactly once: no input record has two committed copies
//     (ctp-duplicate);
//   - a committed copy is of a record read_committed delivers: the input
//     holds, at its offset, that value, in no aborted transaction
//     (ctp-copy-unknown);
//   - the committed group offset never runs ahead of the committed output:
//     every record read_committed delivers below it has its committed copy
//     (ctp-offsets-ahead), unless the copier's transaction is between
//     PrepareCommit and CompleteCommit (its markers on their way) or its
//     coordinator is not known, or the output's retention deleted copies;
//   - at a settle, the output never runs ahead of the group's committed
//     offset either: no committed copy of an offset at or above it, on the
//     same conditions (ctp-output-ahead).
//
// [UserConfig.CopierMistake] plants a mistake these catch.

// CopierMistakes are the mistakes [UserConfig.CopierMistake] plants, each
// with what it does to the copiers drawn:
//
//   - auto-commit: enable.auto.commit=true, offsets committed outside the
//     transactions as the copier polls ([cluster.CopySource].AutoCommit):
//     the group offset runs ahead of the committed copies;
//   - no-offsets: no sendOffsetsToTransaction (NoOffsets): the copies run
//     ahead of the group offset, and a copier that starts again copies
//     twice;
//   - read-uncommitted: the consumer at isolation.level=read_uncommitted
//     (ReadUncommitted): records of aborted transactions are copied;
//   - own-transactional-id: each copier has a transactional.id of its own
//     instead of one per input partition: a second copier of a partition
//     does not fence the first, and both copy the same records.
var CopierMistakes = []string{"auto-commit", "no-offsets", "read-uncommitted", "own-transactional-id"}

// CopiesTopic is the topic the explorer's copiers write to: it has as many
// partitions as the widest of the default world's topics. The world of a
// sequence with transactions has it from the start.
const CopiesTopic = "copies"

// copiesTopic is CopiesTopic's spec.
func copiesTopic() cluster.TopicSpec {
	n := 1
	for _, t := range defaultworld.Topics() {
		n = max(n, t.Partitions)
	}
	return cluster.TopicSpec{Name: CopiesTopic, Partitions: n, ReplicationFactor: 3}
}

// userCopierOp draws an operation of the copiers, the id-th of the
// sequence: a new copier (fencing an older one of the same input), or an
// abort or commit of a copier's open transaction; copiers are those added
// so far.
func userCopierOp(r *rand.Rand, id int, copiers *[]string, mistake string) UserOp {
	o := UserOp{Kind: UserAction, ID: id}
	switch k := r.IntN(4); {
	case len(*copiers) == 0 || k < 2:
		t := defaultworld.Topics()[r.IntN(len(defaultworld.Topics()))]
		part := int32(r.IntN(int(t.Partitions)))
		group := fmt.Sprintf("cp-%s-%d", t.Name, part)
		name := fmt.Sprintf("cp%d", id)
		*copiers = append(*copiers, name)
		p := cluster.ProducerConfig{Name: name, Topic: CopiesTopic, TransactionalID: group,
			Copy: cluster.CopySource{Topic: t.Name, Partition: part, Group: group, MaxRecords: pick2(r, []int{3, 10, 50}),
				PollIntervalMs: pick2(r, []int64{200, 1000})}}
		switch mistake {
		case "auto-commit":
			p.Copy.AutoCommit = true
		case "no-offsets":
			p.Copy.NoOffsets = true
		case "read-uncommitted":
			p.Copy.ReadUncommitted = true
		case "own-transactional-id":
			p.TransactionalID = name + "-tx"
		}
		o.Action = cluster.Action{Kind: cluster.ActAddCopier, Producer: p}
	case k == 2:
		o.Action = cluster.Action{Kind: cluster.ActAbortTransaction, Name: pick2(r, *copiers)}
	default:
		o.Action = cluster.Action{Kind: cluster.ActCommitTransaction, Name: pick2(r, *copiers)}
	}
	return o
}

// copyRoute is what the copiers of one group and input partition share.
type copyRoute struct {
	group, tid string
	in, out    cluster.PartitionRef
}

// copyRoutes lists the routes of the world's copiers, once each.
func copyRoutes(w *cluster.World) []copyRoute {
	var out []copyRoute
	for _, p := range w.Producers() {
		if !p.IsCopier() {
			continue
		}
		c := p.Config()
		r := copyRoute{group: c.Copy.Group, tid: c.TransactionalID, in: cluster.PartitionRef{Topic: c.Copy.Topic, Partition: c.Copy.Partition},
			out: cluster.PartitionRef{Topic: c.Topic, Partition: c.Copy.Partition}}
		if !slices.ContainsFunc(out, func(o copyRoute) bool { return o.group == r.group && o.in == r.in && o.out == r.out }) {
			out = append(out, r) // a copier of its own transactional.id (a mistake) shares the first's route
		}
	}
	return out
}

// checkCopies checks the copiers' invariants on st (parts indexes its
// partitions); settled: at a settle.
func (u *userRun) checkCopies(st cluster.State, parts map[cluster.PartitionRef]*cluster.PartitionInfo, settled bool) {
	routes := copyRoutes(u.w)
	if len(routes) == 0 || slices.ContainsFunc(u.damage, func(d damageMark) bool { return d.tp.Topic == cluster.OffsetsTopic }) {
		return
	}
	groups := u.w.Groups()
	txns := u.w.Transactions()
	for _, r := range routes {
		in, out := parts[r.in], parts[r.out]
		if in == nil || out == nil || len(u.damagedOn(r.in)) > 0 || len(u.damagedOn(r.out)) > 0 {
			continue
		}
		inLog, outLog := leaderRecords(in), leaderRecords(out)
		if inLog == nil || outLog == nil {
			continue
		}
		copies := committedCopies(out, outLog, r.in)
		u.checkCopyOrigins(r, in, inLog, copies)
		committed, ok := groupCommitted(u.w, groups, r.group, r.in)
		if !ok || !txnSettled(txns, r.tid) {
			continue
		}
		if out.LogStartOffset == 0 {
			var missing []string
			for _, ri := range inLog {
				if ri.Offset >= in.LogStartOffset && ri.Offset < committed && !ri.Control && !aborted(in, ri.ProducerID, ri.Offset) && len(copies[ri.Offset]) == 0 {
					missing = append(missing, fmt.Sprintf("%d %s", ri.Offset, ri.Value))
				}
			}
			if len(missing) > 0 {
				slices.Sort(missing)
				u.fail("ctp-offsets-ahead", "group %s committed %s-%d at %d, but no committed copy in %s-%d of %s", r.group, r.in.Topic, r.in.Partition, committed,
					r.out.Topic, r.out.Partition, recordList(missing))
			}
		}
		if settled {
			var ahead []string
			for o, at := range copies {
				if o >= committed {
					ahead = append(ahead, fmt.Sprintf("%d (at %d)", o, at[0]))
				}
			}
			if len(ahead) > 0 {
				slices.Sort(ahead)
				u.fail("ctp-output-ahead", "group %s committed %s-%d at %d, but %s-%d holds committed copies of %s", r.group, r.in.Topic, r.in.Partition, committed,
					r.out.Topic, r.out.Partition, recordList(ahead))
			}
		}
	}
}

// checkCopyOrigins checks that no input record has two committed copies,
// and that each is of a record read_committed delivers.
func (u *userRun) checkCopyOrigins(r copyRoute, in *cluster.PartitionInfo, inLog map[int64]cluster.RecordInfo, copies map[int64][]int64) {
	for _, o := range slices.Sorted(maps.Keys(copies)) {
		at := copies[o]
		if len(at) > 1 {
			u.fail("ctp-duplicate", "%s-%d offset %d has %d committed copies in %s-%d, at %v (group %s)", r.in.Topic, r.in.Partition, o, len(at), r.out.Topic, r.out.Partition, at, r.group)
			return
		}
	}
	for _, o := range slices.Sorted(maps.Keys(copies)) {
		if o < in.LogStartOffset {
			continue
		}
		ri, ok := inLog[o]
		switch {
		case !ok || ri.Control:
			u.fail("ctp-copy-unknown", "%s-%d at %d is a committed copy of %s-%d offset %d, which holds no record", r.out.Topic, r.out.Partition, copies[o][0], r.in.Topic, r.in.Partition, o)
		case aborted(in, ri.ProducerID, o):
			u.fail("ctp-copy-unknown", "%s-%d at %d is a committed copy of %s-%d offset %d, of an aborted transaction", r.out.Topic, r.out.Partition, copies[o][0], r.in.Topic, r.in.Partition, o)
		default:
			continue
		}
		return
	}
}

// committedCopies are the committed copies of input partition in that
// partition p holds (log: its leader's records), by input offset: where
// each is.
func committedCopies(p *cluster.PartitionInfo, log map[int64]cluster.RecordInfo, in cluster.PartitionRef) map[int64][]int64 {
	out := map[int64][]int64{}
	for _, ri := range log {
		if ri.Control || ri.Offset >= p.HighWatermark || aborted(p, ri.ProducerID, ri.Offset) || openAt(p, ri.ProducerID, ri.Offset) {
			continue
		}
		tp, o, _, ok := cluster.ParseCopyValue(ri.Value)
		if ok && tp.Topic == in.Topic && tp.Partition == in.Partition {
			out[o] = append(out[o], ri.Offset)
		}
	}
	for _, at := range out {
		slices.Sort(at)
	}
	return out
}

// openAt reports whether the record at offset of producer pid belongs to
// a transaction still open on p (no marker yet).
func openAt(p *cluster.PartitionInfo, pid, offset int64) bool {
	return slices.ContainsFunc(p.OpenTransactions, func(t cluster.OpenTransaction) bool { return t.ProducerID == pid && offset >= t.FirstOffset })
}

// groupCommitted is group's committed offset of tp (0 when it has none),
// false when its coordinator is not known.
func groupCommitted(w *cluster.World, groups []cluster.GroupInfo, name string, tp cluster.PartitionRef) (int64, bool) {
	for _, g := range groups {
		if g.Name != name {
			continue
		}
		if g.Coordinator < 0 {
			return 0, false
		}
		for _, o := range g.Offsets {
			if o.Topic == tp.Topic && o.Partition == tp.Partition && o.Committed >= 0 {
				return o.Committed, true
			}
		}
		return 0, true
	}
	// no running coordinator knows it: it committed nothing, unless its
	// coordinator is not there (DeleteGroups' check says which)
	return 0, !errors.Is(w.CheckDeleteGroup(name), cluster.ErrCoordinatorNotAvailable)
}

// txnSettled reports whether transactional id tid's coordinator is known
// and no transaction of it is between its Prepare and Complete states
// (whose markers are on their way to the partitions).
func txnSettled(txns []cluster.TransactionInfo, tid string) bool {
	for _, t := range txns {
		if t.TransactionalID == tid {
			return !strings.HasPrefix(t.State, "Prepare")
		}
	}
	return false
}
