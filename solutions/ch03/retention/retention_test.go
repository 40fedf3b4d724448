package retention

import (
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/bank"
)

func TestRetention(t *testing.T) {
	kafkalogkit.TestRetention(t, kafkalogkit.Retention{DeletableSegments: deletableSegments}, bank.Retention()...)
}

// deletableSegments calls DeletableSegments with the suite's types.
func deletableSegments(l kafkalogkit.RetentionLog, c kafkalogkit.RetentionConfig, nowMs int64) int {
	log := Log{LogEndOffset: l.LogEndOffset, HighWatermark: l.HighWatermark, LogStartOffset: l.LogStartOffset}
	for _, s := range l.Segments {
		log.Segments = append(log.Segments, Segment(s))
	}
	return DeletableSegments(log, Config(c), nowMs)
}
