package kafkalogkit

import (
	"fmt"
	"math"

	"github.com/kafkalive/kafkalive/kafkalog"
)

type retentionKnown struct {
	name string
	log  RetentionLog
	cfg  RetentionConfig
	now  int64
}

// singleBatchSize is S of Kafka's UnifiedLogTest: the size of a batch of one
// record with value "test".
func singleBatchSize() int64 {
	b := kafkalog.RecordBatch{BatchHeader: kafkalog.BatchHeader{ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1},
		Records: []kafkalog.Record{{Value: []byte("test")}}}
	return int64(len(b.AppendTo(nil)))
}

// uniformLog is n segments of five one-record batches each (segment.bytes =
// 5·S), every record at timestamp ts, high watermark at the log end offset.
func uniformLog(n int, ts int64) RetentionLog {
	s := singleBatchSize()
	var l RetentionLog
	for i := range n {
		l.Segments = append(l.Segments, RetentionSegment{BaseOffset: int64(5 * i), SizeInBytes: 5 * s, FirstTimestamp: ts, LargestTimestamp: ts})
	}
	l.LogEndOffset = int64(5 * n)
	l.HighWatermark = l.LogEndOffset
	return l
}

func withSizes(sizes ...int64) RetentionLog {
	var l RetentionLog
	for i, n := range sizes {
		l.Segments = append(l.Segments, RetentionSegment{BaseOffset: int64(10 * i), SizeInBytes: n, FirstTimestamp: nowMs, LargestTimestamp: nowMs})
	}
	l.LogEndOffset = int64(10 * len(sizes))
	l.HighWatermark = l.LogEndOffset
	return l
}

const (
	nowMs   = 1700000000000
	weekMs  = 604800000
	forever = -1
)

// retentionKnownAnswers are Kafka's UnifiedLogTest retention cases, named
// after its tests, and one case per edge of each rule.
func retentionKnownAnswers() []retentionKnown {
	s := singleBatchSize()
	deleteDefault := RetentionConfig{RetentionMs: weekMs, RetentionBytes: forever, Delete: true}
	bytesCfg := func(n int64) RetentionConfig {
		return RetentionConfig{RetentionMs: weekMs, RetentionBytes: n, Delete: true}
	}
	timeCfg := func(ms int64, del bool) RetentionConfig {
		return RetentionConfig{RetentionMs: ms, RetentionBytes: forever, Delete: del}
	}
	with := func(l RetentionLog, edit func(*RetentionLog)) RetentionLog { l = cloneLog(l); edit(&l); return l }
	cases := []retentionKnown{
		{"UnifiedLogTest.shouldDeleteSizeBasedSegments: 3 segments of 5·S, retention.bytes 10·S", uniformLog(3, nowMs), bytesCfg(10 * s), nowMs},
		{"UnifiedLogTest.shouldNotDeleteSizeBasedSegmentsWhenUnderRetentionSize: retention.bytes 15·S", uniformLog(3, nowMs), bytesCfg(15 * s), nowMs},
		{"UnifiedLogTest.shouldDeleteTimeBasedSegmentsReadyToBeDeleted: timestamps 10, retention.ms 10000", uniformLog(3, 10), timeCfg(10000, true), nowMs},
		{"UnifiedLogTest.shouldNotDeleteTimeBasedSegmentsWhenNoneReadyToBeDeleted: timestamps now, retention.ms 10^7", uniformLog(3, nowMs), timeCfg(10000000, true), nowMs},
		{"UnifiedLogTest.shouldNotDeleteSegmentsWhenPolicyDoesNotIncludeDelete: cleanup.policy compact", uniformLog(3, 10), timeCfg(10000, false), nowMs},
		{"UnifiedLogTest.shouldDeleteSegmentsReadyToBeDeletedWhenCleanupPolicyIsCompactAndDelete", uniformLog(3, 10), timeCfg(10000, true), nowMs},
		{"UnifiedLogTest.shouldDeleteStartOffsetBreachedSegmentsWhenPolicyDoesNotIncludeDelete: compact, log start offset 5",
			with(uniformLog(3, 10), func(l *RetentionLog) { l.LogStartOffset = 5 }), timeCfg(10000, false), nowMs},
	}
	for _, lso := range []int64{1, 6, 15} {
		cases = append(cases, retentionKnown{fmt.Sprintf("UnifiedLogTest.testLogDeletionAfterDeleteRecords: log start offset %d", lso),
			with(uniformLog(3, nowMs), func(l *RetentionLog) { l.LogStartOffset = lso }), deleteDefault, nowMs})
	}
	for _, hw := range []int64{0, 25, 27, 30, 100} {
		cases = append(cases, retentionKnown{fmt.Sprintf("UnifiedLogTest.testDeleteOldSegments: 20 segments expired by retention.ms 999, high watermark %d", hw),
			with(uniformLog(20, nowMs-1000), func(l *RetentionLog) { l.HighWatermark = hw }), timeCfg(999, true), nowMs})
	}
	emptyActive := with(uniformLog(3, 10), func(l *RetentionLog) {
		l.Segments = append(l.Segments, RetentionSegment{BaseOffset: 15, FirstTimestamp: -1, LargestTimestamp: -1})
	})
	cases = append(cases,
		retentionKnown{"everything expired, the active segment empty: it stays", emptyActive, timeCfg(10000, true), nowMs},
		retentionKnown{"a segment exactly retention.ms old stays", uniformLog(3, nowMs-60000), timeCfg(60000, true), nowMs},
		retentionKnown{"a segment retention.ms + 1 old goes", uniformLog(3, nowMs-60001), timeCfg(60000, true), nowMs},
		retentionKnown{"retention.bytes one byte short of a whole segment: nothing goes", uniformLog(3, nowMs), bytesCfg(10*s + 1), nowMs},
		retentionKnown{"segments of 100, 300, 50 and 200 bytes, retention.bytes 250", withSizes(100, 300, 50, 200), bytesCfg(250), nowMs},
		retentionKnown{"old first batch, young largest timestamp: retention.ms looks at the largest", with(uniformLog(3, nowMs), func(l *RetentionLog) {
			l.Segments[0].FirstTimestamp = 10
		}), timeCfg(10000, true), nowMs},
		retentionKnown{"expired, young, expired: oldest first, stop at the first kept", with(uniformLog(3, 10), func(l *RetentionLog) {
			l.Segments[1].FirstTimestamp, l.Segments[1].LargestTimestamp = nowMs, nowMs
		}), timeCfg(10000, true), nowMs},
		retentionKnown{"retention.ms deletes 1, retention.bytes 2: the longer wins", with(withSizes(100, 100, 100), func(l *RetentionLog) {
			l.Segments[0].LargestTimestamp = 10
		}), RetentionConfig{RetentionMs: 10000, RetentionBytes: 100, Delete: true}, nowMs},
		retentionKnown{"everything expired but the high watermark is inside the active segment", with(uniformLog(3, 10), func(l *RetentionLog) {
			l.HighWatermark = 12
		}), timeCfg(10000, true), nowMs},
		retentionKnown{"retention.ms -1 (for ever), segments years old, retention.bytes not reached: nothing goes", uniformLog(3, 10), RetentionConfig{RetentionMs: forever, RetentionBytes: 100 * s, Delete: true}, nowMs},
		retentionKnown{"retention.ms and retention.bytes both -1: keep everything", uniformLog(3, 10), RetentionConfig{RetentionMs: forever, RetentionBytes: forever, Delete: true}, nowMs},
		retentionKnown{"retention.ms Long.MaxValue (9223372036854775807): nothing is ever old enough", uniformLog(3, nowMs-weekMs), timeCfg(math.MaxInt64, true), nowMs},
		retentionKnown{"retention.bytes Long.MaxValue: no log is that big", uniformLog(3, nowMs), bytesCfg(math.MaxInt64), nowMs},
		retentionKnown{"retention.ms 0: every segment whose largest timestamp is in the past goes", uniformLog(3, nowMs-1), timeCfg(0, true), nowMs},
		retentionKnown{"retention.bytes 0: every whole segment goes", uniformLog(3, nowMs), bytesCfg(0), nowMs},
	)
	return cases
}
