package kafkalog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCompressionRoundTrip: every codec's framing decodes what it encodes, and
// snappy also reads a raw block (what KafkaJS and librdkafka write).
func TestCompressionRoundTrip(t *testing.T) {
	raw := bytes.Repeat([]byte("kafka records "), 5000) // 70 kB: several xerial blocks
	for c := CompressionNone; c <= CompressionZstd; c++ {
		enc, err := Compress([]byte("dst"), c, raw)
		require.NoError(t, err)
		require.Equal(t, "dst", string(enc[:3]), "%v: Compress kept dst", c)
		got, err := Decompress(nil, c, enc[3:], 0)
		require.NoError(t, err, "%v", c)
		if !bytes.Equal(raw, got) {
			t.Errorf("%v: round trip gave %d bytes, want %d", c, len(got), len(raw))
		}
	}
	snappyEnc, err := Compress(nil, CompressionSnappy, raw)
	require.NoError(t, err)
	if !bytes.HasPrefix(snappyEnc, xerialMagic) {
		t.Errorf("snappy is not xerial-framed like the Java producer's: % x", snappyEnc[:8])
	}
}

// TestDecompressionCap: every codec stops at the limit with ErrTooLarge
// instead of producing (or allocating) more.
func TestDecompressionCap(t *testing.T) {
	raw := make([]byte, 1<<20) // zeros compress to almost nothing: a small bomb
	for c := CompressionGzip; c <= CompressionZstd; c++ {
		enc, err := Compress(nil, c, raw)
		require.NoError(t, err)
		out, err := Decompress(nil, c, enc, 64<<10)
		if !errors.Is(err, ErrTooLarge) || len(out) > 64<<10 {
			t.Errorf("%v: %d compressed bytes under a 64 KiB cap gave %d bytes and %v, want ErrTooLarge", c, len(enc), len(out), err)
		}
	}
	if _, err := Decompress(nil, Compression(5), []byte{1}, 0); !errors.Is(err, ErrUnknownCompression) {
		t.Errorf("codec 5: %v, want ErrUnknownCompression", err)
	}
}

// TestSnappyXerialDamage: a xerial stream with a block length past the end or
// a cut header is invalid, not a panic.
func TestSnappyXerialDamage(t *testing.T) {
	enc, err := Compress(nil, CompressionSnappy, []byte("hello hello hello"))
	require.NoError(t, err)
	for _, in := range [][]byte{enc[:len(xerialMagic)+2], enc[:xerialHeaderLen+2], enc[:len(enc)-1]} {
		if _, err := Decompress(nil, CompressionSnappy, in, 0); !errors.Is(err, ErrInvalidRecord) {
			t.Errorf("%d-byte cut of a %d-byte xerial stream: %v, want ErrInvalidRecord", len(in), len(enc), err)
		}
	}
}

// TestSnappyLyingHeader: a snappy block whose header claims far more than its
// bytes can decode to is refused before the claimed size is allocated.
func TestSnappyLyingHeader(t *testing.T) {
	block := binary.AppendUvarint(nil, 60<<20) // "60 MiB follow", then 4 bytes
	block = append(block, 0, 0, 0, 0)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Decompress(nil, CompressionSnappy, block, 0)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrInvalidRecord) {
		t.Errorf("a %d-byte block claiming 60 MiB: %v, want ErrInvalidRecord", len(block), err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("a %d-byte block claiming 60 MiB allocated %d bytes", len(block), grew)
	}
	// The densest honest block, 1 MiB of zeros, stays within the bound.
	zeros := make([]byte, 1<<20)
	enc, err := Compress(nil, CompressionSnappy, zeros)
	require.NoError(t, err)
	got, err := Decompress(nil, CompressionSnappy, enc, 0)
	require.NoError(t, err)
	require.Equal(t, len(zeros), len(got))
}

// TestDecoderLimitChange: a Decoder whose MaxDecompressedBytes is raised after
// a refusal decodes the batch it refused (the zstd decoder keeps its cap from
// creation, so it must be rebuilt).
func TestDecoderLimitChange(t *testing.T) {
	for c := CompressionGzip; c <= CompressionZstd; c++ {
		b := RecordBatch{BatchHeader: BatchHeader{Attributes: NewAttributes(c, CreateTime, false, false)}}
		b.AppendRecord(0, 1000, nil, make([]byte, 100<<10))
		raw := b.AppendTo(nil)
		d := Decoder{MaxDecompressedBytes: 64 << 10}
		var got RecordBatch
		if _, err := d.Decode(raw, &got); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%v: 100 KiB of records under a 64 KiB cap: %v, want ErrTooLarge", c, err)
		}
		d.MaxDecompressedBytes = 1 << 20
		if _, err := d.Decode(raw, &got); err != nil {
			t.Errorf("%v: the same batch once the cap is 1 MiB: %v", c, err)
		}
	}
}

// TestDecoderTrim: after a batch that decompressed past the bound, Trim
// leaves the Decoder nothing that points into that memory (its buffer, the
// record Scan reused, its headers, the zstd decoder), so a Decoder kept for
// reuse does not hold a large batch; under the bound it keeps its buffer.
// The Decoder still decodes afterwards.
func TestDecoderTrim(t *testing.T) {
	for c := CompressionGzip; c <= CompressionZstd; c++ {
		b := RecordBatch{BatchHeader: BatchHeader{Attributes: NewAttributes(c, CreateTime, false, false)}}
		b.AppendRecord(0, 1000, []byte("k"), make([]byte, 200<<10), Header{Key: []byte("h"), Value: []byte("v")})
		raw := b.AppendTo(nil)
		var d Decoder
		scan := func() {
			t.Helper()
			_, _, err := d.Scan(raw, func(int, *Record) {})
			require.NoError(t, err, "%v", c)
		}
		scan()
		d.Trim(1 << 20)
		require.NotNil(t, d.buf, "%v: a batch under the bound keeps its buffer", c)
		d.Trim(100 << 10)
		require.Nil(t, d.buf, "%v", c)
		for _, r := range d.scratch[:cap(d.scratch)] {
			require.True(t, r.Key == nil && r.Value == nil && r.Headers == nil, "%v: Scan's record still points into the buffer", c)
		}
		for _, h := range d.headers[:cap(d.headers)] {
			require.True(t, h.Key == nil && h.Value == nil, "%v: a header still points into the buffer", c)
		}
		require.Nil(t, d.codecs.zstd, "%v", c)
		scan()
		var got RecordBatch
		_, err := d.Decode(raw, &got)
		require.NoError(t, err)
		require.Len(t, got.Records[0].Value, 200<<10)
	}
}

// TestDecompressionCapExact: output of exactly the cap is accepted and one
// byte more is refused, for every codec, however its reader splits the
// final read and io.EOF.
func TestDecompressionCapExact(t *testing.T) {
	const limit = 1000
	for c := CompressionGzip; c <= CompressionZstd; c++ {
		for _, size := range []int{limit, limit + 1} {
			enc, err := Compress(nil, c, bytes.Repeat([]byte{'x'}, size))
			require.NoError(t, err)
			out, err := Decompress(nil, c, enc, limit)
			if size <= limit && (err != nil || len(out) != size) {
				t.Errorf("%v: %d bytes under a cap of %d: %d bytes, %v", c, size, limit, len(out), err)
			}
			if size > limit && !errors.Is(err, ErrTooLarge) {
				t.Errorf("%v: %d bytes under a cap of %d: %d bytes, %v, want ErrTooLarge", c, size, limit, len(out), err)
			}
		}
	}
}

// TestDecompressErrors: a batch whose compressed records the codec refuses
// (the stream overwritten, the CRC made good again) is ErrDecompress and
// ErrInvalidRecord, from Decode and Scan alike; a batch that decompresses
// but whose records do not parse (a record count above what is there) is
// ErrInvalidRecord alone; a stream over the cap is ErrTooLarge alone.
func TestDecompressErrors(t *testing.T) {
	for c := CompressionGzip; c <= CompressionZstd; c++ {
		b := RecordBatch{BatchHeader: BatchHeader{Attributes: NewAttributes(c, CreateTime, false, false)}}
		for i := range 20 {
			b.AppendRecord(int64(i), 1000, []byte("key"), []byte("a value that compresses"))
		}
		raw := b.AppendTo(nil)
		recompute := func(raw []byte) []byte {
			binary.BigEndian.PutUint32(raw[posCRC:], CRC32C(raw[posAttributes:]))
			return raw
		}
		garbled := recompute(append(append([]byte(nil), raw[:BatchHeaderLen]...), bytes.Repeat([]byte{0xff}, len(raw)-BatchHeaderLen)...))
		miscounted := append([]byte(nil), raw...)
		binary.BigEndian.PutUint32(miscounted[posRecordsCount:], 21)
		recompute(miscounted)
		var d Decoder
		var got RecordBatch
		for _, tc := range []struct {
			name            string
			raw             []byte
			decompress, rec bool
		}{{"garbled stream", garbled, true, true}, {"21 records declared, 20 there", miscounted, false, true}} {
			_, err := d.Decode(tc.raw, &got)
			_, _, serr := d.Scan(tc.raw, func(int, *Record) {})
			for _, e := range []error{err, serr} {
				if errors.Is(e, ErrDecompress) != tc.decompress || errors.Is(e, ErrInvalidRecord) != tc.rec {
					t.Errorf("%v, %s: %v: ErrDecompress %v (want %v), ErrInvalidRecord %v (want %v)", c, tc.name, e, errors.Is(e, ErrDecompress), tc.decompress, errors.Is(e, ErrInvalidRecord), tc.rec)
				}
			}
		}
		if _, err := Decompress(nil, c, garbled[BatchHeaderLen:], 0); !errors.Is(err, ErrDecompress) || !errors.Is(err, ErrInvalidRecord) {
			t.Errorf("%v: Decompress of a garbled stream: %v, want ErrDecompress and ErrInvalidRecord", c, err)
		}
		capped := Decoder{MaxDecompressedBytes: 100}
		if _, err := capped.Decode(raw, &got); !errors.Is(err, ErrTooLarge) || errors.Is(err, ErrDecompress) {
			t.Errorf("%v: over the cap: %v, want ErrTooLarge and not ErrDecompress", c, err)
		}
	}
}
