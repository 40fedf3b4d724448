package broker

import (
	"bytes"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// logOffsetStore is the [group.OffsetStore] of broker b's coordinator: the
// committed offsets are the records of the compacted __consumer_offsets
// log, read from b's replica of the group's offsets partition below its
// high watermark (what a coordinator loads when it takes the partition
// over). It keeps no copy, so a coordinator that moves to another broker
// finds every acknowledged commit there. A tombstone counts at once, above
// the high watermark too: a deleted group's offsets leave Kafka's cache
// when the group is deleted (GroupMetadataManager.cleanupGroupMetadata
// removes them, then appends the tombstones with acks=0), not when the
// tombstones are replicated; a coordinator that takes over before they are
// finds the offsets again, as Kafka's does.
//
// The coordinator's commits are appended by its broker, the records of
// each Ready.Commits as one batch (Broker.appendCommits), as Kafka's
// GroupMetadataManager appends them.
type logOffsetStore struct {
	b *Broker
}

// Committed implements [group.OffsetReader]: the latest record of the key
// below the HW; a tombstone means none.
func (s logOffsetStore) Committed(groupID string, tp group.TopicPartition) (group.PartitionOffset, bool) {
	key := group.AppendOffsetCommitKey(nil, groupID, tp)
	m, hw := s.readable(groupID)
	if f := s.txnFilter(groupID, hw); f != nil {
		return committedThroughTxns(m, hw, f, key)
	}
	for _, e := range m.Backward() {
		if !bytes.Equal(e.Key, key) || e.Offset >= hw && e.Value != nil {
			continue
		}
		if e.Value == nil {
			return group.PartitionOffset{}, false
		}
		rec, err := group.ReadOffsetCommit(e.Key, e.Value)
		if err != nil {
			return group.PartitionOffset{}, false
		}
		return rec.PartitionOffset, true
	}
	return group.PartitionOffset{}, false
}

// CommittedPartitions implements [group.OffsetReader].
func (s logOffsetStore) CommittedPartitions(groupID string) []group.TopicPartition {
	m, hw := s.readable(groupID)
	out := []group.TopicPartition{}
	for tp, ok := range committedIn(m, hw, s.txnFilter(groupID, hw), func(g string) bool { return g == groupID })[groupID] {
		if ok {
			out = append(out, tp)
		}
	}
	slices.SortFunc(out, group.CompareTopicPartitions)
	return out
}

// StoredIn is the groups with at least one committed offset in the
// offsets partition's log (high watermark hw), read in one pass.
func StoredIn(log *replicalog.Log, hw int64) map[string]bool {
	out := map[string]bool{}
	for g, parts := range committedIn(log.Mirror(), hw, newTxnFilter(log.Kafka(), hw), func(string) bool { return true }) {
		for _, ok := range parts {
			if ok {
				out[g] = true
				break
			}
		}
	}
	return out
}

// committedIn reads an offsets partition's log m (high watermark hw) in one
// pass: for each group want takes, whether each of its partitions has a
// committed offset (false: its latest record is a tombstone). A commit
// counts below the high watermark, a tombstone at once (logOffsetStore).
func committedIn(m *replicalog.Mirror, hw int64, f *txnFilter, want func(group string) bool) map[string]map[group.TopicPartition]bool {
	out := map[string]map[group.TopicPartition]bool{}
	for _, e := range m.From(0) {
		if e.Offset >= hw && e.Value != nil || !f.visible(e) {
			continue // a commit not yet replicated, or of a transaction not committed
		}
		rec, err := group.ReadOffsetCommit(e.Key, e.Value)
		if err != nil || !want(rec.Group) {
			continue
		}
		if out[rec.Group] == nil {
			out[rec.Group] = map[group.TopicPartition]bool{}
		}
		out[rec.Group][rec.TopicPartition] = !rec.Tombstone
	}
	return out
}

// committedThroughTxns is Committed on a log some transaction wrote to: the
// latest record of key that f lets through, in one pass from the start.
func committedThroughTxns(m *replicalog.Mirror, hw int64, f *txnFilter, key []byte) (group.PartitionOffset, bool) {
	var last *replica.Entry
	for _, e := range m.From(0) {
		if !f.visible(e) || !bytes.Equal(e.Key, key) || e.Offset >= hw && e.Value != nil {
			continue
		}
		last = e
	}
	if last == nil || last.Value == nil {
		return group.PartitionOffset{}, false
	}
	rec, err := group.ReadOffsetCommit(last.Key, last.Value)
	if err != nil {
		return group.PartitionOffset{}, false
	}
	return rec.PartitionOffset, true
}

// txnFilter returns the transactions filter of groupID's offsets
// partition (nil when no producer wrote to it).
func (s logOffsetStore) txnFilter(groupID string, hw int64) *txnFilter {
	slot := s.b.replicas[metadata.OffsetsPartition(groupID, s.b.cfg.OffsetsTopicNumPartitions)]
	if slot == nil {
		return nil
	}
	slot.changing()
	return newTxnFilter(slot.Log.Kafka(), hw)
}

// readable returns b's replica of groupID's offsets partition and its HW.
func (s logOffsetStore) readable(groupID string) (*replicalog.Mirror, int64) {
	slot := s.b.replicas[metadata.OffsetsPartition(groupID, s.b.cfg.OffsetsTopicNumPartitions)]
	if slot == nil {
		return &replicalog.Mirror{}, 0
	}
	slot.changing()
	return slot.Log.Mirror(), slot.Node.Progress().HighWatermark
}

// txnFilter tells which records of an offsets partition's log count as a
// coordinator loading it counts them: every record of a plain batch (the
// coordinator's own commits), and those of a transactional batch (a
// TxnOffsetCommit's) only once their own transaction committed: its
// COMMIT marker written and replicated, below the high watermark
// (GroupMetadataManager keeps a producer's transactional offsets pending
// until then, handleTxnCompletion, and drops them at its ABORT marker).
// Another producer's transaction, open below them, does not hold them
// back: the coordinator keeps pending offsets producer by producer, not up
// to the last stable offset. Kafka keeps, for a partition committed both
// ways, the offset whose record came last in the log
// (CommitRecordMetadataAndOffset.olderThan): so does reading in order. It
// reads entries in offset order; nil lets everything through.
type txnFilter struct {
	// the transactions not settled yet: open, or ended by a marker at or
	// above the high watermark; and the aborted ones
	ongoing      []kafkalog.OngoingTxn
	unreplicated []kafkalog.CompletedTxn
	aborted      []kafkalog.AbortedTxn
	// the batch being read: its producer, whether it is transactional,
	// and the offset after it
	pid   int64
	txnal bool
	end   int64
}

// txnState is what a record of an offsets partition's log is to a
// coordinator reading it ([txnFilter.state]).
type txnState int

const (
	// txnCounted: a plain record, or one of a committed transaction.
	txnCounted txnState = iota
	// txnPending: a record of a transaction not settled yet.
	txnPending
	// txnAborted: a record of an aborted transaction.
	txnAborted
)

// newTxnFilter is the filter of log at high watermark hw, nil when no
// producer ever wrote to it.
func newTxnFilter(log *kafkalog.Log, hw int64) *txnFilter {
	if !log.HasProducers() {
		return nil
	}
	return &txnFilter{ongoing: log.OngoingTxns(), unreplicated: log.UnreplicatedTxns(hw), aborted: log.AllAbortedTxns(), pid: -1}
}

// visible reports whether e counts.
func (f *txnFilter) visible(e *replica.Entry) bool { return f.state(e) == txnCounted }

// state says what e, the next entry in offset order, is.
func (f *txnFilter) state(e *replica.Entry) txnState {
	switch {
	case f == nil || !f.transactional(e):
		return txnCounted
	case f.abortedAt(e.Offset):
		return txnAborted
	case f.pendingAt(e.Offset):
		return txnPending
	}
	return txnCounted
}

// transactional reports whether e, the next entry in offset order, is a
// record of a transactional data batch (reading the header of the batch
// that e starts, if it does).
func (f *txnFilter) transactional(e *replica.Entry) bool {
	if e.Batch != nil {
		if h, err := kafkalog.ReadBatchHeader(e.Batch); err == nil {
			f.pid, f.txnal, f.end = h.ProducerID, h.Attributes.IsTransactional() && !h.Attributes.IsControl(), h.NextOffset()
		}
	}
	return e.Offset < f.end && f.txnal
}

// pendingAt reports whether offset, of the current batch's producer, is in
// its open transaction or in one whose marker is not replicated yet.
func (f *txnFilter) pendingAt(offset int64) bool {
	return slices.ContainsFunc(f.ongoing, func(t kafkalog.OngoingTxn) bool { return t.ProducerID == f.pid && offset >= t.FirstOffset }) ||
		slices.ContainsFunc(f.unreplicated, func(t kafkalog.CompletedTxn) bool {
			return t.ProducerID == f.pid && offset >= t.FirstOffset && offset <= t.LastOffset
		})
}

// abortedAt reports whether offset, of the current batch's producer, is in
// one of its aborted transactions.
func (f *txnFilter) abortedAt(offset int64) bool {
	return slices.ContainsFunc(f.aborted, func(a kafkalog.AbortedTxn) bool {
		return a.ProducerID == f.pid && offset >= a.FirstOffset && offset <= a.LastOffset
	})
}
