package kafkalog

import (
	"bytes"
	"errors"
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
