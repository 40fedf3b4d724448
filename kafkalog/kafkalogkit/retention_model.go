package kafkalogkit

import (
	"fmt"
	"strings"
)

// RetentionSegment is what the retention rule knows about one segment.
type RetentionSegment struct {
	// BaseOffset is the segment's first offset (its file name).
	BaseOffset int64
	// SizeInBytes is the size of its .log file.
	SizeInBytes int64
	// FirstTimestamp is the max timestamp of its first batch, in ms (what
	// segment.ms rolling measures from; not what retention.ms uses).
	FirstTimestamp int64
	// LargestTimestamp is the largest record timestamp in the segment, in ms.
	LargestTimestamp int64
}

// RetentionLog is a partition's log as the retention rule sees it.
type RetentionLog struct {
	// Segments are oldest first; the last one is the active segment.
	Segments []RetentionSegment
	// LogEndOffset is the offset the next record will get.
	LogEndOffset int64
	// HighWatermark is the end of the records every in-sync replica has.
	HighWatermark int64
	// LogStartOffset is the first offset a consumer may read.
	LogStartOffset int64
}

// RetentionConfig holds the topic configs retention reads, with Kafka's names.
type RetentionConfig struct {
	// RetentionMs is retention.ms; -1 keeps data forever.
	RetentionMs int64
	// RetentionBytes is retention.bytes; -1 means no size limit.
	RetentionBytes int64
	// Delete is true when cleanup.policy contains "delete".
	Delete bool
}

// retentionVerdict is the model's answer with the reason for each rule.
type retentionVerdict struct {
	byStartOffset, byBytes, byTime int
}

func (v retentionVerdict) count() int { return max(v.byStartOffset, v.byBytes, v.byTime) }

// kafkaRetention is UnifiedLog.deleteOldSegments (Kafka 3.x/4.0): three walks
// over the segments oldest first, each stopping at the first segment it may not
// delete; a segment may go only if its upper bound (the next segment's base
// offset, or the LEO for the last) is <= the high watermark and it is not the
// last segment while empty. The walks remove prefixes, so the number deleted is
// the longest of the three.
func kafkaRetention(l RetentionLog, c RetentionConfig, nowMs int64) retentionVerdict {
	v := retentionVerdict{byStartOffset: walkSegments(l, func(i int) bool {
		return i+1 < len(l.Segments) && l.Segments[i+1].BaseOffset <= l.LogStartOffset
	})}
	if !c.Delete {
		return v
	}
	if c.RetentionBytes >= 0 && logSize(l) >= c.RetentionBytes {
		diff := logSize(l) - c.RetentionBytes
		v.byBytes = walkSegments(l, func(i int) bool {
			if diff-l.Segments[i].SizeInBytes >= 0 {
				diff -= l.Segments[i].SizeInBytes
				return true
			}
			return false
		})
	}
	if c.RetentionMs >= 0 {
		v.byTime = walkSegments(l, func(i int) bool { return nowMs-l.Segments[i].LargestTimestamp > c.RetentionMs })
	}
	return v
}

// walkSegments is UnifiedLog.deletableSegments: the length of the prefix of
// segments that may go under predicate.
func walkSegments(l RetentionLog, predicate func(i int) bool) int {
	for i, s := range l.Segments {
		last := i == len(l.Segments)-1
		if l.HighWatermark < upperBound(l, i) || !predicate(i) || (last && s.SizeInBytes == 0) {
			return i
		}
	}
	return len(l.Segments)
}

func upperBound(l RetentionLog, i int) int64 {
	if i+1 < len(l.Segments) {
		return l.Segments[i+1].BaseOffset
	}
	return l.LogEndOffset
}

func logSize(l RetentionLog) int64 {
	var n int64
	for _, s := range l.Segments {
		n += s.SizeInBytes
	}
	return n
}

func describeRetention(l RetentionLog, c RetentionConfig, nowMs int64) string {
	var sb strings.Builder
	policy := "compact"
	if c.Delete {
		policy = "delete"
	}
	fmt.Fprintf(&sb, "now %d ms; retention.ms %d, retention.bytes %d, cleanup.policy %s\n", nowMs, c.RetentionMs, c.RetentionBytes, policy)
	fmt.Fprintf(&sb, "log: start offset %d, high watermark %d, log end offset %d, %d bytes", l.LogStartOffset, l.HighWatermark, l.LogEndOffset, logSize(l))
	for i, s := range l.Segments {
		role := ""
		if i == len(l.Segments)-1 {
			role = " (active)"
		}
		fmt.Fprintf(&sb, "\n  segment %d%s: base offset %d, upper bound %d, %d bytes, first timestamp %d, largest timestamp %d (age %d ms)",
			i, role, s.BaseOffset, upperBound(l, i), s.SizeInBytes, s.FirstTimestamp, s.LargestTimestamp, nowMs-s.LargestTimestamp)
	}
	return sb.String()
}
