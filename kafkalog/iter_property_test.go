package kafkalog

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// drawLegacy draws a magic 0 or 1 message, possibly a compressed wrapper of a
// few inner messages, and returns it with the inner messages a reader should
// see (absolute offsets, LogAppendTime applied).
func drawLegacy(t *rapid.T) (LegacyMessage, []LegacyMessage) {
	magic := int8(rapid.IntRange(0, 1).Draw(t, "magic"))
	ts := int64(NoTimestamp)
	if magic == MagicV1 {
		ts = rapid.Int64().Draw(t, "timestamp")
	}
	m := LegacyMessage{Offset: rapid.Int64Range(0, 1<<40).Draw(t, "offset"), Magic: magic, Timestamp: ts,
		Key: drawBytes(t, "key", true), Value: drawBytes(t, "value", true)}
	if !rapid.Bool().Draw(t, "compressed") {
		return m, []LegacyMessage{m}
	}
	codec := Compression(rapid.IntRange(1, 3).Draw(t, "codec"))
	logAppend := magic == MagicV1 && rapid.Bool().Draw(t, "logAppendTime")
	n := rapid.IntRange(1, 4).Draw(t, "inner")
	var raw []byte
	var want []LegacyMessage
	for i := range n {
		in := LegacyMessage{Offset: int64(i), Magic: magic, Timestamp: NoTimestamp, Key: drawBytes(t, "innerKey", true), Value: drawBytes(t, "innerValue", true)}
		if magic == MagicV1 {
			in.Timestamp = rapid.Int64().Draw(t, "innerTimestamp")
		} else {
			in.Offset = m.Offset - int64(n-1-i) // magic 0 inner offsets are absolute
		}
		raw = in.AppendTo(raw)
		seen := in
		seen.Offset = m.Offset - int64(n-1-i)
		if logAppend {
			seen.Timestamp, seen.Attributes = ts, legacyTimestampTypeMask
		}
		want = append(want, seen)
	}
	value, err := Compress(nil, codec, raw)
	if err != nil {
		t.Fatalf("compress %v: %v", codec, err)
	}
	m.Key, m.Value, m.Attributes = nil, value, int8(codec)
	if logAppend {
		m.Attributes |= legacyTimestampTypeMask
	}
	return m, want
}

// TestMixedLogProperty: a log of random v0, v1 (plain or wrapped) and v2
// entries iterates back entry by entry, every entry decodes to what was
// written, and a cut anywhere is reported as a torn tail at the right entry.
func TestMixedLogProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var log []byte
		var starts []int
		var batches []RecordBatch
		var legacy [][]LegacyMessage
		for range rapid.IntRange(1, 6).Draw(t, "entries") {
			starts = append(starts, len(log))
			if rapid.Bool().Draw(t, "v2") {
				b := drawBatch(t)
				log = b.AppendTo(log)
				batches, legacy = append(batches, b), append(legacy, nil)
				continue
			}
			m, inner := drawLegacy(t)
			log = m.AppendTo(log)
			batches, legacy = append(batches, RecordBatch{}), append(legacy, inner)
		}
		it := NewBatchIter(log, 0)
		var d Decoder
		for i := 0; it.Next(); i++ {
			e := it.Entry()
			if e.Pos != int64(starts[i]) {
				t.Fatalf("entry %d at %d, written at %d", i, e.Pos, starts[i])
			}
			if err := e.Check(); err != nil {
				t.Fatalf("entry %d (magic %d) fails its checksum: %v", i, e.Magic, err)
			}
			if legacy[i] == nil {
				var got RecordBatch
				if _, err := d.Decode(e.Bytes, &got); err != nil {
					t.Fatalf("batch %d does not decode: %v", i, err)
				}
				if len(got.Records) != len(batches[i].Records) || !bytes.Equal(e.Bytes, batches[i].AppendTo(nil)) {
					t.Fatalf("batch %d differs from the one written", i)
				}
				continue
			}
			inner, err := DecompressLegacy(&e.Legacy, nil, 0)
			if err != nil {
				t.Fatalf("legacy entry %d does not unwrap: %v", i, err)
			}
			for j := range inner {
				inner[j].MessageSize, inner[j].CRC = legacy[i][j].MessageSize, legacy[i][j].CRC
			}
			if diff := cmp.Diff(legacy[i], inner); diff != "" {
				t.Fatalf("legacy entry %d reads differently (-written +read):\n%s", i, diff)
			}
		}
		if it.Err() != nil {
			t.Fatalf("iteration failed: %v", it.Err())
		}
		cut := rapid.IntRange(0, len(log)).Draw(t, "cut")
		it = NewBatchIter(log[:cut], 0)
		n := 0
		for it.Next() {
			n++
		}
		torn, pos, size := it.TornTail()
		// The entries that survive are those ending by the cut; the torn tail,
		// if any, starts where the last of them ends.
		bounds := append(append([]int(nil), starts...), len(log))
		wantN, wantPos := 0, 0
		for i, s := range bounds {
			if s <= cut {
				wantN, wantPos = i, s
			}
		}
		wantTorn := wantPos < cut
		if it.Err() != nil || n != wantN || torn != wantTorn || (torn && (int(pos) != wantPos || size != cut-wantPos)) {
			t.Fatalf("cut at %d of %d: %d entries, torn=%v at %d (%d bytes), err %v; want %d entries, torn=%v at %d; entry starts %v",
				cut, len(log), n, torn, pos, size, it.Err(), wantN, wantTorn, wantPos, starts)
		}
	})
}
