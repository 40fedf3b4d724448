package vfs

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"
)

// TestPagesAreBytes: a file's pages answer every read as a flat slice of
// the same bytes would, through writes, cuts and growths across page
// boundaries, and every version shared from another (a Clone, a Sync's
// durable copy) keeps its bytes whatever the others write. A write that
// keeps its bytes (keep) reads back as one that copies them, and no
// version ever writes into bytes it kept.
func TestPagesAreBytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		versions := []pages{{}}
		models := [][]byte{nil}
		var kept, keptWas [][]byte // the bytes kept writes handed over, and what they held
		var keptAt []int64
		for range rapid.IntRange(1, 40).Draw(t, "ops") {
			v := rapid.IntRange(0, len(versions)-1).Draw(t, "version")
			b, model := &versions[v], models[v]
			switch rapid.IntRange(0, 5).Draw(t, "op") {
			case 0, 1, 2:
				off := int64(rapid.IntRange(0, 3*pageSize).Draw(t, "write at"))
				switch rapid.IntRange(0, 2).Draw(t, "where") {
				case 0:
					off -= off % pageSize // at a page
				case 1:
					off = b.len() // after the last byte, as a log appends
				}
				p := make([]byte, rapid.IntRange(0, 2*pageSize).Draw(t, "write length"))
				for i := range p {
					p[i] = byte(rapid.IntRange(1, 255).Draw(t, "fill")) // never zero: a lost write shows
					if i > 0 {
						p[i] = p[0] + byte(i)
					}
				}
				keep := rapid.Bool().Draw(t, "keep")
				b.writeAt(p, off, keep)
				if keep {
					kept, keptWas = append(kept, p), append(keptWas, append([]byte(nil), p...))
					keptAt = append(keptAt, off)
				}
				if end := off + int64(len(p)); end > int64(len(model)) {
					model = append(model, make([]byte, end-int64(len(model)))...)
				}
				copy(model[off:], p)
			case 3:
				size := int64(rapid.IntRange(0, 4*pageSize).Draw(t, "resize to"))
				b.resize(size)
				if size <= int64(len(model)) {
					model = model[:size:size]
				} else {
					model = append(model, make([]byte, size-int64(len(model)))...)
				}
			case 4:
				versions = append(versions, b.share())
				models = append(models, append([]byte(nil), model...))
			case 5:
				versions[v] = fromBytes(append([]byte(nil), model...))
			}
			models[v] = model
			for k := range kept {
				if !bytes.Equal(kept[k], keptWas[k]) {
					t.Fatalf("kept write %d changed: first difference at %d", k, firstDiff(kept[k], keptWas[k]))
				}
			}
			for k := range versions {
				got := versions[k].bytes(0, versions[k].len())
				if versions[k].len() != int64(len(models[k])) || !bytes.Equal(got, models[k]) {
					t.Fatalf("version %d: %d bytes, want %d; first difference at %d", k, versions[k].len(), len(models[k]), firstDiff(got, models[k]))
				}
				off := int64(rapid.IntRange(0, len(models[k])+10).Draw(t, "read at"))
				dst := make([]byte, rapid.IntRange(0, pageSize+10).Draw(t, "read length"))
				n := versions[k].readAt(dst, off)
				want := 0
				if off < int64(len(models[k])) {
					want = copy(make([]byte, len(dst)), models[k][off:])
				}
				if n != want || n > 0 && !bytes.Equal(dst[:n], models[k][off:off+int64(n)]) {
					t.Fatalf("version %d: readAt(%d bytes, %d) = %d, want %d", k, len(dst), off, n, want)
				}
				// holds: any range of the model, as a copy; the same with a
				// byte changed; and every kept write's bytes where they went
				lo := rapid.IntRange(0, len(models[k])).Draw(t, "holds from")
				hi := rapid.IntRange(lo, len(models[k])).Draw(t, "holds to")
				same := append([]byte(nil), models[k][lo:hi]...)
				if !versions[k].holds(same, int64(lo)) {
					t.Fatalf("version %d: does not hold its own bytes [%d, %d)", k, lo, hi)
				}
				if hi > lo {
					same[rapid.IntRange(0, hi-lo-1).Draw(t, "change")]++
					if versions[k].holds(same, int64(lo)) {
						t.Fatalf("version %d: holds [%d, %d) with a byte changed", k, lo, hi)
					}
				}
				for j, p := range kept {
					end := keptAt[j] + int64(len(p))
					want := end <= int64(len(models[k])) && bytes.Equal(models[k][keptAt[j]:end], p)
					if got := versions[k].holds(p, keptAt[j]); got != want {
						t.Fatalf("version %d: holds kept write %d at %d = %v, want %v", k, j, keptAt[j], got, want)
					}
				}
			}
		}
	})
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// fromBytes is a file of the bytes data.
func fromBytes(data []byte) pages {
	var b pages
	b.writeAt(data, 0, false)
	return b
}
