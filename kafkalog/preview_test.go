package kafkalog

import (
	"bytes"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// previewOf is what Preview should give of r with limit: its key and
// value cut, their sizes.
func previewOf(r *Record, limit int) PreviewRecord {
	cut := func(b []byte) ([]byte, int) {
		if b == nil {
			return nil, -1
		}
		return bytes.Clone(b[:min(len(b), limit)]), len(b)
	}
	p := PreviewRecord{Attributes: r.Attributes, TimestampDelta: r.TimestampDelta, OffsetDelta: r.OffsetDelta}
	p.Key, p.KeySize = cut(r.Key)
	p.Value, p.ValueSize = cut(r.Value)
	if p.Key != nil && len(p.Key) == 0 {
		p.Key = []byte{}
	}
	return p
}

// previewAll previews every record of src, keeping copies.
func previewAll(d *Decoder, src []byte, limit int) ([]PreviewRecord, error) {
	var got []PreviewRecord
	_, err := d.Preview(src, limit, func(_ int, r *PreviewRecord) bool {
		got = append(got, *r)
		return true
	})
	return got, err
}

// Preview gives every record Decode gives, its key and value cut to the
// limit with their whole sizes, under every codec; stopped after record k
// it visits k+1 records.
func TestPreviewIsDecodeCutProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := drawBatch(t)
		raw := b.AppendTo(nil)
		limit := rapid.IntRange(0, 50).Draw(t, "limit")
		var want []PreviewRecord
		for i := range b.Records {
			want = append(want, previewOf(&b.Records[i], limit))
		}
		var d Decoder
		got, err := previewAll(&d, raw, limit)
		require.NoError(t, err)
		if diff := cmp.Diff(want, got, cmp.Comparer(bytes.Equal)); diff != "" {
			t.Fatalf("Preview (-want +got):\n%s", diff)
		}
		if len(b.Records) > 0 {
			stop := rapid.IntRange(0, len(b.Records)-1).Draw(t, "stop after")
			visited := 0
			_, err := d.Preview(raw, limit, func(i int, _ *PreviewRecord) bool {
				visited++
				return i < stop
			})
			require.NoError(t, err)
			require.Equal(t, stop+1, visited)
		}
	})
}

// A batch of one record whose value decompresses to tens of MiB is
// previewed without decompressing it whole, under every codec that
// streams, and a value of 60 MiB under gzip and MaxDecompressedBytes
// needs only its first kilobytes.
func TestPreviewReadsAHugeValueOnlyAsFarAsItShows(t *testing.T) {
	for _, c := range []Compression{CompressionGzip, CompressionSnappy, CompressionLZ4, CompressionZstd} {
		var b RecordBatch
		b.Magic, b.Attributes = MagicV2, Attributes(0).WithCompression(c)
		b.AppendRecord(0, 0, []byte("k"), bytes.Repeat([]byte("v"), 60<<20))
		b.AppendRecord(1, 0, nil, []byte("small"))
		raw := b.AppendTo(nil)
		var d Decoder
		d.MaxDecompressedBytes = 1 << 20 // a whole decode is refused
		var first PreviewRecord
		_, err := d.Preview(raw, 100, func(i int, r *PreviewRecord) bool {
			first = *r
			return false
		})
		require.NoError(t, err, c.String())
		require.Equal(t, 60<<20, first.ValueSize, c.String())
		require.Equal(t, bytes.Repeat([]byte("v"), 100), first.Value, c.String())
		_, err = previewAll(&d, raw, 100)
		require.ErrorIs(t, err, ErrTooLarge, "%s: reading on past MaxDecompressedBytes", c)
		d.MaxDecompressedBytes = 0
		got, err := previewAll(&d, raw, 100)
		require.NoError(t, err, c.String())
		require.Len(t, got, 2, c.String())
		require.Equal(t, PreviewRecord{OffsetDelta: 1, Value: []byte("small"), KeySize: -1, ValueSize: 5}, got[1], c.String())
	}
}

// FuzzPreview: on any bytes Preview never panics, fails with a
// *BatchError exactly when Decode does, and otherwise gives Decode's
// records cut.
func FuzzPreview(f *testing.F) {
	for _, s := range fuzzSeeds(f)["FuzzReadBatch"] {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, limit uint8) {
		for _, in := range [][]byte{data, sealBatch(data)} {
			d := Decoder{MaxDecompressedBytes: fuzzLimit}
			var b RecordBatch
			_, decodeErr := d.Decode(in, &b)
			p := Decoder{MaxDecompressedBytes: fuzzLimit}
			got, err := previewAll(&p, in, int(limit))
			if (err == nil) != (decodeErr == nil) {
				t.Fatalf("Preview: %v; Decode: %v", err, decodeErr)
			}
			if err != nil {
				var be *BatchError
				if !errors.As(err, &be) {
					t.Fatalf("Preview failed with %T %v", err, err)
				}
				continue
			}
			var want []PreviewRecord
			for i := range b.Records {
				want = append(want, previewOf(&b.Records[i], int(limit)))
			}
			if diff := cmp.Diff(want, got, cmp.Comparer(bytes.Equal)); diff != "" {
				t.Fatalf("Preview (-want +got):\n%s", diff)
			}
		}
	})
}

// BenchmarkHugeValue reads a gzip batch of one 60 MiB value (60 KB
// stored) as a page shows it, Preview of its first 100 bytes stopped
// after its one record, beside Preview read to the end (decompressing
// the value and dropping it) and Decode, which decompresses it whole;
// SetBytes is the batch's stored size.
func BenchmarkHugeValue(b *testing.B) {
	var rb RecordBatch
	rb.Magic, rb.Attributes = MagicV2, Attributes(0).WithCompression(CompressionGzip)
	rb.AppendRecord(0, 0, []byte("k"), make([]byte, 60<<20))
	raw := rb.AppendTo(nil)
	for _, c := range []struct {
		name string
		more bool
	}{{"preview", false}, {"preview-to-the-end", true}} {
		b.Run(c.name, func(b *testing.B) {
			var d Decoder
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				if _, err := d.Preview(raw, 100, func(int, *PreviewRecord) bool { return c.more }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("decode", func(b *testing.B) {
		var d Decoder
		var out RecordBatch
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := d.Decode(raw, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
}
