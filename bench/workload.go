package bench

import (
	"fmt"
	"math/rand/v2"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// KeyBytes is the key size of every benchmark record .
const KeyBytes = 16

// BaseTimestamp is the batch base timestamp of every workload (ms since the epoch).
const BaseTimestamp = 1_700_000_000_000

// Workload is one benchmark case: a batch of Records records, each with a
// KeyBytes key and a ValueBytes random value, record i at offset and timestamp
// delta i.
type Workload struct {
	// Records is the number of records in the batch.
	Records int
	// ValueBytes is the size of each record value.
	ValueBytes int
}

// Workloads returns the eight workloads: 1, 10, 100 and 1000
// records, each with 100-byte and 1 KiB values.
func Workloads() []Workload {
	var ws []Workload
	for _, n := range []int{1, 10, 100, 1000} {
		for _, v := range []int{100, 1024} {
			ws = append(ws, Workload{Records: n, ValueBytes: v})
		}
	}
	return ws
}

// Name is the workload's part of a benchmark name: "records=100/value=1024".
func (w Workload) Name() string { return fmt.Sprintf("records=%d/value=%d", w.Records, w.ValueBytes) }

// Batch builds the workload's batch from a fixed seed, so that every run and
// every implementation sees the same bytes: base offset 0, producer fields -1,
// CreateTime, no compression, no headers.
func (w Workload) Batch() *kafkalog.RecordBatch {
	rng := rand.New(rand.NewPCG(uint64(w.Records), uint64(w.ValueBytes)))
	recs := make([]kafkalog.Record, w.Records)
	for i := range recs {
		recs[i] = kafkalog.Record{
			TimestampDelta: int64(i),
			OffsetDelta:    int32(i),
			Key:            randomBytes(rng, KeyBytes),
			Value:          randomBytes(rng, w.ValueBytes),
		}
	}
	return &kafkalog.RecordBatch{
		BatchHeader: kafkalog.BatchHeader{
			PartitionLeaderEpoch: kafkalog.NoPartitionLeaderEpoch,
			LastOffsetDelta:      int32(w.Records - 1),
			BaseTimestamp:        BaseTimestamp,
			MaxTimestamp:         BaseTimestamp + int64(w.Records-1),
			ProducerID:           kafkalog.NoProducerID,
			ProducerEpoch:        kafkalog.NoProducerEpoch,
			BaseSequence:         kafkalog.NoSequence,
		},
		Records: recs,
	}
}

func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// Prewarm returns an empty buffer of capacity n whose pages have all been
// written once: on this project's VM the first touch of a page costs ~30x a
// reuse , which must not land on a benchmark's clock.
func Prewarm(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 0xa5
	}
	return b[:0]
}
