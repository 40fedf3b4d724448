package broker

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// The broker's log cleaner, after Kafka 3.7's LogCleaner and
// LogCleanerManager (the same at trunk of October 2024).
//
// A cleaning round that fails on what a log holds (a batch whose magic
// byte, length or records do not parse: kafkalog.ErrUncleanable) does not
// stop the broker. Kafka's cleaner thread catches the failure
// (CleanerThread.tryCleanFilthiestLog, a LogCleaningException), logs
// "Unexpected exception thrown when cleaning log ... Marking its partition
// (...) as uncleanable", adds the partition to the uncleanable partitions
// of its log dir (LogCleanerManager.markPartitionUncleanable; the metric
// uncleanable-partitions-count counts them) and goes on with the other
// logs. An uncleanable partition is passed over: never compacted, and its
// old segments never deleted (LogCleanerManager.grabFilthiestCompactedLog
// and deletableLogs skip it), while it keeps serving produces and fetches.
//
// When a partition leaves the set (Kafka 3.7): the set lives in the
// cleaner's memory, so a restart of the broker empties it (and the
// cleaner then meets the damage again, if recovery left it);
// LogCleanerManager.maintainUncleanablePartitions, after each pass of the
// cleaner, drops the partitions whose log the broker no longer hosts (its
// topic deleted, the replica moved away, its log dir failed). Nothing else
// clears it: neither new appends, nor a truncation, nor the damaged
// segments leaving the log through DeleteRecords (whose segment deletion
// the cleaner, passing the log over, no longer does). A failure of the
// disk itself (no space left) is no cleaning failure: Kafka takes the log
// dir offline, which halts a broker with one log dir, as here.

// clean compacts the replica's log if it is compacted, not marked
// uncleanable, and dirty enough.
func (b *Broker) clean(env Env, s *Partition) error {
	if !s.Log.Kafka().Compacted() || b.isUncleanable(s.TP) {
		return nil
	}
	cfg := s.Log.Kafka().Config()
	s.changing()
	if b.cleanerOffsets == nil {
		b.cleanerOffsets, b.cleanerSeen = map[tp]int64{}, map[tp]int64{}
	}
	hw := s.Node.Progress().HighWatermark
	timeless := cfg.MinCompactionLagMs == 0 && cfg.MaxCompactionLagMs == math.MaxInt64
	if seen, ok := b.cleanerSeen[s.TP]; timeless && (ok && seen == hw || hw == s.Log.LogStartOffset()) {
		return nil // nothing new below the HW since the last look, and no time rule
	}
	b.cleanerSeen[s.TP] = hw
	sec, err := s.Log.Kafka().CleanableSection(b.cleanerOffsets[s.TP], hw, env.Now())
	if err != nil {
		return b.cleanFailed(env, s, err)
	}
	if !sec.NeedsCleaning(cfg) {
		return nil
	}
	res, err := s.Log.Clean(b.cleanerOffsets[s.TP], hw, env.Now())
	if len(res.Groups) > 0 {
		b.touch(s)
	}
	if err != nil {
		return b.cleanFailed(env, s, err)
	}
	b.cleanerOffsets[s.TP] = res.EndOffset
	b.touch(s)
	env.Record(event.Storage, b.id, &s.TP, "cleaner compacted [%d, %d) (dirty ratio %.2f): kept %d of %d records", res.FirstDirtyOffset, res.EndOffset, sec.Ratio, res.RecordsRetained, res.RecordsRead)
	return nil
}

// cleanFailed marks the partition uncleanable for a round that failed on
// what its log holds; any other failure is returned.
func (b *Broker) cleanFailed(env Env, s *Partition, err error) error {
	if !errors.Is(err, kafkalog.ErrUncleanable) {
		return fmt.Errorf("broker %d: cleaner of %s: %w", b.id, s.TP, err)
	}
	at, _ := slices.BinarySearchFunc(b.uncleanable, s.TP, tp.Compare)
	b.uncleanable = slices.Insert(b.uncleanable, at, s.TP)
	why := strings.TrimPrefix(err.Error(), kafkalog.ErrUncleanable.Error()+": ")
	env.Record(event.Storage, b.id, &s.TP, "cleaner: Unexpected exception thrown when cleaning log %s (%s). Marking its partition (%s) as uncleanable: "+
		"the cleaner passes it over (no compaction, no deletion of old segments) until the broker restarts or stops hosting it; its records stay as they are, "+
		"and uncleanable-partitions-count of %s is now %d", PartitionDir(s.TP), why, s.TP, LogDir, len(b.uncleanable))
	return nil
}

// isUncleanable reports whether the cleaner marked the partition
// uncleanable.
func (b *Broker) isUncleanable(k tp) bool {
	_, found := slices.BinarySearchFunc(b.uncleanable, k, tp.Compare)
	return found
}

// passedOver reports whether the log manager leaves the replica's log
// alone: a compacted log marked uncleanable.
func (b *Broker) passedOver(s *Partition) bool {
	return len(b.uncleanable) > 0 && s.Log.Kafka().Compacted() && b.isUncleanable(s.TP)
}

// forgetGoneUncleanable drops from the uncleanable set the partitions the
// broker no longer hosts (LogCleanerManager.maintainUncleanablePartitions).
func (b *Broker) forgetGoneUncleanable() {
	b.uncleanable = slices.DeleteFunc(b.uncleanable, func(k tp) bool { return b.replicas[k] == nil })
}

// Uncleanable lists, sorted, the partitions the broker's cleaner marked
// uncleanable since its process started (the partitions Kafka's metric
// kafka.log:type=LogCleanerManager,name=uncleanable-partitions-count counts
// for its log dir). The caller must not modify it.
func (b *Broker) Uncleanable() []kafkalog.TopicPartition { return b.uncleanable }
