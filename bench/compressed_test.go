package bench

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// kgoCodecs are franz-go's producer codecs at their default levels, by
// kafkalog codec.
var kgoCodecs = map[kafkalog.Compression]kgo.CompressionCodec{
	kafkalog.CompressionGzip:   kgo.GzipCompression(),
	kafkalog.CompressionSnappy: kgo.SnappyCompression(),
	kafkalog.CompressionLZ4:    kgo.Lz4Compression(),
	kafkalog.CompressionZstd:   kgo.ZstdCompression(),
}

// TestDifferentialCompressed: for any batch and codec,
//   - kgo's decompressor (franz-go v1.22.3) turns the records section kafkalog
//     compressed into the same bytes as kafkalog.Decompress, and kmsg decodes those
//     records back to the batch (kafkalog writes snappy in xerial framing, as the
//     Java producer does);
//   - kafkalog decodes a batch whose records section kgo's own compressor
//     produced (kgo writes snappy as one raw block) back to the batch.
func TestDifferentialCompressed(t *testing.T) {
	compressors := map[kafkalog.Compression]kgo.Compressor{}
	for c, codec := range kgoCodecs {
		comp, err := kgo.DefaultCompressor(codec)
		require.NoError(t, err)
		compressors[c] = comp
	}
	decompressor := kgo.DefaultDecompressor()
	codecs := []kafkalog.Compression{kafkalog.CompressionGzip, kafkalog.CompressionSnappy, kafkalog.CompressionLZ4, kafkalog.CompressionZstd}

	rapid.Check(t, func(t *rapid.T) {
		b := drawBatch(t)
		c := rapid.SampledFrom(codecs).Draw(t, "codec")
		b.Attributes = b.Attributes.WithCompression(c)

		ours := b.AppendTo(nil)
		var kd KmsgDecoder
		if err := kd.Decode(ours); err != nil {
			t.Fatalf("kmsg rejected kafkalog's %s batch header: %v", c, err)
		}
		raw, err := kafkalog.Decompress(nil, c, kd.Batch.Records, 0)
		if err != nil {
			t.Fatalf("kafkalog.Decompress failed on kafkalog's own %s records: %v", c, err)
		}
		rawKgo, err := decompressor.Decompress(kd.Batch.Records, kgo.CompressionCodecType(c))
		if c == kafkalog.CompressionSnappy && len(b.Records) == 0 {
			// kgo (v1.22.3 decompressSnappy) reads xerial framing only when more than
			// the 16-byte header is present, so the header-only stream that
			// snappy-java, and kafkalog, write for no records fails there as a raw
			// block. Kafka reads it. Only kafkalog's side is checked then.
			rawKgo, err = raw, nil
		}
		if err != nil {
			t.Fatalf("kgo could not decompress kafkalog's %s records section: %v", c, err)
		}
		if !bytes.Equal(raw, rawKgo) {
			t.Fatalf("kgo and kafkalog decompress kafkalog's %s records to different bytes: %s", c, firstDiff(raw, rawKgo))
		}
		if err := kd.DecodeRecords(rawKgo, kd.Batch.NumRecords); err != nil {
			t.Fatalf("kmsg rejected the records of kafkalog's %s batch: %v", c, err)
		}
		if diff := diffFlat(wantFlat(b, ours), flatFromKmsg(&kd.Batch, kd.Records)); diff != "" {
			t.Fatalf("kmsg decoded kafkalog's %s batch to something else (-want +got):\n%s", c, diff)
		}

		kh, krecs := KmsgFromBatch(b)
		rawTheirs := KmsgAppendRecords(nil, krecs)
		if !bytes.Equal(raw, rawTheirs) {
			t.Fatalf("kmsg's records section differs from kafkalog's: %s", firstDiff(raw, rawTheirs))
		}
		comp, used := compressors[c].Compress(new(bytes.Buffer), rawTheirs)
		if used != kgo.CompressionCodecType(c) {
			t.Fatalf("kgo compressed with codec %d, not %s", used, c)
		}
		theirs := KmsgAppendBatchWithRecords(nil, kh, int32(len(krecs)), comp)
		got, n, err := kafkalog.ReadBatch(theirs)
		if err != nil || n != len(theirs) {
			t.Fatalf("kafkalog rejected a batch compressed by kgo's %s compressor (read %d of %d): %v", c, n, len(theirs), err)
		}
		if diff := diffFlat(wantFlat(b, theirs), flatFromKafkalog(&got)); diff != "" {
			t.Fatalf("kafkalog decoded kgo's %s batch wrongly (-want +got):\n%s", c, diff)
		}
	})
}
