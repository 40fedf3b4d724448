package vfs

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"
)

// TestPagesAreBytes: a file's pages answer every read as a flat slice of
// the same bytes would, through writes, cuts and growths across page
// boundaries, and every version shared from another (a Clone, a Sync's
// durable copy) keeps its bytes whatever the others write.
func TestPagesAreBytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		versions := []pages{{}}
		models := [][]byte{nil}
		for range rapid.IntRange(1, 40).Draw(t, "ops") {
			v := rapid.IntRange(0, len(versions)-1).Draw(t, "version")
			b, model := &versions[v], models[v]
			switch rapid.IntRange(0, 5).Draw(t, "op") {
			case 0, 1, 2:
				off := int64(rapid.IntRange(0, 3*pageSize).Draw(t, "write at"))
				p := make([]byte, rapid.IntRange(0, 2*pageSize).Draw(t, "write length"))
				for i := range p {
					p[i] = byte(rapid.IntRange(1, 255).Draw(t, "fill")) // never zero: a lost write shows
					if i > 0 {
						p[i] = p[0] + byte(i)
					}
				}
				b.writeAt(p, off)
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
				b = &versions[v] // append may have moved it
			case 5:
				versions[v] = fromBytes(append([]byte(nil), model...))
			}
			models[v] = model
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
	b.writeAt(data, 0)
	return b
}
