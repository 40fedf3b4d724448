package vfs

import (
	"bytes"
	"maps"
	"slices"
)

// pageSize is the size of a file's pages in a MemFS: the unit in which its
// bytes are allocated, shared and copied on write.
const pageSize = 16 << 10

// pages is a file's bytes as fixed-size pages: page i holds bytes
// [i*pageSize, (i+1)*pageSize). A page may be shared with another file
// version (a Clone, the durable copy after a Sync): a page not owned is
// copied before it is written, so that sharing costs a slice of page
// pointers, not a copy of the bytes, and a file that grows never copies what
// it holds. A nil page is all zeros (a file grown by Truncate allocates
// nothing for its hole, as a sparse file). The last page may be shorter
// than pageSize; every byte of a page at or beyond size is zero.
//
// A page may come in two parts: p[i] then tail[i], both kept from writes
// that handed their bytes over (writeAt with keep). A kept write that
// starts inside a page, right after its last byte, so becomes the page's
// tail rather than a copy of the page's bytes and its own: a file of
// batches kept one after another holds no byte twice, where a page
// boundary falls inside a batch as much as between two. A page in two
// parts is joined into one owned page before it is written.
type pages struct {
	p     [][]byte
	owned []bool
	tail  map[int64][]byte
	size  int64
}

// page returns page i's parts: p[i] and its tail (nil if none).
func (b *pages) page(i int64) (first, second []byte) {
	return b.p[i], b.tail[i]
}

// join makes page i one owned page if it is in two parts.
func (b *pages) join(i int64) {
	second, ok := b.tail[i]
	if !ok {
		return
	}
	first := b.p[i]
	pg := make([]byte, len(first)+len(second), pageCap(len(first)+len(second)))
	copy(pg[copy(pg, first):], second)
	b.p[i], b.owned[i] = pg, true
	delete(b.tail, i)
}

// len is the file size.
func (b *pages) len() int64 { return b.size }

// readAt copies the bytes from off into dst, as many as there are; it
// returns how many.
func (b *pages) readAt(dst []byte, off int64) int {
	if off >= b.size {
		return 0
	}
	dst = dst[:min(int64(len(dst)), b.size-off)]
	n := 0
	for n < len(dst) {
		i, at := (off+int64(n))/pageSize, int((off+int64(n))%pageSize)
		want := min(len(dst)-n, pageSize-at)
		first, second := b.page(i)
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
func (b *pages) holds(p []byte, off int64) bool {
	if off < 0 || off > b.size-int64(len(p)) {
		return false
	}
	for n := 0; n < len(p); {
		i, at := (off+int64(n))/pageSize, int((off+int64(n))%pageSize)
		want := min(len(p)-n, pageSize-at)
		first, second := b.page(i)
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

// bytes returns the bytes [lo, hi) (within size) as one new slice.
func (b *pages) bytes(lo, hi int64) []byte {
	out := make([]byte, hi-lo)
	b.readAt(out, lo)
	return out
}

// writable returns page i, owned and at least end bytes long, for writing.
func (b *pages) writable(i int64, end int) []byte {
	b.join(i)
	pg := b.p[i]
	switch {
	case b.owned[i] && len(pg) >= end:
		return pg
	case b.owned[i] && cap(pg) >= end:
		pg = pg[:end] // bytes past len were cleared when the page shrank
	default:
		grown := make([]byte, max(end, len(pg)), pageCap(max(end, len(pg))))
		copy(grown, pg)
		pg = grown
	}
	b.p[i], b.owned[i] = pg, true
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
func (b *pages) writeAt(p []byte, off int64, keep bool) {
	if end := off + int64(len(p)); end > b.size {
		b.resize(end)
	}
	for n := 0; n < len(p); {
		i, at := (off+int64(n))/pageSize, int((off+int64(n))%pageSize)
		want := min(len(p)-n, pageSize-at)
		toEnd := want == pageSize-at || i*pageSize+int64(at+want) == b.size
		switch {
		case keep && at == 0 && toEnd:
			delete(b.tail, i) // the page is p's from its start
			b.p[i], b.owned[i] = p[n:n+want:n+want], false
		case keep && at > 0 && toEnd && len(b.p[i]) == at && b.tail[i] == nil:
			if b.tail == nil {
				b.tail = map[int64][]byte{}
			}
			b.tail[i], b.owned[i] = p[n:n+want:n+want], false
		default:
			pg := b.writable(i, at+want)
			copy(pg[at:at+want], p[n:n+want])
		}
		n += want
	}
}

// resize sets the size: bytes past a smaller size are dropped (and read as
// zeros if the file grows again), a larger size adds zeros.
func (b *pages) resize(size int64) {
	if size == b.size {
		return
	}
	count := (size + pageSize - 1) / pageSize
	if size < b.size {
		for i := range b.tail {
			if i >= count {
				delete(b.tail, i)
			}
		}
		clear(b.p[count:])
		b.p, b.owned = b.p[:count], b.owned[:count]
		if count > 0 && b.tail[count-1] != nil && int(size%pageSize) > 0 {
			b.join(count - 1) // cut below
		}
		if at := int(size % pageSize); at > 0 && at < len(b.p[count-1]) {
			// the last page keeps no bytes past the size
			if b.owned[count-1] {
				pg := b.p[count-1]
				clear(pg[at:])
				b.p[count-1] = pg[:at]
			} else {
				pg := make([]byte, at, pageCap(at))
				copy(pg, b.p[count-1])
				b.p[count-1], b.owned[count-1] = pg, true
			}
		}
	}
	for int64(len(b.p)) < count {
		b.p = append(b.p, nil)
		b.owned = append(b.owned, true)
	}
	b.size = size
}

// share returns a version of b that shares its pages: neither b nor it
// writes a page in place afterwards before copying it.
func (b *pages) share() pages {
	clear(b.owned)
	return pages{p: append([][]byte(nil), b.p...), owned: make([]bool, len(b.p)), tail: maps.Clone(b.tail), size: b.size}
}

// CopyShared is share, for a deep copy of a structure that holds pages (a
// world's snapshot copies its file systems so): the copy and b share the
// pages, each copying a page before it first writes it.
func (b *pages) CopyShared() pages { return b.share() }
