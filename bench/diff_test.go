package bench

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/kafkalog"
)

func crcOf(batch []byte) uint32 { return crc32.Checksum(batch[21:], castagnoli) }

// firstDiff describes where a and b first differ outside the CRC field (a
// difference anywhere after it changes the CRC too), with a hexdump of both
// around it.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && (a[i] == b[i] || (i >= 17 && i < 21)) {
		i++
	}
	lo := max(0, i-16) &^ 15
	hiA, hiB := min(len(a), lo+48), min(len(b), lo+48)
	return fmt.Sprintf("first difference at byte %d (len %d vs %d)\nkafkalog from %d:\n%skmsg from %d:\n%s",
		i, len(a), len(b), lo, hex.Dump(a[lo:hiA]), lo, hex.Dump(b[lo:hiB]))
}

// TestDifferentialUncompressed: for any uncompressed batch, kafkalog and kmsg
// (driven as kgo drives it) write the same bytes, and each decodes the other's
// bytes back to the batch.
func TestDifferentialUncompressed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := drawBatch(t)
		ours := b.AppendTo(nil)
		kh, krecs := KmsgFromBatch(b)
		theirs := KmsgAppendBatch(nil, kh, krecs)
		if !bytes.Equal(ours, theirs) {
			t.Fatalf("kafkalog's encoding of a %d-record batch differs from kmsg's: %s", len(b.Records), firstDiff(ours, theirs))
		}
		want := wantFlat(b, ours)

		var dec kafkalog.Decoder
		var got kafkalog.RecordBatch
		n, err := dec.Decode(theirs, &got)
		if err != nil || n != len(theirs) {
			t.Fatalf("kafkalog rejected kmsg's %d-byte batch (read %d): %v", len(theirs), n, err)
		}
		if diff := diffFlat(want, flatFromKafkalog(&got)); diff != "" {
			t.Fatalf("kafkalog decoded kmsg's batch wrongly (-want +got):\n%s", diff)
		}

		var kd KmsgDecoder
		if err := kd.Decode(ours); err != nil {
			t.Fatalf("kmsg rejected kafkalog's %d-byte batch: %v", len(ours), err)
		}
		if diff := diffFlat(want, flatFromKmsg(&kd.Batch, kd.Records)); diff != "" {
			t.Fatalf("kmsg decoded kafkalog's batch to something else (-want +got):\n%s", diff)
		}
	})
}

// TestDifferentialFlippedBit: a batch with one bit flipped anywhere in the
// CRC-covered bytes is rejected by kafkalog, by kmsg's adapter and by the floor.
func TestDifferentialFlippedBit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := drawBatch(t)
		enc := b.AppendTo(nil)
		bit := rapid.IntRange(21*8, len(enc)*8-1).Draw(t, "bit to flip (CRC-covered)")
		enc[bit/8] ^= 1 << (bit % 8)
		var got kafkalog.RecordBatch
		var dec kafkalog.Decoder
		if _, err := dec.Decode(enc, &got); err == nil {
			t.Fatalf("kafkalog accepted a batch with bit %d flipped", bit)
		}
		var kd KmsgDecoder
		if err := kd.Decode(enc); err == nil {
			t.Fatalf("kmsg's adapter accepted a batch with bit %d flipped", bit)
		}
		if CheckCRC(enc) == nil {
			t.Fatalf("limit-crc accepted a batch with bit %d flipped", bit)
		}
	})
}
