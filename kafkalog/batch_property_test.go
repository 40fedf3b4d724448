package kafkalog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// drawBytes draws nil (a null key or value) or a slice, never an empty slice
// that is nil, so that null and empty stay distinct through a round trip.
func drawBytes(t *rapid.T, label string, nullable bool) []byte {
	if nullable && rapid.Bool().Draw(t, label+" is null") {
		return nil
	}
	b := rapid.SliceOfN(rapid.Byte(), 0, 40).Draw(t, label)
	if b == nil {
		b = []byte{}
	}
	return b
}

// drawBatch draws a batch with any header fields, a valid codec, and records
// with random keys, values, nulls, headers and deltas.
func drawBatch(t *rapid.T) RecordBatch {
	codec := Compression(rapid.IntRange(0, 4).Draw(t, "codec"))
	attrs := Attributes(rapid.Int16().Draw(t, "attributes")).WithCompression(codec)
	b := RecordBatch{BatchHeader: BatchHeader{
		BaseOffset:           rapid.Int64().Draw(t, "baseOffset"),
		PartitionLeaderEpoch: rapid.Int32().Draw(t, "partitionLeaderEpoch"),
		Magic:                MagicV2,
		Attributes:           attrs,
		LastOffsetDelta:      rapid.Int32().Draw(t, "lastOffsetDelta"),
		BaseTimestamp:        rapid.Int64().Draw(t, "baseTimestamp"),
		MaxTimestamp:         rapid.Int64().Draw(t, "maxTimestamp"),
		ProducerID:           rapid.Int64().Draw(t, "producerId"),
		ProducerEpoch:        rapid.Int16().Draw(t, "producerEpoch"),
		BaseSequence:         rapid.Int32().Draw(t, "baseSequence"),
	}}
	n := rapid.IntRange(0, 12).Draw(t, "records")
	for range n {
		r := Record{
			TimestampDelta: rapid.Int64().Draw(t, "timestampDelta"),
			OffsetDelta:    rapid.Int32().Draw(t, "offsetDelta"),
			Key:            drawBytes(t, "key", true),
			Value:          drawBytes(t, "value", true),
		}
		for range rapid.IntRange(0, 3).Draw(t, "headers") {
			r.Headers = append(r.Headers, Header{Key: drawBytes(t, "headerKey", false), Value: drawBytes(t, "headerValue", true)})
		}
		b.Records = append(b.Records, r)
	}
	b.NumRecords = int32(n)
	return b
}

func TestBatchRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := drawBatch(t)
		prefix := drawBytes(t, "dst", false)
		enc := b.AppendTo(append([]byte(nil), prefix...))
		if !cmp.Equal(prefix, enc[:len(prefix)]) {
			t.Fatalf("AppendTo changed the %d bytes already in dst", len(prefix))
		}
		enc = enc[len(prefix):]
		if b.Attributes.Compression() == CompressionNone && len(enc) != b.EncodedLen() {
			t.Fatalf("an uncompressed batch of %d records took %d bytes, EncodedLen says %d", len(b.Records), len(enc), b.EncodedLen())
		}
		var d Decoder
		var got RecordBatch
		n, err := d.Decode(enc, &got)
		if err != nil {
			t.Fatalf("a %s batch of %d records does not decode: %v", b.Attributes.Compression(), len(b.Records), err)
		}
		want := b
		want.BatchLength, want.CRC = int32(len(enc)-LogOverhead), CRC32C(enc[posAttributes:])
		if len(want.Records) == 0 {
			want.Records = nil
		}
		if n != len(enc) {
			t.Fatalf("decoding took %d of the %d bytes of the batch", n, len(enc))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("decode(encode(batch)) differs from the batch (-want +got):\n%s", diff)
		}
	})
}

func TestFlippedByteIsCorruptProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := drawBatch(t)
		enc := b.AppendTo(nil)
		pos := rapid.IntRange(posAttributes, len(enc)-1).Draw(t, "position")
		flip := rapid.ByteRange(1, 255).Draw(t, "xor")
		enc[pos] ^= flip
		_, _, err := ReadBatch(enc)
		if !errors.Is(err, ErrCorruptBatch) {
			t.Fatalf("byte %d of a %d-byte batch xored with %#x: got %v, want ErrCorruptBatch (CRC mismatch)", pos, len(enc), flip, err)
		}
		if _, _, err := CheckBatch(enc); !errors.Is(err, ErrCorruptBatch) {
			t.Fatalf("CheckBatch missed a flipped byte %d: %v", pos, err)
		}
	})
}

func TestTruncatedBatchProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := drawBatch(t)
		enc := b.AppendTo(nil)
		cut := rapid.IntRange(0, len(enc)-1).Draw(t, "cut")
		_, n, err := ReadBatch(enc[:cut:cut])
		if !IsTornTail(err) || n != 0 {
			t.Fatalf("a %d-byte batch cut to %d bytes: got n=%d, %v; want a torn tail (ErrTruncated)", len(enc), cut, n, err)
		}
		_, _, err = CheckBatch(enc[:cut:cut])
		if !IsTornTail(err) {
			t.Fatalf("CheckBatch of a %d-byte batch cut to %d bytes: %v, want ErrTruncated", len(enc), cut, err)
		}
	})
}

// Scan reads every batch as Decode does: the same error for the same
// bytes, and record by record the same records, for intact batches and for
// batches whose records were damaged under a CRC that still holds (so that
// the records themselves say what is wrong).
func TestScanIsDecodeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := drawBatch(t)
		enc := b.AppendTo(nil)
		switch rapid.IntRange(0, 2).Draw(t, "damage") {
		case 1: // a byte of the records
			if len(enc) > BatchHeaderLen {
				pos := rapid.IntRange(BatchHeaderLen, len(enc)-1).Draw(t, "position")
				enc[pos] ^= rapid.ByteRange(1, 255).Draw(t, "xor")
			}
		case 2: // the record count, so that records are missing or left over
			count := int32(binary.BigEndian.Uint32(enc[posRecordsCount:]))
			binary.BigEndian.PutUint32(enc[posRecordsCount:], uint32(count+int32(rapid.SampledFrom([]int{-1, 1}).Draw(t, "count by"))))
		}
		binary.BigEndian.PutUint32(enc[posCRC:], CRC32C(enc[posAttributes:]))
		var dec, scan Decoder
		var want RecordBatch
		n1, err1 := dec.Decode(enc, &want)
		var got []Record
		h, n2, err2 := scan.Scan(enc, func(i int, r *Record) {
			if i != len(got) {
				t.Fatalf("record %d visited after %d", i, len(got))
			}
			c := *r
			c.Key, c.Value = bytes.Clone(r.Key), bytes.Clone(r.Value)
			c.Headers = nil
			for _, hd := range r.Headers {
				c.Headers = append(c.Headers, Header{Key: hd.Key, Value: bytes.Clone(hd.Value)})
			}
			got = append(got, c)
		})
		if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
			t.Fatalf("Decode: %v; Scan: %v", err1, err2)
		}
		if err1 != nil {
			return
		}
		if n1 != n2 || h != want.BatchHeader {
			t.Fatalf("Decode took %d bytes, header %+v; Scan %d, %+v", n1, want.BatchHeader, n2, h)
		}
		for i := range want.Records {
			if len(want.Records[i].Headers) == 0 {
				want.Records[i].Headers = nil // as the copies keep none
			}
		}
		if d := cmp.Diff(want.Records, got); d != "" {
			t.Fatalf("records (-Decode +Scan):\n%s", d)
		}
	})
}
