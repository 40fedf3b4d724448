package broker

import (
	"bytes"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/group"
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
	for tp, ok := range committedIn(m, hw, func(g string) bool { return g == groupID })[groupID] {
		if ok {
			out = append(out, tp)
		}
	}
	slices.SortFunc(out, group.CompareTopicPartitions)
	return out
}

// StoredIn is the groups with at least one committed offset in the
// offsets partition's log m (high watermark hw), read in one pass.
func StoredIn(m *replicalog.Mirror, hw int64) map[string]bool {
	out := map[string]bool{}
	for g, parts := range committedIn(m, hw, func(string) bool { return true }) {
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
func committedIn(m *replicalog.Mirror, hw int64, want func(group string) bool) map[string]map[group.TopicPartition]bool {
	out := map[string]map[group.TopicPartition]bool{}
	for _, e := range m.From(0) {
		if e.Offset >= hw && e.Value != nil {
			continue // a commit not yet replicated
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

// readable returns b's replica of groupID's offsets partition and its HW.
func (s logOffsetStore) readable(groupID string) (*replicalog.Mirror, int64) {
	slot := s.b.replicas[metadata.OffsetsPartition(groupID, s.b.cfg.OffsetsTopicNumPartitions)]
	if slot == nil {
		return &replicalog.Mirror{}, 0
	}
	return slot.Log.Mirror(), slot.Node.Progress().HighWatermark
}
