package kafkalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/vfs"
)

// TestOffsetOfMaxTimestamp: ListOffsets' MAX_TIMESTAMP answers the first
// record that carries the log's largest timestamp, and its batch's epoch,
// over any batches (CreateTime timestamps in any order, LogAppendTime
// topics, several records a batch, segments rolled, records deleted
// before an offset), as a model that looks at every record finds it.
func TestOffsetOfMaxTimestamp(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := testConfig()
		appendTime := rapid.IntRange(0, 3).Draw(t, "log append time") == 0
		if appendTime {
			cfg.MessageTimestampType = LogAppendTime
		}
		l, err := Open(vfs.NewMem(), "logs/topic-0", cfg, 0)
		require.NoError(t, err)
		type rec struct {
			offset, ts int64
			epoch      int32
		}
		var recs []rec
		for range rapid.IntRange(0, 30).Draw(t, "batches") {
			epoch := rapid.Int32Range(0, 3).Draw(t, "epoch")
			now := rapid.Int64Range(0, 20).Draw(t, "the leader's clock")
			var b RecordBatch
			b.PartitionLeaderEpoch, b.ProducerID, b.ProducerEpoch, b.BaseSequence = epoch, NoProducerID, NoProducerEpoch, -1
			base := l.LogEndOffset()
			for j := range rapid.IntRange(1, 4).Draw(t, "records") {
				ts := rapid.Int64Range(0, 20).Draw(t, "timestamp")
				b.AppendRecord(int64(j), ts, nil, []byte("v"))
				if appendTime {
					ts = now
				}
				recs = append(recs, rec{base + int64(j), ts, epoch})
			}
			_, err := l.AppendAsLeader(b.AppendTo(nil), epoch, now)
			require.NoError(t, err)
		}
		if len(recs) > 0 && rapid.Bool().Draw(t, "delete records") {
			_, err := l.DeleteRecords(rapid.Int64Range(0, l.LogEndOffset()).Draw(t, "delete before"), l.LogEndOffset())
			require.NoError(t, err)
		}
		want, wantOK := rec{}, false
		for _, r := range recs {
			if r.offset >= l.LogStartOffset() && (!wantOK || r.ts > want.ts) {
				want, wantOK = r, true
			}
		}
		offset, ts, epoch, ok, err := l.OffsetOfMaxTimestamp()
		require.NoError(t, err)
		require.Equal(t, wantOK, ok, "a record found")
		if !ok {
			return
		}
		if diff := cmp.Diff(want, rec{offset, ts, epoch}, cmp.AllowUnexported(rec{})); diff != "" {
			t.Fatalf("MAX_TIMESTAMP (-want +got):\n%s", diff)
		}
	})
}
