package cluster

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/replica"
)

// The chunked mirror answers every question as one flat slice of the same
// entries would: random batches (with offset gaps, as the cleaner leaves),
// cuts and resets, then positions, offsets, slices and walks.
func TestMirrorIsASlice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var m mirror
		var flat []replica.Entry
		var places []place
		next := int64(rapid.Int64Range(0, 1000).Draw(t, "start"))
		check := func() {
			if m.len() != len(flat) {
				t.Fatalf("len %d, want %d", m.len(), len(flat))
			}
			var got []int64
			for i, e := range m.from(0) {
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
			default:
				n := rapid.IntRange(1, 6).Draw(t, "records")
				next += int64(rapid.IntRange(0, 3).Draw(t, "gap"))
				es := make([]replica.Entry, n)
				at := place{segment: next / 10, end: next}
				for i := range es {
					es[i] = replica.Entry{Offset: next, LeaderEpoch: int32(len(flat))}
					next++
				}
				m.add(es, at)
				flat = append(flat, es...)
				for range es {
					places = append(places, at)
				}
			}
			check()
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
				if got := m.at(want).Offset; got != flat[want].Offset {
					t.Fatalf("at(%d).Offset = %d, want %d", want, got, flat[want].Offset)
				}
				if got := m.placeOf(want); got != places[want] {
					t.Fatalf("placeOf(%d) = %v, want %v", want, got, places[want])
				}
			}
			i := rapid.IntRange(0, len(flat)).Draw(t, "i")
			j := rapid.IntRange(i, len(flat)+2).Draw(t, "j")
			got := m.slice(i, j)
			if d := cmp.Diff(flat[i:min(j, len(flat))], got, cmp.Comparer(func(a, b replica.Entry) bool { return a.Offset == b.Offset })); d != "" && (len(got) > 0 || i < min(j, len(flat))) {
				t.Fatalf("slice(%d, %d) (-want +got):\n%s", i, j, d)
			}
			cu, k := m.cursorAt(i), i
			for ; cu.entry() != nil; cu.next() {
				if cu.entry().Offset != flat[k].Offset {
					t.Fatalf("cursor from %d at %d: offset %d, want %d", i, k, cu.entry().Offset, flat[k].Offset)
				}
				k++
			}
			if k != len(flat) {
				t.Fatalf("cursor from %d stopped at %d of %d", i, k, len(flat))
			}
			k = len(flat)
			for p, e := range m.backward() {
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
