package kafkalog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/kafkalive/kafkalive/vfs"
)

// Index errors.
var (
	// ErrCorruptIndex means an index file fails its sanity check: a length that is
	// not a whole number of entries, entries out of order, or a last entry below
	// the base offset. Kafka: CorruptIndexException. Recovery rebuilds the index.
	ErrCorruptIndex = errors.New("kafkalog: corrupt index")
	// ErrIndexFull means an append found no free slot (Kafka throws
	// IllegalArgumentException "Attempt to append to a full index"); the segment
	// must roll.
	ErrIndexFull = errors.New("kafkalog: index is full")
	// ErrInvalidOffset means an index append whose offset does not come after the
	// last entry, or whose offset is not representable as a relative offset
	// (InvalidOffsetException, IndexOffsetOverflowException).
	ErrInvalidOffset = errors.New("kafkalog: invalid offset for index")
)

// OffsetIndexEntrySize is the size of one .index entry: int32 relative offset,
// int32 position.
const OffsetIndexEntrySize = 8

// OffsetPosition is an offset index entry: the batch holding Offset starts at
// byte Position of the segment's .log. Offset is absolute.
type OffsetPosition struct {
	// Offset is the absolute offset (base offset + the relative offset stored).
	Offset int64
	// Position is the byte position in the .log file.
	Position int64
}

type offsetEntry struct {
	rel int32
	pos int32
}

// OffsetIndex is a segment's sparse offset index (.index, OffsetIndex.java):
// 8-byte entries, strictly increasing by offset, no header, no checksum:
//
//	offset  size  field
//	     0     4  relativeOffset  int32: offset − segment base offset
//	     4     4  position        int32: byte position of the batch in the .log
//
// An entry (O, P) says: the batch that starts at byte P ends at offset O. One is
// written every index.interval.bytes (4096) of appended data.
// Entries are kept in memory and written back to the file in one write by Sync,
// TrimToValidSize and Close (Kafka mmaps the file; see indexFile for what a crash
// loses and why that is safe). A writable index file is preallocated to its
// maximum size; TrimToValidSize and Close cut it back to its entries, as Kafka
// does. It is not safe for concurrent use.
type OffsetIndex struct {
	idx     indexFile
	entries []offsetEntry
	// shared is how many entries a clone may hold in the same array: never
	// written in place (shrink).
	shared int
}

// OpenOffsetIndex opens the offset index in f for the segment at baseOffset. As
// in Kafka, every whole 8 bytes of an existing file are taken as an entry
// (entries = roundDown(length, 8)); call SanityCheck to find a zero-padded or
// otherwise damaged file. If writable, the file is then grown to
// roundDown(maxIndexSize, 8) bytes (never shrunk below its entries), which
// fixes MaxEntries; a read-only index is full. The index takes ownership of f.
func OpenOffsetIndex(f vfs.File, baseOffset int64, maxIndexSize int, writable bool) (*OffsetIndex, error) {
	ix := &OffsetIndex{}
	n, err := ix.idx.open(f, baseOffset, maxIndexSize, writable, OffsetIndexEntrySize, func(b []byte) {
		ix.entries = append(ix.entries, offsetEntry{rel: int32(binary.BigEndian.Uint32(b)), pos: int32(binary.BigEndian.Uint32(b[4:]))})
	})
	if err != nil {
		return nil, err
	}
	ix.entries = ix.entries[:n]
	return ix, nil
}

// BaseOffset returns the base offset of the segment the index belongs to.
func (ix *OffsetIndex) BaseOffset() int64 { return ix.idx.baseOffset }

// Entries returns the number of entries.
func (ix *OffsetIndex) Entries() int { return len(ix.entries) }

// MaxEntries returns the number of entries the file has room for.
func (ix *OffsetIndex) MaxEntries() int { return ix.idx.maxEntries }

// IsFull reports whether no entry can be appended.
func (ix *OffsetIndex) IsFull() bool { return len(ix.entries) >= ix.idx.maxEntries }

// Entry returns entry n. It panics if n is not in [0, Entries()), as Kafka throws
// IllegalArgumentException: the caller's bug, not bad input.
func (ix *OffsetIndex) Entry(n int) OffsetPosition {
	if n < 0 || n >= len(ix.entries) {
		panic(fmt.Sprintf("kafkalog: offset index entry %d requested, index has %d", n, len(ix.entries)))
	}
	return ix.at(n)
}

func (ix *OffsetIndex) at(n int) OffsetPosition {
	e := ix.entries[n]
	return OffsetPosition{Offset: ix.idx.baseOffset + int64(e.rel), Position: int64(e.pos)}
}

// LastOffset returns the offset of the last entry, or the base offset if empty.
func (ix *OffsetIndex) LastOffset() int64 {
	if len(ix.entries) == 0 {
		return ix.idx.baseOffset
	}
	return ix.at(len(ix.entries) - 1).Offset
}

// Append adds the entry (offset, position). offset must be above the last
// entry's (ErrInvalidOffset) unless the index is empty, offset − base must fit
// in [0, MaxInt32] and position in [0, MaxInt32] (ErrInvalidOffset), and the
// index must not be full (ErrIndexFull). The entry is kept in memory; the file
// gets it at the next Sync, TrimToValidSize or Close.
func (ix *OffsetIndex) Append(offset int64, position int64) error {
	if ix.IsFull() {
		return fmt.Errorf("%w: append of offset %d to %s with %d entries", ErrIndexFull, offset, ix.idx.name(), len(ix.entries))
	}
	if len(ix.entries) > 0 && offset <= ix.LastOffset() {
		return fmt.Errorf("%w: offset %d appended to %s after offset %d", ErrInvalidOffset, offset, ix.idx.name(), ix.LastOffset())
	}
	rel, err := ix.idx.relative(offset)
	if err != nil {
		return err
	}
	if position < 0 || position > math.MaxInt32 {
		return fmt.Errorf("%w: position %d of offset %d does not fit an int32 in %s", ErrInvalidOffset, position, offset, ix.idx.name())
	}
	ix.entries = append(ix.entries, offsetEntry{rel: rel, pos: int32(position)})
	return nil
}

func (ix *OffsetIndex) offsetKey(i int) int64   { return ix.idx.baseOffset + int64(ix.entries[i].rel) }
func (ix *OffsetIndex) positionKey(i int) int64 { return int64(ix.entries[i].pos) }

// Lookup returns the entry with the largest offset ≤ target, or (base offset, 0)
// if there is none. Like Kafka it searches the warm tail of the index (the last
// 8 KiB, 1024 entries) first when the target lies there.
func (ix *OffsetIndex) Lookup(target int64) OffsetPosition {
	lo := ix.largestLowerBound(target)
	if lo < 0 {
		return OffsetPosition{Offset: ix.idx.baseOffset, Position: 0}
	}
	return ix.at(lo)
}

// largestLowerBound is slotRange's first result specialised to the offset
// index's relative offsets (the hot path of every fetch): the same warm-first
// search, without a key function call per probe. It looks for the first entry
// above the target in the warm tail (the last 8 KiB) if the target lies there,
// else in the rest, and returns the slot before it.
func (ix *OffsetIndex) largestLowerBound(target int64) int {
	es := ix.entries
	n := len(es)
	rel := target - ix.idx.baseOffset
	switch {
	case n == 0 || rel < int64(es[0].rel):
		return -1
	case rel > math.MaxInt32:
		return n - 1
	}
	t := int32(rel)
	lo, hi := 0, n
	if firstHot := max(0, n-1-warmIndexBytes/OffsetIndexEntrySize); es[firstHot].rel <= t {
		lo = firstHot + 1
	} else {
		hi = firstHot
	}
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if es[mid].rel <= t {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo - 1
}

// FetchUpperBoundOffset returns the first entry whose position is ≥ startPos +
// fetchSize: where a fetch of fetchSize bytes from startPos can safely stop. ok is
// false if no entry lies that far.
func (ix *OffsetIndex) FetchUpperBoundOffset(startPos, fetchSize int64) (OffsetPosition, bool) {
	_, hi := slotRange(len(ix.entries), OffsetIndexEntrySize, ix.positionKey, startPos+fetchSize)
	if hi < 0 {
		return OffsetPosition{}, false
	}
	return ix.at(hi), true
}

// TruncateTo removes every entry with offset ≥ offset. The file keeps its
// length, as Kafka's mmap does, but unlike Kafka the dropped slots of a writable
// index that were already written back are zeroed: stale entries left after a
// crash would pass for real ones, zeros fail SanityCheck.
func (ix *OffsetIndex) TruncateTo(offset int64) error {
	keep := keptSlots(len(ix.entries), ix.offsetKey, offset)
	if err := ix.idx.dropSlots(keep); err != nil {
		return err
	}
	ix.entries = shrink(ix.entries, keep, &ix.shared)
	return nil
}

// Reset removes every entry and, if writable, zeroes the file at its maximum
// size (Kafka's reset(): truncate then resize). Recovery calls it before
// rebuilding the index.
func (ix *OffsetIndex) Reset() error {
	ix.entries = shrink(ix.entries, 0, &ix.shared)
	return ix.idx.reset()
}

// SanityCheck returns ErrCorruptIndex if the file length is not a multiple of 8
// or the last entry's offset is below the base offset (Kafka's checks), or if the
// entries are not strictly increasing by offset and non-decreasing by position.
// The last check is ours: Kafka's sanityCheck passes a zero-padded index (a zero
// entry reads as (base offset, 0), which is not below the base) and relies on
// the clean-shutdown marker to rebuild it; here the padding fails the order check.
func (ix *OffsetIndex) SanityCheck() error {
	if err := ix.idx.checkLength(); err != nil {
		return err
	}
	n := len(ix.entries)
	if n > 0 && ix.LastOffset() < ix.idx.baseOffset {
		return fmt.Errorf("%w: %s: last offset %d is below base offset %d", ErrCorruptIndex, ix.idx.name(), ix.LastOffset(), ix.idx.baseOffset)
	}
	for i := 1; i < n; i++ {
		a, b := ix.entries[i-1], ix.entries[i]
		if b.rel <= a.rel || b.pos < a.pos {
			return fmt.Errorf("%w: %s: entry %d (%d, %d) does not follow entry %d (%d, %d)", ErrCorruptIndex, ix.idx.name(),
				i, ix.idx.baseOffset+int64(b.rel), b.pos, i-1, ix.idx.baseOffset+int64(a.rel), a.pos)
		}
	}
	return nil
}

// TrimToValidSize writes the entries back and cuts the file to them (done by
// Close and on roll), after which the index is full.
func (ix *OffsetIndex) TrimToValidSize() error { return ix.idx.trim(len(ix.entries), ix.encode) }

// Resize sets the file's length to roundDown(maxIndexSize, 8) and MaxEntries
// accordingly, and reports whether the length changed (AbstractIndex.resize). It
// fails with ErrIndexFull if the new size cannot hold the current entries.
func (ix *OffsetIndex) Resize(maxIndexSize int) (bool, error) {
	return ix.idx.resize(maxIndexSize, len(ix.entries))
}

// Sync writes the entries back (one write) and flushes the file to stable
// storage (Kafka's OffsetIndex.flush, mmap.force).
func (ix *OffsetIndex) Sync() error { return ix.idx.sync(len(ix.entries), ix.encode) }

// Close writes back and trims a writable index to its entries and closes the file.
func (ix *OffsetIndex) Close() error { return ix.idx.close(len(ix.entries), ix.encode) }

// writeBack writes the entries appended since the last write-back to the file.
func (ix *OffsetIndex) writeBack() error { return ix.idx.writeBack(len(ix.entries), ix.encode) }

// encode returns the file bytes of entries [from, to).
func (ix *OffsetIndex) encode(from, to int) []byte {
	b := make([]byte, 0, (to-from)*OffsetIndexEntrySize)
	for _, e := range ix.entries[from:to] {
		b = binary.BigEndian.AppendUint32(b, uint32(e.rel))
		b = binary.BigEndian.AppendUint32(b, uint32(e.pos))
	}
	return b
}

// DecodeOffsetIndex decodes the bytes of a .index file of the segment at base:
// every whole 8 bytes is an entry, in file order, with no checks. Trailing bytes
// that do not make an entry give the entries and an ErrCorruptIndex error.
func DecodeOffsetIndex(b []byte, base int64) ([]OffsetPosition, error) {
	out := make([]OffsetPosition, 0, len(b)/OffsetIndexEntrySize)
	for i := 0; i+OffsetIndexEntrySize <= len(b); i += OffsetIndexEntrySize {
		rel := int32(binary.BigEndian.Uint32(b[i:]))
		pos := int32(binary.BigEndian.Uint32(b[i+4:]))
		out = append(out, OffsetPosition{Offset: base + int64(rel), Position: int64(pos)})
	}
	if r := len(b) % OffsetIndexEntrySize; r != 0 {
		return out, fmt.Errorf("%w: length %d is not a multiple of %d (%d trailing bytes)", ErrCorruptIndex, len(b), OffsetIndexEntrySize, r)
	}
	return out, nil
}
