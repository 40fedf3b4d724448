package vfs

import (
	"bytes"
	"maps"
	"slices"
)

// pageSize is the size of a file's pages in a MemFS: the unit in which its
// bytes are allocated, shared and copied on write.
const pageSize = 16 << 10

// pages is one version of a file's bytes (its page cache, or what the disk
// holds): a table of pages that versions share by pointer. Sharing one
// (share: a Clone, the durable copy after a Sync) freezes the table, and a
// frozen table never changes again: a version that writes first copies the
// table (thaw, a slice of page pointers, not the bytes) and then each page
// it writes. So a Clone costs nothing per byte, nor per page, and a file
// that is never written again (a sealed segment) is never copied at all.
//
// The zero pages is an empty file.
type pages struct{ t *pageTable }

// pageTable is a file version's bytes as fixed-size pages: page i holds
// bytes [i*pageSize, (i+1)*pageSize). A page may be shared with another
// table (a thawed copy of a frozen one, a write that kept the caller's
// buffer): a page not owned is copied before it is written, so that a file
// that grows never copies what it holds. A nil page is all zeros (a file
// grown by Truncate allocates nothing for its hole, as a sparse file). The
// last page may be shorter than pageSize; every byte of a page at or beyond
// size is zero.
//
// A page may come in two parts: p[i] then tail[i], both kept from writes
// that handed their bytes over (writeAt with keep). A kept write that
// starts inside a page, right after its last byte, so becomes the page's
// tail rather than a copy of the page's bytes and its own: a file of
// batches kept one after another holds no byte twice, where a page
// boundary falls inside a batch as much as between two. A page in two
// parts is joined into one owned page before it is written.
//
// A table that is not frozen belongs to one version alone, and only its
// owned pages are written in place; a frozen one is read by any number of
// versions and written by none.
type pageTable struct {
	p      [][]byte
	owned  []bool
	tail   map[int64][]byte
	size   int64
	frozen bool
}

// len is the file size.
func (b *pages) len() int64 {
	if b.t == nil {
		return 0
	}
	return b.t.size
}

// readAt copies the bytes from off into dst, as many as there are; it
// returns how many.
func (b *pages) readAt(dst []byte, off int64) int {
	if b.t == nil {
		return 0
	}
	return b.t.readAt(dst, off)
}

// holds reports whether the bytes [off, off+len(p)) are p's ([pageTable.holds]).
func (b *pages) holds(p []byte, off int64) bool {
	if b.t == nil {
		return off == 0 && len(p) == 0
	}
	return b.t.holds(p, off)
}

// bytes returns the bytes [lo, hi) (within size) as one new slice.
func (b *pages) bytes(lo, hi int64) []byte {
	out := make([]byte, hi-lo)
	b.readAt(out, lo)
	return out
}

// writeAt writes p at off ([pageTable.writeAt]), in a table of b's own.
func (b *pages) writeAt(p []byte, off int64, keep bool) { b.writable().writeAt(p, off, keep) }

// resize sets the size ([pageTable.resize]), in a table of b's own.
func (b *pages) resize(size int64) {
	if size == b.len() {
		return
	}
	b.writable().resize(size)
}

// writable returns b's table, after making it b's own: a new one if b has
// none, a thawed copy if b's is frozen.
func (b *pages) writable() *pageTable {
	switch {
	case b.t == nil:
		b.t = &pageTable{}
	case b.t.frozen:
		b.t = b.t.thaw()
	}
	return b.t
}

// thaw returns a table of t's pages that is not frozen: its page pointers
// copied, none of its pages owned, so that each is copied before it is
// written.
func (t *pageTable) thaw() *pageTable {
	return &pageTable{p: slices.Clone(t.p), owned: make([]bool, len(t.p)), tail: maps.Clone(t.tail), size: t.size}
}

// share returns a version of b's bytes that shares b's table, which it
// freezes: neither b nor the version returned changes it afterwards (each
// thaws a copy before it writes). It costs nothing per page.
func (b *pages) share() pages {
	if b.t != nil && !b.t.frozen {
		b.t.frozen = true // the table was b's alone: no one else reads it
	}
	return pages{b.t}
}

// page returns page i's parts: p[i] and its tail (nil if none).
func (t *pageTable) page(i int64) (first, second []byte) {
	return t.p[i], t.tail[i]
}

// join makes page i one owned page if it is in two parts.
func (t *pageTable) join(i int64) {
	second, ok := t.tail[i]
	if !ok {
		return
	}
	first := t.p[i]
	pg := make([]byte, len(first)+len(second), pageCap(len(first)+len(second)))
	copy(pg[copy(pg, first):], second)
	t.p[i], t.owned[i] = pg, true
	delete(t.tail, i)
}

// readAt copies the bytes from off into dst, as many as there are; it
// returns how many.
func (t *pageTable) readAt(dst []byte, off int64) int {
	if off >= t.size {
		return 0
	}
	dst = dst[:min(int64(len(dst)), t.size-off)]
	n := 0
	for n < len(dst) {
		i, at := (off+int64(n))/pageSize, int((off+int64(n))%pageSize)
		want := min(len(dst)-n, pageSize-at)
		first, second := t.page(i)
		got := copyPart(dst[n:n+want], first, at)
		got += copyPart(dst[n+got:n+want], second, at+got-len(first))
		clear(dst[n+got : n+want])
		n += want
	}
	return n
}

// copyPart copies part's bytes from at (at may be past its end, or, for a
// tail, relative to its start) into dst, and returns how many.
func copyPart(dst, part []byte, at int) int {
	if at < 0 || at >= len(part) {
		return 0
	}
	return copy(dst, part[at:])
}

// holds reports whether the bytes [off, off+len(p)) are p's: each page
// there is either p's own memory (kept by writeAt) or holds equal bytes.
// A kept page is recognised without reading it, so that asking costs
// little for bytes kept whole.
func (t *pageTable) holds(p []byte, off int64) bool {
	if off < 0 || off > t.size-int64(len(p)) {
		return false
	}
	for n := 0; n < len(p); {
		i, at := (off+int64(n))/pageSize, int((off+int64(n))%pageSize)
		want := min(len(p)-n, pageSize-at)
		first, second := t.page(i)
		got, ok := holdsPart(p[n:n+want], first, at)
		if ok && got < want {
			var more int
			more, ok = holdsPart(p[n+got:n+want], second, at+got-len(first))
			got += more
		}
		// what the parts do not hold reads as zeros
		if !ok || slices.ContainsFunc(p[n+got:n+want], func(c byte) bool { return c != 0 }) {
			return false
		}
		n += want
	}
	return true
}

// holdsPart reports whether part, from at, holds the first bytes of p (as
// many as it has there, which it returns): its own memory, recognised
// without comparing, or equal bytes.
func holdsPart(p, part []byte, at int) (int, bool) {
	if at < 0 || at >= len(part) {
		return 0, true
	}
	k := min(len(p), len(part)-at)
	return k, &part[at] == &p[0] || bytes.Equal(part[at:at+k], p[:k])
}

// writable returns page i, owned and at least end bytes long, for writing.
func (t *pageTable) writable(i int64, end int) []byte {
	t.join(i)
	pg := t.p[i]
	switch {
	case t.owned[i] && len(pg) >= end:
		return pg
	case t.owned[i] && cap(pg) >= end:
		pg = pg[:end] // bytes past len were cleared when the page shrank
	default:
		grown := make([]byte, max(end, len(pg)), pageCap(max(end, len(pg))))
		copy(grown, pg)
		pg = grown
	}
	t.p[i], t.owned[i] = pg, true
	return pg
}

// pageCap is the capacity to allocate for a page of n bytes: doubling up to
// a whole page, so that a small file stays small and a growing one copies
// each page a few times at most.
func pageCap(n int) int {
	if n >= pageSize/2 {
		return pageSize
	}
	c := 64
	for c < n {
		c *= 2
	}
	return c
}

// writeAt writes p at off, growing the file if needed. With keep, a page
// that p covers whole (or from its start to the end of the file) becomes
// that part of p itself, shared (not owned: a later write copies it first),
// and a page p covers from right after its last byte to its end (or to the
// end of the file) takes that part of p as its tail; so p must not change
// afterwards. The pages p covers otherwise are copied into as without.
func (t *pageTable) writeAt(p []byte, off int64, keep bool) {
	if end := off + int64(len(p)); end > t.size {
		t.resize(end)
	}
	for n := 0; n < len(p); {
		i, at := (off+int64(n))/pageSize, int((off+int64(n))%pageSize)
		want := min(len(p)-n, pageSize-at)
		toEnd := want == pageSize-at || i*pageSize+int64(at+want) == t.size
		switch {
		case keep && at == 0 && toEnd:
			delete(t.tail, i) // the page is p's from its start
			t.p[i], t.owned[i] = p[n:n+want:n+want], false
		case keep && at > 0 && toEnd && len(t.p[i]) == at && t.tail[i] == nil:
			if t.tail == nil {
				t.tail = map[int64][]byte{}
			}
			t.tail[i], t.owned[i] = p[n:n+want:n+want], false
		default:
			pg := t.writable(i, at+want)
			copy(pg[at:at+want], p[n:n+want])
		}
		n += want
	}
}

// resize sets the size: bytes past a smaller size are dropped (and read as
// zeros if the file grows again), a larger size adds zeros.
func (t *pageTable) resize(size int64) {
	if size == t.size {
		return
	}
	count := (size + pageSize - 1) / pageSize
	if size < t.size {
		for i := range t.tail {
			if i >= count {
				delete(t.tail, i)
			}
		}
		clear(t.p[count:])
		t.p, t.owned = t.p[:count], t.owned[:count]
		if count > 0 && t.tail[count-1] != nil && int(size%pageSize) > 0 {
			t.join(count - 1) // cut below
		}
		if at := int(size % pageSize); at > 0 && at < len(t.p[count-1]) {
			// the last page keeps no bytes past the size
			if t.owned[count-1] {
				pg := t.p[count-1]
				clear(pg[at:])
				t.p[count-1] = pg[:at]
			} else {
				pg := make([]byte, at, pageCap(at))
				copy(pg, t.p[count-1])
				t.p[count-1], t.owned[count-1] = pg, true
			}
		}
	}
	for int64(len(t.p)) < count {
		t.p = append(t.p, nil)
		t.owned = append(t.owned, true)
	}
	t.size = size
}
