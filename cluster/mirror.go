package cluster

import (
	"iter"
	"sort"

	"github.com/kafkalive/kafkalive/replica"
)

// mirror holds a replica log's decoded records, one chunk per batch as it
// was appended, in offset order. A position counts entries from the
// mirror's first one, across chunks.
//
// A chunk's entries are never changed once added, so they may be shared:
// a follower's chunk is the slice of its leader's entries that the fetch
// carried (replica.Log.Read hands out the mirror's own entries, and the
// caller must not modify them). That is why the mirror is chunked rather
// than one slice: appending never copies what is there, and a follower
// stores no entries of its own for what it fetched.
type mirror struct {
	chunks []chunk
	n      int
}

// chunk is the entries of one batch and where the batch ends on disk.
type chunk struct {
	first   int // position of entries[0]
	entries []replica.Entry
	at      place
}

// place is where a record's batch ends: in the .log file of the segment
// with base offset segment, at byte end.
type place struct {
	segment int64
	end     int64
}

// len is the number of entries.
func (m *mirror) len() int { return m.n }

// reset empties the mirror.
func (m *mirror) reset() { m.chunks, m.n = nil, 0 }

// add appends a batch's entries, which end at place at. The mirror keeps
// the slice as it is (capacity cut to its length): the caller must never
// change it afterwards.
func (m *mirror) add(entries []replica.Entry, at place) {
	if len(entries) == 0 {
		return
	}
	m.chunks = append(m.chunks, chunk{first: m.n, entries: entries[:len(entries):len(entries)], at: at})
	m.n += len(entries)
}

// chunkOf is the index of the chunk holding position i (0 <= i < len).
func (m *mirror) chunkOf(i int) int {
	return sort.Search(len(m.chunks), func(c int) bool { return m.chunks[c].first > i }) - 1
}

// at is the entry at position i (0 <= i < len); the caller must not
// modify it.
func (m *mirror) at(i int) *replica.Entry {
	c := &m.chunks[m.chunkOf(i)]
	return &c.entries[i-c.first]
}

// truncate keeps the entries before position i.
func (m *mirror) truncate(i int) {
	if i >= m.n {
		return
	}
	if i <= 0 {
		m.reset()
		return
	}
	c := m.chunkOf(i)
	if k := i - m.chunks[c].first; k > 0 {
		m.chunks[c].entries = m.chunks[c].entries[:k:k]
		c++
	}
	clear(m.chunks[c:]) // let the cut entries go
	m.chunks, m.n = m.chunks[:c], i
}

// from yields the positions and entries from position i on.
func (m *mirror) from(i int) iter.Seq2[int, *replica.Entry] {
	return func(yield func(int, *replica.Entry) bool) {
		if i >= m.n {
			return
		}
		for c := m.chunkOf(max(i, 0)); c < len(m.chunks); c++ {
			ch := &m.chunks[c]
			for k := max(i-ch.first, 0); k < len(ch.entries); k++ {
				if !yield(ch.first+k, &ch.entries[k]) {
					return
				}
			}
		}
	}
}

// backward yields the positions and entries from the last one down to
// position 0.
func (m *mirror) backward() iter.Seq2[int, *replica.Entry] {
	return func(yield func(int, *replica.Entry) bool) {
		for c := len(m.chunks) - 1; c >= 0; c-- {
			ch := &m.chunks[c]
			for k := len(ch.entries) - 1; k >= 0; k-- {
				if !yield(ch.first+k, &ch.entries[k]) {
					return
				}
			}
		}
	}
}

// slice returns the entries at positions i to j-1: a chunk's own entries
// when they lie in one chunk (most reads: a fetch within one batch), else
// a copy. The caller must not modify them.
func (m *mirror) slice(i, j int) []replica.Entry {
	i, j = max(i, 0), min(j, m.n)
	if i >= j {
		return nil
	}
	c := m.chunkOf(i)
	if ch := &m.chunks[c]; j <= ch.first+len(ch.entries) {
		return ch.entries[i-ch.first : j-ch.first : j-ch.first]
	}
	out := make([]replica.Entry, 0, j-i)
	for ; c < len(m.chunks) && len(out) < j-i; c++ {
		ch := &m.chunks[c]
		lo := max(i-ch.first, 0)
		hi := min(j-ch.first, len(ch.entries))
		out = append(out, ch.entries[lo:hi]...)
	}
	return out
}

// placeOf is where the batch of the entry at position i ends.
func (m *mirror) placeOf(i int) place { return m.chunks[m.chunkOf(i)].at }

// index is the position of the first entry at or after offset (len when
// none). Offsets are consecutive unless the cleaner left gaps, so the
// position offset - first offset is tried first.
func (m *mirror) index(offset int64) int {
	if m.n == 0 {
		return 0
	}
	first := m.chunks[0].entries[0].Offset
	if i := int(min(max(offset-first, 0), int64(m.n))); i == m.n {
		if m.at(i-1).Offset < offset {
			return i
		}
	} else if m.at(i).Offset == offset {
		return i
	}
	// the chunk whose last entry is the first at or after offset
	c := sort.Search(len(m.chunks), func(c int) bool {
		es := m.chunks[c].entries
		return es[len(es)-1].Offset >= offset
	})
	if c == len(m.chunks) {
		return m.n
	}
	ch := &m.chunks[c]
	return ch.first + sort.Search(len(ch.entries), func(k int) bool { return ch.entries[k].Offset >= offset })
}

// cursor walks a mirror's entries one at a time.
type cursor struct {
	m    *mirror
	c, k int // chunk, and entry in it
}

// cursorAt is a cursor at position i.
func (m *mirror) cursorAt(i int) cursor {
	if i >= m.n {
		return cursor{m: m, c: len(m.chunks)}
	}
	c := m.chunkOf(max(i, 0))
	return cursor{m: m, c: c, k: max(i, 0) - m.chunks[c].first}
}

// entry is the entry at the cursor, nil past the last one.
func (cu *cursor) entry() *replica.Entry {
	if cu.c >= len(cu.m.chunks) {
		return nil
	}
	return &cu.m.chunks[cu.c].entries[cu.k]
}

// next moves the cursor to the next entry.
func (cu *cursor) next() {
	if cu.c >= len(cu.m.chunks) {
		return
	}
	if cu.k++; cu.k == len(cu.m.chunks[cu.c].entries) {
		cu.c, cu.k = cu.c+1, 0
	}
}

// skipSame moves both cursors past their chunks when each is at the start
// of a chunk and the two chunks are the same entries (a follower's chunk is
// the slice of its leader's that its fetch carried): they hold the same
// records. It reports whether it moved them.
func skipSame(a, b *cursor) bool {
	if a.k != 0 || b.k != 0 || a.c >= len(a.m.chunks) || b.c >= len(b.m.chunks) {
		return false
	}
	ea, eb := a.m.chunks[a.c].entries, b.m.chunks[b.c].entries
	if len(ea) != len(eb) || &ea[0] != &eb[0] {
		return false
	}
	a.c, b.c = a.c+1, b.c+1
	return true
}
