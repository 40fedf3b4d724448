package replicalog

import (
	"fmt"
	"iter"
	"sort"

	"github.com/kafkalive/kafkalive/cluster/internal/seq"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// Mirror holds a replica log's records, one chunk per batch as it was
// appended, in offset order. A position counts entries from the Mirror's
// first one, across chunks.
//
// A chunk is eager (its entries, always there) or lazy: the records of a
// batch whose offsets follow one another, kept as where the batch lies in
// its segment file (lazyBatch, chunk.at), its bytes read back (files) and
// decoded into entries only when someone reads them. The mirror keeps the
// entries of the lazy chunks decoded last, up to [MirrorCacheBytes]
// (decodedCache), so that a batch just decoded serves the page and the
// checker again, and a log of millions of records costs its files, not a
// second copy of its bytes or a decoded entry for each (a client producing
// flat out would otherwise fill the memory with them).
//
// A chunk's entries are never changed once made, so they may be shared: a
// follower's chunk carries the entries its fetch carried (replica.Log.Read
// hands out the Mirror's own entries, and the caller must not modify
// them). That is why the Mirror is chunked rather than one slice:
// appending never copies what is there.
type Mirror struct {
	// chunks are shared block by block with the mirror's clones (a
	// snapshot's): a chunk is written in place only through Mut, which
	// copies a shared block first.
	chunks seq.Vec[chunk]
	n      int
	// base is the number of entries dropped from the front since the
	// mirror began: a chunk's first counts from the beginning, so that a
	// drop rewrites no chunk; position i is entry base+i.
	base int
	// cache keeps the decoded entries of the lazy chunks decoded last.
	cache decodedCache
	// files reads a lazy chunk's batch back from the segment file it is
	// in (the replica log the mirror belongs to).
	files batchFiles
}

// batchFiles reads a batch of size bytes that ends at place at back from
// its segment file: kept, the memory the file took for it (nil if none),
// while the file still holds it there, else a copy of what it holds.
type batchFiles interface {
	batchBytes(at place, size int, kept []byte) ([]byte, error)
}

// chunk is the entries of one batch (or of its part at or after the log
// start offset) and where the batch ends on disk.
type chunk struct {
	first int // the first entry, counted from the mirror's beginning (Mirror.base)
	n     int // number of entries
	// lo and hi are the offsets of the first and the last entry.
	lo, hi int64
	// entries are the entries: always set for an eager chunk, and for a
	// lazy one cut at its start or its end (Mirror.dropFront, truncate);
	// the decoded entries of a lazy chunk as made are in Mirror.cache.
	entries []replica.Entry
	at      place
	// batch, for a lazy chunk, holds the batch bytes its entries decode
	// from: records skip to skip+n-1 of it, at offsets lo to hi.
	batch *LazyBatch
	skip  int
	// epoch is a lazy chunk's leader epoch: its batch's, every record's.
	epoch int32
	// size is Read's measure of the entries and headSize that of the
	// first: a lazy chunk of a whole batch counts the batch's bytes, for
	// both (replicaLog.mirrorBatch), any other entry 70 bytes plus its key
	// and value (entrySize); head says whether the first entry carries its
	// batch's bytes (Entry.Batch), where a read of whole batches may stop.
	size, headSize int
	head           bool
}

// LazyBatch is a record batch as stored, whose records follow one another
// from offset base on: size bytes, with CRC crc, that the mirror does not
// copy but reads back from the segment file they end in (chunk.at) when
// someone reads the records, so that a log of a client's millions of
// records costs its files and not a second copy. It never changes;
// mirrors and snapshots share it.
//
// kept, if not nil, is the memory the segment file took as the batch's
// bytes when it was appended (kafkalog's NoCopy appends): holding it costs
// nothing while the file holds it, and reading the batch back is then
// asking the file whether it still does (vfs.HoldsAt: a damaged or
// rewritten file no longer does) rather than copying it out.
type LazyBatch struct {
	base int64
	size int
	crc  uint32
	kept []byte
}

// StoredBatch is the lazyBatch of raw, a whole batch as stored, whose
// header h reads; kept says whether the segment file keeps raw itself as
// the batch's bytes.
func StoredBatch(raw []byte, h kafkalog.BatchHeader, kept bool) *LazyBatch {
	b := &LazyBatch{base: h.BaseOffset, size: len(raw), crc: h.CRC}
	if kept {
		b.kept = raw
	}
	return b
}

// place is where a record's batch ends: in the .log file of the segment
// with base offset segment, at byte end.
type place struct {
	segment int64
	end     int64
}

// entrySize is Read's measure of an entry.
func entrySize(e *replica.Entry) int { return 70 + len(e.Key) + len(e.Value) }

// entriesSize is Read's measure of es.
func entriesSize(es []replica.Entry) int {
	n := 0
	for i := range es {
		n += entrySize(&es[i])
	}
	return n
}

// Len is the number of entries.
func (m *Mirror) Len() int { return m.n }

// reset empties the mirror.
func (m *Mirror) reset() {
	m.base += m.n
	m.chunks, m.n = seq.Vec[chunk]{}, 0
	m.cache.reset()
}

// add appends an eager chunk of a batch's entries, which end at place at.
// The mirror keeps the slice as it is (capacity cut to its length): the
// caller must never change it afterwards.
func (m *Mirror) add(entries []replica.Entry, at place) {
	if len(entries) == 0 {
		return
	}
	m.chunks.Append(chunk{first: m.base + m.n, n: len(entries), lo: entries[0].Offset, hi: entries[len(entries)-1].Offset,
		entries: entries[:len(entries):len(entries)], at: at, size: entriesSize(entries), headSize: entrySize(&entries[0]), head: entries[0].Batch != nil})
	m.n += len(entries)
}

// addLazy appends a lazy chunk: records skip to skip+n-1 of the batch b,
// of leader epoch epoch, whose sizes by Read's measure are size (all) and
// headSize (the first), ending at place at. entries, when not nil, are
// those records decoded (the caller's new slice, or one that is never
// changed), cached as the chunk's decoded entries.
func (m *Mirror) addLazy(b *LazyBatch, epoch int32, skip, n int, entries []replica.Entry, size, headSize int, at place) {
	if n == 0 {
		return
	}
	lo := b.base + int64(skip)
	c := chunk{first: m.base + m.n, n: n, lo: lo, hi: lo + int64(n) - 1, at: at, batch: b, skip: skip, epoch: epoch,
		size: size, headSize: headSize, head: skip == 0}
	m.chunks.Append(c)
	m.n += n
	if entries != nil {
		m.cache.put(b, c.first, entries[:n:n])
	}
}

// entriesOf returns chunk c's entries, decoding a lazy chunk's batch if
// they are not cached. The caller must not modify them.
func (m *Mirror) entriesOf(c int) []replica.Entry {
	ch := m.chunks.At(c)
	if ch.entries != nil {
		return ch.entries
	}
	if es := m.cache.get(ch.batch); es != nil {
		return es
	}
	es := m.decode(ch)
	m.cache.put(ch.batch, ch.first, es)
	return es
}

// holds reports whether lazy chunk b, cached when it began at position
// first, is still in the mirror as it was then (not cut, not dropped).
func (m *Mirror) holds(first int, b *LazyBatch) bool {
	if first < m.base || first >= m.base+m.n {
		return false
	}
	ch := m.chunks.At(m.chunkOf(first - m.base))
	return ch.first == first && ch.batch == b && ch.entries == nil
}

// bytesOf is lazy chunk ch's batch bytes, read back from its file: the
// memory the file kept for them while it still holds them, else a copy.
// The caller may keep them and must not modify them.
func (m *Mirror) bytesOf(ch *chunk) []byte {
	b := ch.batch
	raw, err := m.files.batchBytes(ch.at, b.size, b.kept)
	if err == nil {
		var h kafkalog.BatchHeader
		if h, err = kafkalog.ReadBatchHeader(raw); err == nil && (h.BaseOffset != b.base || h.CRC != b.crc) {
			err = fmt.Errorf("the file holds a batch at %d with CRC %d there", h.BaseOffset, h.CRC)
		}
	}
	if err != nil {
		// The batch was appended there, and the mirror drops it before
		// its file loses it (truncation, retention, the cleaner).
		panic(fmt.Sprintf("cluster: a mirrored batch at offset %d (%d bytes, CRC %d) ending at %d in segment %d cannot be read back: %v", b.base, b.size, b.crc, ch.at.end, ch.at.segment, err))
	}
	return raw
}

// decode is lazy chunk ch's records as entries: their keys and values
// point into its bytes, read back for them, or into a decompression buffer
// of their own.
func (m *Mirror) decode(ch *chunk) []replica.Entry {
	raw := m.bytesOf(ch)
	var dec kafkalog.Decoder
	var rb kafkalog.RecordBatch
	if _, err := dec.Decode(raw, &rb); err != nil || ch.skip+ch.n > len(rb.Records) {
		// The bytes decoded when the chunk was made, and they never change.
		panic(fmt.Sprintf("cluster: a mirrored batch at offset %d no longer decodes to %d records from %d: %v", ch.batch.base, ch.n, ch.skip, err))
	}
	return BatchEntries(&rb, raw, ch.skip, ch.n)
}

// BatchEntries is records skip to skip+n-1 of rb (decoded from raw) as
// entries, at offsets from rb's base offset on: the first carries raw when
// it is the batch's first record, the producer fields of an idempotent
// batch are in one allocation for the batch.
func BatchEntries(rb *kafkalog.RecordBatch, raw []byte, skip, n int) []replica.Entry {
	es := make([]replica.Entry, n)
	var producers []replica.ProducerSequence
	if rb.ProducerID != kafkalog.NoProducerID && rb.BaseSequence >= 0 {
		producers = make([]replica.ProducerSequence, n)
	}
	for i := range es {
		r := &rb.Records[skip+i]
		es[i] = replica.Entry{Offset: rb.Offset(r), LeaderEpoch: rb.PartitionLeaderEpoch, Key: r.Key, Value: r.Value}
		if producers != nil {
			producers[i] = replica.ProducerSequence{ID: rb.ProducerID, Epoch: rb.ProducerEpoch, Sequence: rb.Sequence(r)}
			es[i].Producer = &producers[i]
		}
	}
	if skip == 0 {
		es[0].Batch = raw
	}
	return es
}

// chunkOf is the index of the chunk holding position i (0 <= i < len).
func (m *Mirror) chunkOf(i int) int {
	abs := m.base + i
	return sort.Search(m.chunks.Len(), func(c int) bool { return m.chunks.At(c).first > abs }) - 1
}

// start is the position of chunk ch's first entry.
func (m *Mirror) start(ch *chunk) int { return ch.first - m.base }

// At is the entry At position i (0 <= i < len); the caller must not
// modify it.
func (m *Mirror) At(i int) *replica.Entry {
	c := m.chunkOf(i)
	return &m.entriesOf(c)[i-m.start(m.chunks.At(c))]
}

// OffsetAt is the offset of the entry at position i (0 <= i < len), found
// without decoding a lazy chunk.
func (m *Mirror) OffsetAt(i int) int64 {
	c := m.chunks.At(m.chunkOf(i))
	if c.batch != nil {
		return c.lo + int64(i-m.start(c))
	}
	return c.entries[i-m.start(c)].Offset
}

// truncate keeps the entries before position i.
func (m *Mirror) truncate(i int) {
	if i >= m.n {
		return
	}
	if i <= 0 {
		m.reset()
		return
	}
	c := m.chunkOf(i)
	if k := i - m.start(m.chunks.At(c)); k > 0 {
		es := m.entriesOf(c)[:k:k]
		ch := m.chunks.Mut(c)
		ch.entries, ch.n, ch.hi, ch.size = es, k, es[k-1].Offset, entriesSize(es)
		c++
	}
	m.chunks.Truncate(c)
	m.n = i
	m.cache.keep(m.holds)
}

// dropFront removes the entries before position i, as a rebuild from a
// log start offset at the entry at i would leave the mirror: a chunk cut
// at its start keeps the entries from i on, the first without its batch's
// bytes. Positions then count from the entry that was at i.
func (m *Mirror) dropFront(i int) {
	if i <= 0 {
		return
	}
	if i >= m.n {
		m.reset()
		return
	}
	c := m.chunkOf(i)
	if k := i - m.start(m.chunks.At(c)); k > 0 {
		es := m.entriesOf(c)[k:]
		if es[0].Batch != nil {
			es = append([]replica.Entry(nil), es...)
			es[0].Batch = nil
		}
		ch := m.chunks.Mut(c)
		ch.entries, ch.n, ch.lo, ch.head, ch.headSize, ch.size = es, len(es), es[0].Offset, false, entrySize(&es[0]), entriesSize(es)
		if ch.batch != nil {
			ch.skip += k
		}
		ch.first = m.base + i
	}
	m.chunks.DropFront(c)
	m.base += i
	m.n -= i
	m.cache.keep(m.holds)
}

// Epochs yields, chunk by chunk from position i on, the leader Epochs of
// the entries: a lazy chunk's one epoch for all of them (positions lo to
// hi-1), an eager chunk's entry by entry.
func (m *Mirror) Epochs(i int) iter.Seq2[[2]int, int32] {
	return func(yield func([2]int, int32) bool) {
		if i >= m.n {
			return
		}
		for c := m.chunkOf(max(i, 0)); c < m.chunks.Len(); c++ {
			ch := m.chunks.At(c)
			first := m.start(ch)
			lo := max(i, first)
			if ch.batch != nil {
				if !yield([2]int{lo, first + ch.n}, ch.epoch) {
					return
				}
				continue
			}
			for k := lo - first; k < ch.n; k++ {
				if !yield([2]int{first + k, first + k + 1}, ch.entries[k].LeaderEpoch) {
					return
				}
			}
		}
	}
}

// From yields the positions and entries From position i on.
func (m *Mirror) From(i int) iter.Seq2[int, *replica.Entry] {
	return func(yield func(int, *replica.Entry) bool) {
		if i >= m.n {
			return
		}
		for c := m.chunkOf(max(i, 0)); c < m.chunks.Len(); c++ {
			es, first := m.entriesOf(c), m.start(m.chunks.At(c))
			for k := max(i-first, 0); k < len(es); k++ {
				if !yield(first+k, &es[k]) {
					return
				}
			}
		}
	}
}

// Backward yields the positions and entries from the last one down to
// position 0.
func (m *Mirror) Backward() iter.Seq2[int, *replica.Entry] {
	return func(yield func(int, *replica.Entry) bool) {
		for c := m.chunks.Len() - 1; c >= 0; c-- {
			es, first := m.entriesOf(c), m.start(m.chunks.At(c))
			for k := len(es) - 1; k >= 0; k-- {
				if !yield(first+k, &es[k]) {
					return
				}
			}
		}
	}
}

// Slice returns the entries at positions i to j-1: a chunk's own entries
// when they lie in one chunk (most reads: a fetch within one batch), else
// a copy. The caller must not modify them.
func (m *Mirror) Slice(i, j int) []replica.Entry {
	i, j = max(i, 0), min(j, m.n)
	if i >= j {
		return nil
	}
	c := m.chunkOf(i)
	if ch := m.chunks.At(c); j <= m.start(ch)+ch.n {
		es, first := m.entriesOf(c), m.start(ch)
		return es[i-first : j-first : j-first]
	}
	out := make([]replica.Entry, 0, j-i)
	for ; c < m.chunks.Len() && len(out) < j-i; c++ {
		ch := m.chunks.At(c)
		first := m.start(ch)
		lo := max(i-first, 0)
		hi := min(j-first, ch.n)
		out = append(out, m.entriesOf(c)[lo:hi]...)
	}
	return out
}

// sliceFetch is slice(i, j) for a follower's fetch: a lazy chunk that
// lies whole in it, from its batch's first record, is one entry carrying
// the batch (Entry.Count), not decoded; the other chunks give their
// entries.
func (m *Mirror) sliceFetch(i, j int) []replica.Entry {
	i, j = max(i, 0), min(j, m.n)
	var out []replica.Entry
	for c := m.chunkOf(i); c < m.chunks.Len() && i < j; c++ {
		ch := m.chunks.At(c)
		first := m.start(ch)
		if ch.batch != nil && ch.skip == 0 && i == first && j >= first+ch.n {
			out = append(out, replica.Entry{Offset: ch.lo, LeaderEpoch: ch.epoch, Count: int32(ch.n), Batch: m.bytesOf(ch)})
		} else {
			out = append(out, m.entriesOf(c)[i-first:min(j-first, ch.n)]...)
		}
		i = first + ch.n
	}
	return out
}

// readEnd is where a read of whole batches from position i stops: the
// position after the last entry it takes, by Read's measure of at most
// maxBytes but at least one entry, never stopping inside a batch (only
// before an entry that carries its batch's bytes), with the size of what
// it takes. end, if not negative, is a position the read stops at in any
// case. Lazy chunks are measured without decoding them.
func (m *Mirror) readEnd(i, maxBytes, end int) (int, int) {
	if end < 0 || end > m.n {
		end = m.n
	}
	if i >= end {
		return i, 0
	}
	size, j := 0, i
	for c := m.chunkOf(i); c < m.chunks.Len() && j < end; c++ {
		ch := m.chunks.At(c)
		first := m.start(ch)
		if ch.batch == nil || i > first || end < first+ch.n {
			// entry by entry: an eager chunk, or a lazy one read in part
			es := m.entriesOf(c)
			for k := max(i-first, 0); k < len(es) && first+k < end; k++ {
				size += entrySize(&es[k])
				if first+k > i && size > maxBytes && es[k].Batch != nil {
					return j, size - entrySize(&es[k])
				}
				j = first + k + 1
			}
			continue
		}
		if first > i && ch.head && size+ch.headSize > maxBytes {
			return j, size
		}
		size += ch.size
		j = first + ch.n
	}
	return j, size
}

// placeOf is where the batch of the entry at position i ends.
func (m *Mirror) placeOf(i int) place { return m.chunks.At(m.chunkOf(i)).at }

// places yields, for the chunks from position i on, the positions they
// cover from i (lo to hi-1) and where their batch ends.
func (m *Mirror) places(i int) iter.Seq2[[2]int, place] {
	return func(yield func([2]int, place) bool) {
		if i >= m.n {
			return
		}
		for c := m.chunkOf(max(i, 0)); c < m.chunks.Len(); c++ {
			ch := m.chunks.At(c)
			if !yield([2]int{max(i, m.start(ch)), m.start(ch) + ch.n}, ch.at) {
				return
			}
		}
	}
}

// offsets yields the offsets of chunk c's entries, without decoding a lazy
// chunk.
func (m *Mirror) offsets(c int) iter.Seq[int64] {
	return func(yield func(int64) bool) {
		ch := m.chunks.At(c)
		for k := range ch.n {
			off := ch.lo + int64(k)
			if ch.batch == nil {
				off = ch.entries[k].Offset
			}
			if !yield(off) {
				return
			}
		}
	}
}

// index is the position of the first entry at or after offset (len when
// none). Offsets are consecutive unless the cleaner left gaps, so the
// position offset - first offset is tried first.
func (m *Mirror) index(offset int64) int {
	if m.n == 0 {
		return 0
	}
	first := m.chunks.At(0).lo
	if i := int(min(max(offset-first, 0), int64(m.n))); i == m.n {
		if m.chunks.At(m.chunks.Len()-1).hi < offset {
			return i
		}
	} else if m.OffsetAt(i) == offset {
		return i
	}
	// the chunk whose last entry is the first at or after offset
	c := sort.Search(m.chunks.Len(), func(c int) bool { return m.chunks.At(c).hi >= offset })
	if c == m.chunks.Len() {
		return m.n
	}
	ch := m.chunks.At(c)
	if ch.batch != nil {
		return m.start(ch) + int(max(offset-ch.lo, 0))
	}
	return m.start(ch) + sort.Search(len(ch.entries), func(k int) bool { return ch.entries[k].Offset >= offset })
}

// Cursor walks a mirror's entries one at a time.
type Cursor struct {
	m    *Mirror
	c, k int // chunk, and entry in it
}

// CursorAt is a cursor at position i.
func (m *Mirror) CursorAt(i int) Cursor {
	if i >= m.n {
		return Cursor{m: m, c: m.chunks.Len()}
	}
	c := m.chunkOf(max(i, 0))
	return Cursor{m: m, c: c, k: max(i, 0) - m.start(m.chunks.At(c))}
}

// Entry is the Entry at the cursor, nil past the last one.
func (cu *Cursor) Entry() *replica.Entry {
	if cu.c >= cu.m.chunks.Len() {
		return nil
	}
	return &cu.m.entriesOf(cu.c)[cu.k]
}

// Next moves the cursor to the Next entry.
func (cu *Cursor) Next() {
	if cu.c >= cu.m.chunks.Len() {
		return
	}
	if cu.k++; cu.k == cu.m.chunks.At(cu.c).n {
		cu.c, cu.k = cu.c+1, 0
	}
}

// SkipSame moves both cursors past their chunks when each is at the start
// of a chunk and the two chunks are the same records: the same entries (a
// follower's chunk is the slice of its leader's that its fetch carried) or
// the same part of equal batches (base offset, epoch, size and CRC). It
// reports whether it moved them.
func SkipSame(a, b *Cursor) bool {
	if a.k != 0 || b.k != 0 || a.c >= a.m.chunks.Len() || b.c >= b.m.chunks.Len() {
		return false
	}
	ca, cb := a.m.chunks.At(a.c), b.m.chunks.At(b.c)
	same := false
	switch {
	case ca.n != cb.n:
	case ca.batch != nil && cb.batch != nil:
		// the same batch, or an equal one (two replicas store a batch byte
		// for byte the same): the same base offset, leader epoch, size and
		// CRC (which covers the rest) decode to the same records
		ba, bb := ca.batch, cb.batch
		same = ca.skip == cb.skip && ca.lo == cb.lo && ca.epoch == cb.epoch && ba.base == bb.base && ba.size == bb.size && ba.crc == bb.crc
	case ca.entries != nil && cb.entries != nil:
		same = &ca.entries[0] == &cb.entries[0]
	}
	if !same {
		return false
	}
	a.c, b.c = a.c+1, b.c+1
	return true
}
