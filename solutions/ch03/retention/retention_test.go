package retention

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogtest"
)

func TestRetention(t *testing.T) {
	kafkalogtest.TestRetention(t, kafkalogtest.Retention{DeletableSegments: deletableSegments})
}

// deletableSegments calls DeletableSegments with the suite's types.
func deletableSegments(l kafkalogtest.RetentionLog, c kafkalogtest.RetentionConfig, nowMs int64) int {
	log := Log{LogEndOffset: l.LogEndOffset, HighWatermark: l.HighWatermark, LogStartOffset: l.LogStartOffset}
	for _, s := range l.Segments {
		log.Segments = append(log.Segments, Segment(s))
	}
	return DeletableSegments(log, Config(c), nowMs)
}
