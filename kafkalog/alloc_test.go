package kafkalog

import (
	"encoding/binary"
	"errors"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// hundredRecords is a batch of 100 records with 16-byte keys and 100-byte
// values, the bench module's workload.
func hundredRecords(c Compression) RecordBatch {
	b := RecordBatch{BatchHeader: BatchHeader{Attributes: NewAttributes(c, CreateTime, false, false),
		ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch, BaseSequence: NoSequence}}
	for i := range 100 {
		key := []byte("key-0000000000" + string(rune('a'+i%26)) + "x")
		value := make([]byte, 100)
		for j := range value {
			value[j] = byte(i + j)
		}
		b.AppendRecord(int64(i), 1700000000000+int64(i), key, value, Header{Key: []byte("h"), Value: []byte("v")})
	}
	return b
}

// TestZeroAllocations: decoding an uncompressed batch into a reused RecordBatch
// with a reused Decoder, and encoding into a reused buffer, allocate nothing.
func TestZeroAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	b := hundredRecords(CompressionNone)
	buf := b.AppendTo(nil)
	var d Decoder
	var out RecordBatch
	_, err := d.Decode(buf, &out) // warm up: grow the reused slices once
	require.NoError(t, err)
	if n := testing.AllocsPerRun(100, func() {
		if _, err := d.Decode(buf, &out); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Decoder.Decode of 100 records allocates %v times per batch, want 0", n)
	}
	dst := make([]byte, 0, len(buf))
	if n := testing.AllocsPerRun(100, func() { dst = b.AppendTo(dst[:0]) }); n != 0 {
		t.Errorf("RecordBatch.AppendTo into a reused buffer allocates %v times per batch, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, _, err := CheckBatch(buf); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("CheckBatch allocates %v times, want 0", n)
	}
	it := NewBatchIter(buf, 0)
	if n := testing.AllocsPerRun(100, func() {
		*it = BatchIter{src: buf}
		for it.Next() {
		}
	}); n != 0 {
		t.Errorf("BatchIter allocates %v times per pass, want 0", n)
	}
}

// TestLyingLengthsAllocateLittle: a batch whose record count, key length or
// header count claim far more than the bytes present fails without allocating
// memory in proportion to the claim.
func TestLyingLengthsAllocateLittle(t *testing.T) {
	b := threeRecords(CompressionNone)
	enc := b.AppendTo(nil)
	lie := func(edit func([]byte)) []byte {
		out := append([]byte(nil), enc...)
		edit(out)
		binary.BigEndian.PutUint32(out[posCRC:], CRC32C(out[posAttributes:]))
		return out
	}
	tests := map[string][]byte{
		"2^31-1 records declared": lie(func(p []byte) { binary.BigEndian.PutUint32(p[posRecordsCount:], 1<<31-1) }),
		// first record: length, attrs, tsDelta, offsetDelta, then keyLength at 65
		"key length 2^31-1": lie(func(p []byte) { copy(p[65:], []byte{0xfe, 0xff, 0xff, 0xff, 0x0f}) }),
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var d Decoder
			var out RecordBatch
			_, err := d.Decode(in, &out)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrInvalidRecord) {
				t.Errorf("got %v, want ErrInvalidRecord", err)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<10 {
				t.Errorf("a %d-byte batch made the decoder allocate %d bytes", len(in), grew)
			}
		})
	}
}

// TestZeroAllocationsCompressed: a reused Decoder also decodes compressed
// batches without allocating, once its buffers and codec state have grown.
// (Encoding compressed batches draws codec state from a sync.Pool, which a GC
// may empty, so it is not asserted here; it measured 0 allocs as well.)
func TestZeroAllocationsCompressed(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	for c := CompressionGzip; c <= CompressionZstd; c++ {
		b := hundredRecords(c)
		buf := b.AppendTo(nil)
		var d Decoder
		var out RecordBatch
		_, err := d.Decode(buf, &out)
		require.NoError(t, err)
		if n := testing.AllocsPerRun(20, func() {
			if _, err := d.Decode(buf, &out); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%v: Decoder.Decode allocates %v times per batch, want 0", c, n)
		}
	}
}
