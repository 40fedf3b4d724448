package cluster_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// TestEncoderMistakes: the batches a producer's encoder (Parts.EncodeBatch,
// a learner's in the kit's live mode) writes are checked by the leader as
// Kafka 3.7's LogValidator checks a producer's batch. A control batch, a
// producer id without a sequence, a header whose offsets and count
// disagree are INVALID_RECORD, as are records whose offset deltas are not
// 0, 1, 2... (Kafka stores an uncompressed batch's as they are; the
// simulation keeps a log's offsets increasing); a wrong maxTimestamp is
// taken and rewritten to the largest of the records' timestamps, as Kafka
// does. Nothing refused reaches the log.
func TestEncoderMistakes(t *testing.T) {
	for _, c := range []struct {
		name  string
		bug   func(*kafkalog.RecordBatch)
		taken bool
	}{
		{"none", func(*kafkalog.RecordBatch) {}, true},
		{"offset deltas", func(b *kafkalog.RecordBatch) { b.Records[1].OffsetDelta = 0 }, false},
		{"maxTimestamp", func(b *kafkalog.RecordBatch) { b.MaxTimestamp = 5 }, true},
		{"control bit", func(b *kafkalog.RecordBatch) {
			b.Attributes = kafkalog.NewAttributes(kafkalog.CompressionNone, kafkalog.CreateTime, false, true)
		}, false},
		{"producer id without a sequence", func(b *kafkalog.RecordBatch) { b.ProducerID = 77 }, false},
		{"lastOffsetDelta", func(b *kafkalog.RecordBatch) { b.LastOffsetDelta++ }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			enc := func(dst []byte, b *kafkalog.RecordBatch) ([]byte, bool) {
				m := *b
				m.Records = append([]kafkalog.Record(nil), b.Records...)
				if len(m.Records) >= 3 {
					c.bug(&m)
				}
				return m.AppendTo(dst), true
			}
			w, err := cluster.New(cluster.Config{Seed: 4, Brokers: 3, Parts: cluster.Parts{EncodeBatch: enc}})
			require.NoError(t, err)
			require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 3}))
			require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", LingerMs: 50}))
			require.NoError(t, w.RunFor(2000))
			for i := range 5 {
				require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActProduce, Name: "p", Value: fmt.Sprintf("v%d", i), Partition: -1}))
			}
			require.NoError(t, w.RunFor(3000))
			want, end := "", int64(5)
			if !c.taken {
				want, end = "INVALID_RECORD", 0
			}
			for _, r := range w.Producers()[0].Results() {
				require.Equal(t, want, r.Error)
			}
			require.Equal(t, end, w.State().Partitions[0].LogEndOffset)
			require.Empty(t, w.InternalErrors())
			if !c.taken {
				return
			}
			fp := ask[*kmsg.FetchResponse](t, w, w.PartitionLeader("t", 0), fetchReq(0, -1), 5000).Topics[0].Partitions[0]
			require.Equal(t, int16(0), fp.ErrorCode)
			var dec kafkalog.Decoder
			var b kafkalog.RecordBatch
			_, err = dec.Decode(fp.RecordBatches, &b)
			require.NoError(t, err)
			require.Len(t, b.Records, 5)
			largest := int64(kafkalog.NoTimestamp)
			for i := range b.Records {
				largest = max(largest, b.Timestamp(&b.Records[i]))
			}
			require.Equal(t, largest, b.MaxTimestamp, "the leader writes the records' largest timestamp")
		})
	}
}
