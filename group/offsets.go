package group

import (
	"fmt"
	"slices"
)

// OffsetCommitRecord is one committed offset to persist: a record of the
// compacted __consumer_offsets topic, keyed by (group, topic, partition).
type OffsetCommitRecord struct {
	// Group is the group id.
	Group string
	PartitionOffset
	// CommitTimestampMs is the coordinator's time when it accepted the commit.
	CommitTimestampMs int64
	// Tombstone deletes the committed offset (group deletion); Offset is unused.
	Tombstone bool
}

// OffsetReader reads committed offsets: what the coordinator needs of its
// store. The cluster's brokers read a compacted __consumer_offsets log
// with it.
type OffsetReader interface {
	// Committed returns the committed offset of tp for group, if any.
	Committed(group string, tp TopicPartition) (PartitionOffset, bool)
	// CommittedPartitions lists group's committed partitions, sorted.
	CommittedPartitions(group string) []TopicPartition
}

// OffsetStore holds committed offsets. The coordinator only reads it (an
// [OffsetReader]); the caller writes the records of [Ready].Commits into
// it. [MemoryOffsetStore] is the in-memory version.
type OffsetStore interface {
	OffsetReader
	// Commit stores rec (or deletes its key for a tombstone).
	Commit(rec OffsetCommitRecord) error
}

// MemoryOffsetStore is an in-memory [OffsetStore]. The zero value is ready.
type MemoryOffsetStore struct {
	offsets map[string]map[TopicPartition]PartitionOffset
}

// Commit implements [OffsetStore].
func (s *MemoryOffsetStore) Commit(rec OffsetCommitRecord) error {
	if rec.Group == "" {
		return fmt.Errorf("commit %s: %w", rec.TopicPartition, InvalidGroupID)
	}
	if s.offsets == nil {
		s.offsets = map[string]map[TopicPartition]PartitionOffset{}
	}
	g := s.offsets[rec.Group]
	if rec.Tombstone {
		delete(g, rec.TopicPartition)
		return nil
	}
	if g == nil {
		g = map[TopicPartition]PartitionOffset{}
		s.offsets[rec.Group] = g
	}
	g[rec.TopicPartition] = rec.PartitionOffset
	return nil
}

// Committed implements [OffsetStore].
func (s *MemoryOffsetStore) Committed(group string, tp TopicPartition) (PartitionOffset, bool) {
	po, ok := s.offsets[group][tp]
	return po, ok
}

// CommittedPartitions implements [OffsetStore].
func (s *MemoryOffsetStore) CommittedPartitions(group string) []TopicPartition {
	out := []TopicPartition{}
	for tp := range s.offsets[group] {
		out = append(out, tp)
	}
	slices.SortFunc(out, CompareTopicPartitions)
	return out
}

// Lag is a partition's consumer lag as kafka-consumer-groups --describe shows
// it: the high watermark (the LOG-END-OFFSET column for read_uncommitted)
// minus the committed offset. With no committed offset (committed < 0) the
// lag is unknown ("-") and ok is false. Lag counts offsets, so it includes
// offsets removed by retention or compaction.
func Lag(highWatermark, committed int64) (lag int64, ok bool) {
	if committed < 0 {
		return 0, false
	}
	return highWatermark - committed, true
}
