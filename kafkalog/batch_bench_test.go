package kafkalog

import (
	"fmt"
	"testing"
)

// benchBatch is the bench module's workload: n records, 16-byte keys, values of
// the given size, no headers.
func benchBatch(n, valueSize int) RecordBatch {
	b := RecordBatch{BatchHeader: BatchHeader{ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch,
		BaseSequence: NoSequence, PartitionLeaderEpoch: NoPartitionLeaderEpoch}}
	for i := range n {
		key := []byte(fmt.Sprintf("key-%012d", i))
		value := make([]byte, valueSize)
		for j := range value {
			value[j] = byte(i*7 + j)
		}
		b.AppendRecord(int64(i), 1700000000000+int64(i), key, value)
	}
	return b
}

var benchShapes = []struct{ n, size int }{{1, 100}, {10, 100}, {100, 100}, {1000, 100}, {1, 1024}, {10, 1024}, {100, 1024}, {1000, 1024}}

func BenchmarkAppendTo(b *testing.B) {
	for _, s := range benchShapes {
		batch := benchBatch(s.n, s.size)
		dst := batch.AppendTo(nil)
		b.Run(fmt.Sprintf("%dx%dB", s.n, s.size), func(b *testing.B) {
			b.SetBytes(int64(len(dst)))
			b.ReportAllocs()
			for b.Loop() {
				dst = batch.AppendTo(dst[:0])
			}
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, s := range benchShapes {
		batch := benchBatch(s.n, s.size)
		src := batch.AppendTo(nil)
		var d Decoder
		var out RecordBatch
		b.Run(fmt.Sprintf("%dx%dB", s.n, s.size), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := d.Decode(src, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCRC32C(b *testing.B) {
	for _, size := range []int{1 << 10, 1 << 20} {
		buf := make([]byte, size)
		b.Run(fmt.Sprintf("%dB", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				CRC32C(buf)
			}
		})
	}
}
