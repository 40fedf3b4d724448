package replicalog

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// mirrorTestBatch is a batch of n records at offsets from base, leader
// epoch epoch, drawn: compressed or not, an idempotent producer's or not,
// keys and values of drawn sizes.
func mirrorTestBatch(t *rapid.T, base int64, n int, epoch int32) []byte {
	var b kafkalog.RecordBatch
	b.BaseOffset, b.PartitionLeaderEpoch = base, epoch
	b.Attributes = b.Attributes.WithCompression(kafkalog.Compression(rapid.IntRange(0, 4).Draw(t, "codec")))
	b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, -1
	if rapid.Bool().Draw(t, "idempotent") {
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = 7, 1, int32(rapid.IntRange(0, 100).Draw(t, "base sequence"))
	}
	for i := range n {
		var key []byte
		if rapid.Bool().Draw(t, "keyed") {
			key = []byte{byte(i), 'k'}
		}
		b.AppendRecord(base+int64(i), 0, key, make([]byte, rapid.IntRange(0, 90).Draw(t, "value size")))
	}
	return b.AppendTo(nil)
}

// memFiles holds the batches a mirror without segment files reads back,
// by where each ends.
type memFiles map[place][]byte

func (f memFiles) batchBytes(at place, size int, kept []byte) ([]byte, error) {
	raw, ok := f[at]
	if !ok || len(raw) != size {
		return nil, fmt.Errorf("no batch of %d bytes ends at %+v", size, at)
	}
	if kept != nil && bytes.Equal(kept, raw) {
		return kept, nil
	}
	return raw, nil
}

// flatReadEnd is mirror.readEnd over a flat slice, entry by entry, as
// replicaLog.Read measured reads before lazy chunks.
func flatReadEnd(flat []replica.Entry, i, maxBytes, end int) (int, int) {
	if end < 0 || end > len(flat) {
		end = len(flat)
	}
	size, j := 0, i
	for k := i; k < end; k++ {
		size += entrySize(&flat[k])
		if k > i && size > maxBytes && flat[k].Batch != nil {
			return j, size - entrySize(&flat[k])
		}
		j = k + 1
	}
	return j, size
}

// The chunked mirror answers every question as one flat slice of the same
// entries would: random batches (with offset gaps, as the cleaner leaves),
// cuts and resets, then positions, offsets, slices and walks.
func TestMirrorIsASlice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		files := memFiles{}
		m := Mirror{cache: decodedCache{budget: rapid.IntRange(1, 3000).Draw(t, "cache budget")}, files: files}
		var flat []replica.Entry
		var places []place
		next := int64(rapid.Int64Range(0, 1000).Draw(t, "start"))
		check := func() {
			if m.Len() != len(flat) {
				t.Fatalf("len %d, want %d", m.Len(), len(flat))
			}
			var got []int64
			for i, e := range m.From(0) {
				if i != len(got) {
					t.Fatalf("from(0) yields position %d after %d entries", i, len(got))
				}
				got = append(got, e.Offset)
			}
			var want []int64
			for _, e := range flat {
				want = append(want, e.Offset)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("offsets (-want +got):\n%s", d)
			}
		}
		for range rapid.IntRange(1, 40).Draw(t, "actions") {
			switch rapid.IntRange(0, 9).Draw(t, "action") {
			case 0:
				k := rapid.IntRange(0, len(flat)).Draw(t, "cut")
				m.truncate(k)
				flat, places = flat[:k], places[:k]
				if k > 0 {
					next = flat[k-1].Offset + 1
				}
			case 1:
				m.reset()
				flat, places = nil, nil
			case 2, 3, 4, 5:
				// a lazy chunk: a batch's records from skip on
				n := rapid.IntRange(1, 6).Draw(t, "records")
				next += int64(rapid.IntRange(0, 3).Draw(t, "gap"))
				raw := mirrorTestBatch(t, next, n, int32(len(flat)))
				at := place{segment: next / 10, end: next}
				var dec kafkalog.Decoder
				var rb kafkalog.RecordBatch
				if _, err := dec.Decode(raw, &rb); err != nil {
					t.Fatalf("decode: %v", err)
				}
				skip := rapid.IntRange(0, n-1).Draw(t, "skip")
				es := BatchEntries(&rb, raw, skip, n-skip)
				size, head := recordSizes(&rb, skip)
				var cached []replica.Entry
				if rapid.Bool().Draw(t, "decoded") {
					cached = BatchEntries(&rb, raw, skip, n-skip)
				}
				files[at] = raw
				m.addLazy(StoredBatch(raw, rb.BatchHeader, rapid.Bool().Draw(t, "kept")), rb.PartitionLeaderEpoch, skip, n-skip, cached, size, head, at)
				flat = append(flat, es...)
				for range es {
					places = append(places, at)
				}
				next += int64(n)
			default:
				n := rapid.IntRange(1, 6).Draw(t, "records")
				next += int64(rapid.IntRange(0, 3).Draw(t, "gap"))
				es := make([]replica.Entry, n)
				at := place{segment: next / 10, end: next}
				for i := range es {
					es[i] = replica.Entry{Offset: next, LeaderEpoch: int32(len(flat)), Value: []byte{byte(next)}}
					if i == 0 {
						es[i].Batch = []byte{1}
					}
					next++
				}
				m.add(es, at)
				flat = append(flat, es...)
				for range es {
					places = append(places, at)
				}
			}
			check()
			checkCache(t, &m)
		}
		for p, e := range m.From(0) {
			if d := cmp.Diff(flat[p], *e); d != "" {
				t.Fatalf("entry at %d (-want +got):\n%s", p, d)
			}
		}
		for range 20 {
			off := rapid.Int64Range(-2, next+2).Draw(t, "offset")
			want := len(flat)
			for i, e := range flat {
				if e.Offset >= off {
					want = i
					break
				}
			}
			if got := m.index(off); got != want {
				t.Fatalf("index(%d) = %d, want %d", off, got, want)
			}
			if want < len(flat) {
				if got := m.At(want).Offset; got != flat[want].Offset {
					t.Fatalf("at(%d).Offset = %d, want %d", want, got, flat[want].Offset)
				}
				if got := m.placeOf(want); got != places[want] {
					t.Fatalf("placeOf(%d) = %v, want %v", want, got, places[want])
				}
			}
			i := rapid.IntRange(0, len(flat)).Draw(t, "i")
			j := rapid.IntRange(i, len(flat)+2).Draw(t, "j")
			got := m.Slice(i, j)
			if d := cmp.Diff(flat[i:min(j, len(flat))], got, cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("slice(%d, %d) (-want +got):\n%s", i, j, d)
			}
			maxBytes := rapid.IntRange(0, 600).Draw(t, "max bytes")
			end := rapid.IntRange(-1, len(flat)+1).Draw(t, "read end")
			wantJ, wantSize := flatReadEnd(flat, i, maxBytes, end)
			if gotJ, gotSize := m.readEnd(i, maxBytes, end); gotJ != wantJ || gotSize != wantSize {
				t.Fatalf("readEnd(%d, %d, %d) = %d, %d; want %d, %d", i, maxBytes, end, gotJ, gotSize, wantJ, wantSize)
			}
			var offs []int64
			for c := range m.chunks.Len() {
				for off := range m.offsets(c) {
					offs = append(offs, off)
				}
			}
			for k, e := range flat {
				if k >= len(offs) || offs[k] != e.Offset {
					t.Fatalf("offsets: %v, want the entries' offsets", offs)
				}
			}
			for span, p := range m.places(i) {
				for k := span[0]; k < span[1]; k++ {
					if places[k] != p {
						t.Fatalf("places(%d): position %d at %v, want %v", i, k, p, places[k])
					}
				}
			}
			cu, k := m.CursorAt(i), i
			for ; cu.Entry() != nil; cu.Next() {
				if cu.Entry().Offset != flat[k].Offset {
					t.Fatalf("cursor from %d at %d: offset %d, want %d", i, k, cu.Entry().Offset, flat[k].Offset)
				}
				k++
			}
			if k != len(flat) {
				t.Fatalf("cursor from %d stopped at %d of %d", i, k, len(flat))
			}
			k = len(flat)
			for p, e := range m.Backward() {
				k--
				if p != k || e.Offset != flat[k].Offset {
					t.Fatalf("backward at %d: position %d offset %d, want %d", k, p, e.Offset, flat[k].Offset)
				}
			}
			if k != 0 {
				t.Fatalf("backward stopped at %d", k)
			}
		}
	})
}

// checkCache fails unless m's cache of decoded chunks keeps at most its
// budget of bytes, counts them right, and keeps only chunks the mirror
// holds as they were made.
func checkCache(t *rapid.T, m *Mirror) {
	dc := &m.cache
	if dc.bytes > dc.limit() {
		t.Fatalf("%d bytes of decoded entries cached, budget %d", dc.bytes, dc.limit())
	}
	n := 0
	for _, c := range dc.order[dc.head:] {
		n += c.size
		if !m.holds(c.first, c.batch) {
			t.Fatalf("the cache keeps a chunk at %d the mirror no longer holds as made", c.first)
		}
		if got := entriesSize(dc.entries[c.batch]); got != c.size {
			t.Fatalf("a cached chunk at %d counted %d bytes, its entries are %d", c.first, c.size, got)
		}
	}
	if n != dc.bytes || len(dc.entries) != dc.len() {
		t.Fatalf("the cache counts %d bytes in %d chunks; its order lists %d bytes, its map %d chunks", dc.bytes, dc.len(), n, len(dc.entries))
	}
}
