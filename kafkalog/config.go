package kafkalog

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// ErrInvalidConfig means a Config value is out of the range Kafka accepts
// (Kafka: ConfigException).
var ErrInvalidConfig = errors.New("kafkalog: invalid config")

// Cleanup policies (cleanup.policy). A topic may have both, written "compact,delete".
const (
	CleanupPolicyDelete  = "delete"
	CleanupPolicyCompact = "compact"
)

// Config is a partition log's topic-level configuration. Field names are Kafka's keys in
// CamelCase and carry Kafka's units; the defaults (DefaultConfig) are those of Kafka's
// LogConfig / ServerLogConfigs at trunk of October 2024 (on the way to 4.0).
type Config struct {
	// SegmentBytes (segment.bytes) is the size at which a segment is rolled. Default 1 GiB.
	SegmentBytes int64
	// SegmentMs (segment.ms) rolls the active segment when its first batch is this much
	// older than the incoming one. Default 7 days.
	SegmentMs int64
	// SegmentJitterMs (segment.jitter.ms) is the maximum random jitter subtracted from
	// SegmentMs, drawn once per segment. Default 0.
	SegmentJitterMs int64
	// SegmentIndexBytes (segment.index.bytes) is the preallocated size of each offset
	// and time index. Default 10 MiB.
	SegmentIndexBytes int64
	// IndexIntervalBytes (index.interval.bytes) is how many log bytes pass between two
	// index entries. Default 4096.
	IndexIntervalBytes int64
	// RetentionMs (retention.ms) deletes segments whose largest timestamp is older than
	// this; -1 keeps them forever. Default 7 days.
	RetentionMs int64
	// RetentionBytes (retention.bytes) deletes the oldest segments while the log is
	// larger than this; -1 means no limit. Default -1.
	RetentionBytes int64
	// FileDeleteDelayMs (file.delete.delay.ms) is how long a deleted segment's files
	// stay as ".deleted" before they are removed. Default 60000.
	FileDeleteDelayMs int64
	// DeleteRetentionMs (delete.retention.ms) is how long the cleaner keeps tombstones
	// and empty transaction markers. Default 1 day.
	DeleteRetentionMs int64
	// MinCleanableDirtyRatio (min.cleanable.dirty.ratio): a log is cleaned when its
	// dirty bytes exceed this fraction of its cleanable bytes. Default 0.5.
	MinCleanableDirtyRatio float64
	// MinCompactionLagMs (min.compaction.lag.ms): records younger than this are not
	// compacted. Default 0.
	MinCompactionLagMs int64
	// MaxCompactionLagMs (max.compaction.lag.ms): a log with dirty records older than
	// this is cleaned whatever its dirty ratio. Default math.MaxInt64.
	MaxCompactionLagMs int64
	// CleanupPolicy (cleanup.policy) is "delete", "compact" or "compact,delete".
	CleanupPolicy string
	// MaxMessageBytes (max.message.bytes) is the largest batch an append accepts.
	// Default 1048588 (1 MiB + 12).
	MaxMessageBytes int32
	// MessageTimestampType (message.timestamp.type) is CreateTime or LogAppendTime;
	// with LogAppendTime the leader stamps its clock on every batch. Default CreateTime.
	MessageTimestampType TimestampType
	// MessageTimestampBeforeMaxMs (message.timestamp.before.max.ms) and
	// MessageTimestampAfterMaxMs (message.timestamp.after.max.ms), Kafka 3.6+
	// (KIP-937), bound how long before and after the leader's clock a record's
	// CreateTime timestamp may lie; MessageTimestampDifferenceMaxMs
	// (message.timestamp.difference.max.ms, which KIP-937 deprecates) is either
	// bound while that one is at its default ([Config.TimestampBounds], as
	// 3.7's LogConfig reads them). Default math.MaxInt64: no bound. The check of
	// each record is the leader's validation of a producer's batch (Kafka's
	// LogValidator), which is the caller's: the live cluster does it for its
	// clients' batches.
	MessageTimestampBeforeMaxMs     int64
	MessageTimestampAfterMaxMs      int64
	MessageTimestampDifferenceMaxMs int64
	// FlushIntervalMessages (flush.messages) makes an append flush the log when this
	// many messages are unflushed. Default math.MaxInt64 (never: Kafka relies on
	// replication and the page cache).
	FlushIntervalMessages int64
	// Preallocate (preallocate) is accepted for completeness; segments are not
	// preallocated here (Kafka's default false).
	Preallocate bool
}

// DefaultConfig returns Kafka's defaults.
func DefaultConfig() Config {
	return Config{
		SegmentBytes:           1 << 30,
		SegmentMs:              7 * 24 * 60 * 60 * 1000,
		SegmentJitterMs:        0,
		SegmentIndexBytes:      10 << 20,
		IndexIntervalBytes:     4096,
		RetentionMs:            7 * 24 * 60 * 60 * 1000,
		RetentionBytes:         -1,
		FileDeleteDelayMs:      60000,
		DeleteRetentionMs:      24 * 60 * 60 * 1000,
		MinCleanableDirtyRatio: 0.5,
		MinCompactionLagMs:     0,
		MaxCompactionLagMs:     math.MaxInt64,
		CleanupPolicy:          CleanupPolicyDelete,
		MaxMessageBytes:        1048588,
		MessageTimestampType:   CreateTime,
		FlushIntervalMessages:  math.MaxInt64,

		MessageTimestampBeforeMaxMs:     math.MaxInt64,
		MessageTimestampAfterMaxMs:      math.MaxInt64,
		MessageTimestampDifferenceMaxMs: math.MaxInt64,
	}
}

// TimestampBounds returns how long before and after the leader's clock a
// CreateTime record's timestamp may lie: message.timestamp.before.max.ms and
// after.max.ms, each replaced by message.timestamp.difference.max.ms while it is
// at its default, math.MaxInt64 (Kafka 3.7's LogConfig
// getMessageTimestampBeforeMaxMs and getMessageTimestampAfterMaxMs).
func (c Config) TimestampBounds() (before, after int64) {
	before, after = c.MessageTimestampBeforeMaxMs, c.MessageTimestampAfterMaxMs
	if before == math.MaxInt64 {
		before = c.MessageTimestampDifferenceMaxMs
	}
	if after == math.MaxInt64 {
		after = c.MessageTimestampDifferenceMaxMs
	}
	return before, after
}

// Validate checks every value against the range Kafka's LogConfig accepts and returns
// an error wrapping ErrInvalidConfig that names the first key out of range.
func (c Config) Validate() error {
	checks := []struct {
		key string
		ok  bool
		v   any
	}{
		// segment.bytes: at least LegacyRecord.RECORD_OVERHEAD_V0 (14).
		{"segment.bytes", c.SegmentBytes >= 14 && c.SegmentBytes <= math.MaxInt32, c.SegmentBytes},
		{"segment.ms", c.SegmentMs >= 1, c.SegmentMs},
		{"segment.jitter.ms", c.SegmentJitterMs >= 0, c.SegmentJitterMs},
		// segment.index.bytes: at least one offset-index entry (Kafka: >= 4).
		{"segment.index.bytes", c.SegmentIndexBytes >= 12 && c.SegmentIndexBytes <= math.MaxInt32, c.SegmentIndexBytes},
		{"index.interval.bytes", c.IndexIntervalBytes >= 0, c.IndexIntervalBytes},
		{"retention.ms", c.RetentionMs >= -1, c.RetentionMs},
		{"retention.bytes", c.RetentionBytes >= -1, c.RetentionBytes},
		{"file.delete.delay.ms", c.FileDeleteDelayMs >= 0, c.FileDeleteDelayMs},
		{"delete.retention.ms", c.DeleteRetentionMs >= 0, c.DeleteRetentionMs},
		{"min.cleanable.dirty.ratio", c.MinCleanableDirtyRatio >= 0 && c.MinCleanableDirtyRatio <= 1, c.MinCleanableDirtyRatio},
		{"min.compaction.lag.ms", c.MinCompactionLagMs >= 0, c.MinCompactionLagMs},
		{"max.compaction.lag.ms", c.MaxCompactionLagMs >= 1 && c.MaxCompactionLagMs >= c.MinCompactionLagMs, c.MaxCompactionLagMs},
		{"cleanup.policy", validCleanupPolicy(c.CleanupPolicy), c.CleanupPolicy},
		{"max.message.bytes", c.MaxMessageBytes >= 0, c.MaxMessageBytes},
		{"message.timestamp.type", c.MessageTimestampType == CreateTime || c.MessageTimestampType == LogAppendTime, c.MessageTimestampType},
		{"flush.messages", c.FlushIntervalMessages >= 1, c.FlushIntervalMessages},
		{"message.timestamp.before.max.ms", c.MessageTimestampBeforeMaxMs >= 0, c.MessageTimestampBeforeMaxMs},
		{"message.timestamp.after.max.ms", c.MessageTimestampAfterMaxMs >= 0, c.MessageTimestampAfterMaxMs},
		{"message.timestamp.difference.max.ms", c.MessageTimestampDifferenceMaxMs >= 0, c.MessageTimestampDifferenceMaxMs},
	}
	for _, ch := range checks {
		if !ch.ok {
			return fmt.Errorf("%w: %s = %v", ErrInvalidConfig, ch.key, ch.v)
		}
	}
	return nil
}

func validCleanupPolicy(p string) bool {
	if p == "" {
		return false
	}
	for _, part := range strings.Split(p, ",") {
		switch strings.TrimSpace(part) {
		case CleanupPolicyDelete, CleanupPolicyCompact:
		default:
			return false
		}
	}
	return true
}

// Compact reports whether cleanup.policy includes "compact".
func (c Config) Compact() bool { return hasPolicy(c.CleanupPolicy, CleanupPolicyCompact) }

// Delete reports whether cleanup.policy includes "delete".
func (c Config) Delete() bool { return hasPolicy(c.CleanupPolicy, CleanupPolicyDelete) }

func hasPolicy(p, want string) bool {
	for p != "" {
		var part string
		part, p, _ = strings.Cut(p, ",")
		if strings.TrimSpace(part) == want {
			return true
		}
	}
	return false
}
