package group_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/group"
)

// noteCommit keeps the time of c, stored, for expire-offsets.
func (e *env) noteCommit(c group.OffsetCommitRecord) {
	if e.commitMs == nil {
		e.commitMs = map[string]map[group.TopicPartition]int64{}
	}
	if c.Tombstone {
		delete(e.commitMs[c.Group], c.TopicPartition)
		return
	}
	if e.commitMs[c.Group] == nil {
		e.commitMs[c.Group] = map[group.TopicPartition]int64{}
	}
	e.commitMs[c.Group][c.TopicPartition] = c.CommitTimestampMs
}

// expireOffsets runs the coordinator's offsets expiry over the store,
// stores the tombstones and prints what expired and which groups were
// forgotten.
func (e *env) expireOffsets(t *testing.T, d *datadriven.TestData) {
	var retentionMs int64
	d.ScanArgs(t, "retention", &retentionMs)
	e.coord.Tick(e.nowMs)
	stored := e.storedOffsets()
	before := e.coord.Groups()
	expired := e.coord.ExpireOffsets(retentionMs, stored, func(string) bool { return true })
	for _, g := range slices.Sorted(maps.Keys(expired)) {
		e.logf("group %s: offsets of %s expired", g, group.FormatPartitions(expired[g]))
		for _, tp := range expired[g] {
			rec := group.OffsetCommitRecord{Group: g, PartitionOffset: group.PartitionOffset{TopicPartition: tp}, CommitTimestampMs: e.nowMs, Tombstone: true}
			require.NoError(t, e.store.Commit(rec))
			e.noteCommit(rec)
		}
	}
	for _, g := range before {
		if _, ok := e.coord.Group(g.GroupID); !ok {
			e.logf("group %s: %s without offsets, forgotten", g.GroupID, g.State)
			delete(e.lastSeen, g.GroupID)
		}
	}
}

// storedOffsets is what the store holds, with the commit times.
func (e *env) storedOffsets() map[string][]group.StoredOffset {
	out := map[string][]group.StoredOffset{}
	for _, g := range slices.Sorted(maps.Keys(e.commitMs)) {
		for _, tp := range e.store.CommittedPartitions(g) {
			out[g] = append(out[g], group.StoredOffset{TopicPartition: tp, CommitTimestampMs: e.commitMs[g][tp]})
		}
	}
	return out
}

// noteCommitTime keeps the time of c, stored, in m (made if nil).
func noteCommitTime(m map[string]map[group.TopicPartition]int64, c group.OffsetCommitRecord) map[string]map[group.TopicPartition]int64 {
	if m == nil {
		m = map[string]map[group.TopicPartition]int64{}
	}
	if c.Tombstone {
		delete(m[c.Group], c.TopicPartition)
		return m
	}
	if m[c.Group] == nil {
		m[c.Group] = map[group.TopicPartition]int64{}
	}
	m[c.Group][c.TopicPartition] = c.CommitTimestampMs
	return m
}

// expireOffsets runs the consumer group coordinator's offsets expiry over
// the store, stores the tombstones and prints what expired and which
// groups were deleted.
func (e *consumerEnv) expireOffsets(t *testing.T, d *datadriven.TestData) {
	var retentionMs int64
	d.ScanArgs(t, "retention", &retentionMs)
	stored := map[string][]group.StoredOffset{}
	for _, g := range slices.Sorted(maps.Keys(e.commitMs)) {
		for _, tp := range e.store.CommittedPartitions(g) {
			stored[g] = append(stored[g], group.StoredOffset{TopicPartition: tp, CommitTimestampMs: e.commitMs[g][tp]})
		}
	}
	before := e.coord.Groups()
	expired := e.coord.ExpireOffsets(retentionMs, stored, func(string) bool { return true })
	for _, g := range slices.Sorted(maps.Keys(expired)) {
		fmt.Fprintf(&e.out, "group %s: offsets of %s expired\n", g, group.FormatPartitions(expired[g]))
		for _, tp := range expired[g] {
			rec := group.OffsetCommitRecord{Group: g, PartitionOffset: group.PartitionOffset{TopicPartition: tp}, CommitTimestampMs: e.nowMs, Tombstone: true}
			require.NoError(t, e.store.Commit(rec))
			e.commitMs = noteCommitTime(e.commitMs, rec)
		}
	}
	for _, g := range before {
		if ok, _ := e.coord.Hosts(g.GroupID); !ok {
			fmt.Fprintf(&e.out, "group %s: no members, no offsets: deleted\n", g.GroupID)
		}
	}
}
