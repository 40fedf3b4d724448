package kafkalog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// The records section of a compressed batch is one compressed stream of the
// records laid end to end (DefaultRecordBatch.compressedIterator):
//
//	gzip    a gzip stream
//	snappy  either xerial framing (what the Java producer writes: the magic
//	        82 53 4E 41 50 50 59 00, int32 version, int32 compatible version, then
//	        [int32 length][raw snappy block]...) or one raw snappy block
//	        (KafkaJS, librdkafka); Kafka reads both
//	lz4     an LZ4 frame
//	zstd    a zstd frame
//
// Encoding uses xerial framing for snappy, like the Java producer, and writes
// zstd without goroutines (WithEncoderConcurrency(1)) so the simulation stays
// deterministic.

var xerialMagic = []byte{0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0}

const xerialHeaderLen = 16 // magic + int32 version + int32 compatible version

// xerialBlockSize is snappy-java's default block size (32 KiB).
const xerialBlockSize = 32 << 10

// zstdMinMemory is what a zstd decoder may use whatever the output cap: 8 MiB,
// the window size the format asks every decoder to support. The decoder also
// refuses windows above its memory cap, and a frame's window says nothing of
// its output (a streaming encoder declares megabytes of window for a few
// bytes of records), so a smaller cap is checked on the output instead.
const zstdMinMemory = 8 << 20

// decompressors holds codec state a Decoder reuses.
type decompressors struct {
	gz   *gzip.Reader
	zstd *zstd.Decoder
	// zstdMemory is the memory cap d.zstd was built with (a zstd.Decoder
	// fixes it at creation).
	zstdMemory int
	lz4        *lz4.Reader
	rd         bytes.Reader
}

// decompress appends the decompressed form of src to dst, refusing to produce
// more than limit bytes. A stream the codec refuses is ErrDecompress as well
// as ErrInvalidRecord.
func (d *decompressors) decompress(c Compression, dst, src []byte, limit int) ([]byte, error) {
	out, err := d.decode(c, dst, src, limit)
	if errors.Is(err, ErrInvalidRecord) {
		err = &decompressError{err}
	}
	return out, err
}

func (d *decompressors) decode(c Compression, dst, src []byte, limit int) ([]byte, error) {
	switch c {
	case CompressionNone:
		if len(src) > limit {
			return dst, fmt.Errorf("%w: %d bytes above %d", ErrTooLarge, len(src), limit)
		}
		return append(dst, src...), nil
	case CompressionGzip:
		d.rd.Reset(src)
		if d.gz == nil {
			gz, err := gzip.NewReader(&d.rd)
			if err != nil {
				return dst, fmt.Errorf("%w: gzip: %w", ErrInvalidRecord, err)
			}
			d.gz = gz
		} else if err := d.gz.Reset(&d.rd); err != nil {
			return dst, fmt.Errorf("%w: gzip: %w", ErrInvalidRecord, err)
		}
		return readAllLimited(dst, d.gz, limit, "gzip")
	case CompressionSnappy:
		return decompressSnappy(dst, src, limit)
	case CompressionLZ4:
		d.rd.Reset(src)
		if d.lz4 == nil {
			d.lz4 = lz4.NewReader(&d.rd)
		} else {
			d.lz4.Reset(&d.rd)
		}
		return readAllLimited(dst, d.lz4, limit, "lz4")
	case CompressionZstd:
		if mem := max(limit, zstdMinMemory); d.zstd == nil || d.zstdMemory != mem {
			z, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(mem)))
			if err != nil {
				return dst, fmt.Errorf("%w: zstd: %w", ErrInvalidRecord, err)
			}
			d.zstd, d.zstdMemory = z, mem
		}
		out, err := d.zstd.DecodeAll(src, dst)
		if errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded) {
			return dst, fmt.Errorf("%w: zstd: %w", ErrTooLarge, err)
		}
		if err != nil {
			return dst, fmt.Errorf("%w: zstd: %w", ErrInvalidRecord, err)
		}
		if len(out)-len(dst) > limit {
			return dst, fmt.Errorf("%w: zstd output above %d bytes", ErrTooLarge, limit)
		}
		return out, nil
	}
	return dst, fmt.Errorf("%w: %d", ErrUnknownCompression, int8(c))
}

func readAllLimited(dst []byte, r io.Reader, limit int, codec string) ([]byte, error) {
	start := len(dst)
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		// Checked after every read, the last one included: a reader may hand
		// over its final bytes together with io.EOF.
		if len(dst)-start > limit {
			return dst[:start], fmt.Errorf("%w: %s output above %d bytes", ErrTooLarge, codec, limit)
		}
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst[:start], fmt.Errorf("%w: %s: %w", ErrInvalidRecord, codec, err)
		}
	}
}

func decompressSnappy(dst, src []byte, limit int) ([]byte, error) {
	if !bytes.HasPrefix(src, xerialMagic) {
		return snappyBlock(dst, src, limit, len(dst))
	}
	if len(src) < xerialHeaderLen {
		return dst, fmt.Errorf("%w: snappy: xerial header truncated", ErrInvalidRecord)
	}
	start := len(dst)
	for p := src[xerialHeaderLen:]; len(p) > 0; {
		if len(p) < 4 {
			return dst[:start], fmt.Errorf("%w: snappy: xerial block length truncated", ErrInvalidRecord)
		}
		n := binary.BigEndian.Uint32(p)
		if uint64(n) > uint64(len(p)-4) {
			return dst[:start], fmt.Errorf("%w: snappy: xerial block of %d bytes, %d present", ErrInvalidRecord, n, len(p)-4)
		}
		var err error
		if dst, err = snappyBlock(dst, p[4:4+n], limit, start); err != nil {
			return dst[:start], err
		}
		p = p[4+n:]
	}
	return dst, nil
}

// maxSnappyExpansion bounds how many bytes a snappy block can decode to per
// byte: its densest element, a copy with a 2-byte offset, writes 64 bytes from
// 3 (21.3 times). A block header that claims more is lying.
const maxSnappyExpansion = 32

// snappyBlock appends one decoded raw snappy block, keeping the total output
// (since start) within limit. The decoded length is read from the block header
// and checked, against the limit and against what the block's size can hold,
// before anything is allocated.
func snappyBlock(dst, block []byte, limit, start int) ([]byte, error) {
	n, err := s2.DecodedLen(block)
	if err != nil {
		return dst, fmt.Errorf("%w: snappy: %w", ErrInvalidRecord, err)
	}
	if n > limit-(len(dst)-start) {
		return dst, fmt.Errorf("%w: snappy output above %d bytes", ErrTooLarge, limit)
	}
	if n > maxSnappyExpansion*len(block) {
		return dst, fmt.Errorf("%w: snappy: a block of %d bytes cannot hold the %d bytes its header claims", ErrInvalidRecord, len(block), n)
	}
	if cap(dst)-len(dst) < n {
		grown := make([]byte, len(dst), len(dst)+n)
		copy(grown, dst)
		dst = grown
	}
	out, err := s2.Decode(dst[len(dst):len(dst)+n], block)
	if err != nil {
		return dst, fmt.Errorf("%w: snappy: %w", ErrInvalidRecord, err)
	}
	return dst[:len(dst)+len(out)], nil
}

// compressors is the codec state reused by appendCompressedRecords.
type compressors struct {
	raw   []byte
	block []byte
	out   bytes.Buffer
	gz    *gzip.Writer
	lz4   *lz4.Writer
	zstd  *zstd.Encoder
}

var compressorPool = sync.Pool{New: func() any { return new(compressors) }}

// appendCompressedRecords encodes recs, compresses them with c and appends the
// compressed stream to dst.
func appendCompressedRecords(dst []byte, c Compression, recs []Record) []byte {
	cs := compressorPool.Get().(*compressors)
	defer compressorPool.Put(cs)
	cs.raw = cs.raw[:0]
	cs.raw = appendRecords(cs.raw, recs)
	out, err := cs.compress(dst, c, cs.raw)
	if err != nil {
		// Compressing into memory cannot fail but for a codec we do not know.
		panic(fmt.Sprintf("kafkalog: compress records: %v", err))
	}
	return out
}

// Compress appends src compressed with c to dst, framed as Kafka expects in a
// batch's records section.
func Compress(dst []byte, c Compression, src []byte) ([]byte, error) {
	cs := compressorPool.Get().(*compressors)
	defer compressorPool.Put(cs)
	return cs.compress(dst, c, src)
}

// Decompress appends the decompressed records section src (compressed with c)
// to dst, producing at most limit bytes (0 = DefaultMaxDecompressedBytes). A
// stream the codec refuses is ErrDecompress and ErrInvalidRecord; output past
// the limit is ErrTooLarge.
func Decompress(dst []byte, c Compression, src []byte, limit int) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultMaxDecompressedBytes
	}
	var d decompressors
	return d.decompress(c, dst, src, limit)
}

func (cs *compressors) compress(dst []byte, c Compression, src []byte) ([]byte, error) {
	switch c {
	case CompressionNone:
		return append(dst, src...), nil
	case CompressionGzip:
		cs.out.Reset()
		if cs.gz == nil {
			cs.gz = gzip.NewWriter(&cs.out)
		} else {
			cs.gz.Reset(&cs.out)
		}
		return cs.finish(dst, cs.gz, src)
	case CompressionSnappy:
		dst = append(dst, xerialMagic...)
		dst = binary.BigEndian.AppendUint32(dst, 1) // version
		dst = binary.BigEndian.AppendUint32(dst, 1) // compatible version
		for p := src; len(p) > 0; {
			n := min(len(p), xerialBlockSize)
			cs.block = s2.EncodeSnappy(cs.block[:cap(cs.block)], p[:n])
			dst = binary.BigEndian.AppendUint32(dst, uint32(len(cs.block)))
			dst = append(dst, cs.block...)
			p = p[n:]
		}
		return dst, nil
	case CompressionLZ4:
		cs.out.Reset()
		if cs.lz4 == nil {
			cs.lz4 = lz4.NewWriter(&cs.out)
			if err := cs.lz4.Apply(lz4.BlockSizeOption(lz4.Block64Kb), lz4.ConcurrencyOption(1)); err != nil {
				return dst, err
			}
		} else {
			cs.lz4.Reset(&cs.out)
		}
		return cs.finish(dst, cs.lz4, src)
	case CompressionZstd:
		if cs.zstd == nil {
			z, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithZeroFrames(true))
			if err != nil {
				return dst, err
			}
			cs.zstd = z
		}
		return cs.zstd.EncodeAll(src, dst), nil
	}
	return dst, fmt.Errorf("%w: %d", ErrUnknownCompression, int8(c))
}

func (cs *compressors) finish(dst []byte, w io.WriteCloser, src []byte) ([]byte, error) {
	if _, err := w.Write(src); err != nil {
		return dst, err
	}
	if err := w.Close(); err != nil {
		return dst, err
	}
	return append(dst, cs.out.Bytes()...), nil
}
