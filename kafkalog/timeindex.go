package kafkalog

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/kafkalive/kafkalive/vfs"
)

// ErrInvalidTimestamp means a time index append whose timestamp is below the last
// entry's (Kafka throws IllegalStateException): time index timestamps never go down.
var ErrInvalidTimestamp = errors.New("kafkalog: timestamp below the time index's last entry")

// TimeIndexEntrySize is the size of one .timeindex entry: int64 timestamp, int32
// relative offset.
const TimeIndexEntrySize = 12

// TimestampOffset is a time index entry: the largest timestamp of the segment's
// records up to and including Offset is Timestamp, so every record with a larger
// timestamp comes after Offset.
//
// Which offset is stored changed across versions: current Kafka (3.x trunk of
// 2024) writes the last offset of the batch holding the largest timestamp; older
// brokers (Kafka ≈2.4, the 2020 fixture) wrote the offset of the record itself.
// Readers must accept both.
type TimestampOffset struct {
	// Timestamp in epoch milliseconds; -1 (NoTimestamp) in the "none" answer.
	Timestamp int64
	// Offset is absolute.
	Offset int64
}

type timeEntry struct {
	ts  int64
	rel int32
}

// TimeIndex is a segment's time index (.timeindex, TimeIndex.java): 12-byte
// entries, timestamps and offsets non-decreasing:
//
//	offset  size  field
//	     0     8  timestamp       int64, epoch milliseconds
//	     8     4  relativeOffset  int32: offset − segment base offset
//
// Like OffsetIndex it keeps its
// entries in memory, writes them back at Sync, TrimToValidSize and Close, is
// preallocated when writable and trimmed by TrimToValidSize and Close. Its last slot is reserved for the entry written
// when the segment rolls or closes: IsFull is entries ≥ MaxEntries − 1.
type TimeIndex struct {
	idx     indexFile
	entries []timeEntry
	// shared is how many entries a clone may hold in the same array: never
	// written in place (shrink).
	shared int
}

// OpenTimeIndex opens the time index in f for the segment at baseOffset, with the
// same rules as OpenOffsetIndex (entries = roundDown(length, 12); a writable file
// grows to roundDown(maxIndexSize, 12): 10485756 bytes for the 10 MiB default).
func OpenTimeIndex(f vfs.File, baseOffset int64, maxIndexSize int, writable bool) (*TimeIndex, error) {
	ti := &TimeIndex{}
	_, err := ti.idx.open(f, baseOffset, maxIndexSize, writable, TimeIndexEntrySize, func(b []byte) {
		ti.entries = append(ti.entries, timeEntry{ts: int64(binary.BigEndian.Uint64(b)), rel: int32(binary.BigEndian.Uint32(b[8:]))})
	})
	if err != nil {
		return nil, err
	}
	return ti, nil
}

// BaseOffset returns the base offset of the segment the index belongs to.
func (ti *TimeIndex) BaseOffset() int64 { return ti.idx.baseOffset }

// Entries returns the number of entries.
func (ti *TimeIndex) Entries() int { return len(ti.entries) }

// MaxEntries returns the number of entries the file has room for.
func (ti *TimeIndex) MaxEntries() int { return ti.idx.maxEntries }

// IsFull reports whether only the reserved last slot is left (entries ≥
// MaxEntries − 1): the segment must roll.
func (ti *TimeIndex) IsFull() bool { return len(ti.entries) >= ti.idx.maxEntries-1 }

// Entry returns entry n. It panics if n is not in [0, Entries()).
func (ti *TimeIndex) Entry(n int) TimestampOffset {
	if n < 0 || n >= len(ti.entries) {
		panic(fmt.Sprintf("kafkalog: time index entry %d requested, index has %d", n, len(ti.entries)))
	}
	return ti.at(n)
}

func (ti *TimeIndex) at(n int) TimestampOffset {
	e := ti.entries[n]
	return TimestampOffset{Timestamp: e.ts, Offset: ti.idx.baseOffset + int64(e.rel)}
}

// LastEntry returns the last entry, or (-1, base offset) if the index is empty.
func (ti *TimeIndex) LastEntry() TimestampOffset {
	if len(ti.entries) == 0 {
		return TimestampOffset{Timestamp: NoTimestamp, Offset: ti.idx.baseOffset}
	}
	return ti.at(len(ti.entries) - 1)
}

// MaybeAppend appends (timestamp, offset) if timestamp is above the last entry's
// (an equal or missing timestamp is skipped silently, as Kafka does). It fails
// with ErrIndexFull if the index is full, with ErrInvalidOffset if offset is
// below the last entry's or not representable, and with ErrInvalidTimestamp if
// timestamp is below the last entry's. skipFullCheck (the final entry on roll
// and close) lets the entry take the reserved last slot and, as in Kafka, skips
// the full check altogether: an entry that would be skipped is skipped even on
// a full index, and only one that would need a slot beyond the file fails with
// ErrIndexFull (where Kafka's mmap would overflow).
func (ti *TimeIndex) MaybeAppend(timestamp, offset int64, skipFullCheck bool) error {
	if !skipFullCheck && ti.IsFull() {
		return ti.fullError(timestamp, offset)
	}
	last := ti.LastEntry()
	if len(ti.entries) > 0 && offset < last.Offset {
		return fmt.Errorf("%w: offset %d appended to %s after offset %d", ErrInvalidOffset, offset, ti.idx.name(), last.Offset)
	}
	if len(ti.entries) > 0 && timestamp < last.Timestamp {
		return fmt.Errorf("%w: timestamp %d appended to %s after timestamp %d", ErrInvalidTimestamp, timestamp, ti.idx.name(), last.Timestamp)
	}
	if timestamp <= last.Timestamp {
		return nil
	}
	if len(ti.entries) >= ti.idx.maxEntries {
		return ti.fullError(timestamp, offset)
	}
	rel, err := ti.idx.relative(offset)
	if err != nil {
		return err
	}
	ti.entries = append(ti.entries, timeEntry{ts: timestamp, rel: rel})
	return nil
}

func (ti *TimeIndex) fullError(timestamp, offset int64) error {
	return fmt.Errorf("%w: append of (%d, %d) to %s with %d of %d entries", ErrIndexFull, timestamp, offset, ti.idx.name(), len(ti.entries), ti.idx.maxEntries)
}

func (ti *TimeIndex) timestampKey(i int) int64 { return ti.entries[i].ts }
func (ti *TimeIndex) offsetKey(i int) int64    { return ti.idx.baseOffset + int64(ti.entries[i].rel) }

// Lookup returns the entry with the largest timestamp ≤ ts, or (-1, base offset)
// if there is none. The caller then scans the log from that entry's offset for
// the first record with a timestamp ≥ ts.
func (ti *TimeIndex) Lookup(ts int64) TimestampOffset {
	lo, _ := slotRange(len(ti.entries), TimeIndexEntrySize, ti.timestampKey, ts)
	if lo < 0 {
		return TimestampOffset{Timestamp: NoTimestamp, Offset: ti.idx.baseOffset}
	}
	return ti.at(lo)
}

// TruncateTo removes every entry with offset ≥ offset, zeroing the slots already
// written back to a writable file (see OffsetIndex.TruncateTo).
func (ti *TimeIndex) TruncateTo(offset int64) error {
	keep := keptSlots(len(ti.entries), ti.offsetKey, offset)
	if err := ti.idx.dropSlots(keep); err != nil {
		return err
	}
	ti.entries = shrink(ti.entries, keep, &ti.shared)
	return nil
}

// Reset removes every entry and, if writable, zeroes the file at its maximum size.
func (ti *TimeIndex) Reset() error {
	ti.entries = shrink(ti.entries, 0, &ti.shared)
	return ti.idx.reset()
}

// SanityCheck returns ErrCorruptIndex if the file length is not a multiple of 12,
// the last timestamp is below the first or the last offset below the base offset
// (Kafka's checks), or, our addition, if timestamps or offsets ever go down
// between neighbouring entries.
func (ti *TimeIndex) SanityCheck() error {
	if err := ti.idx.checkLength(); err != nil {
		return err
	}
	n := len(ti.entries)
	if n == 0 {
		return nil
	}
	first, last := ti.at(0), ti.at(n-1)
	if last.Timestamp < first.Timestamp {
		return fmt.Errorf("%w: %s: last timestamp %d is below the first, %d", ErrCorruptIndex, ti.idx.name(), last.Timestamp, first.Timestamp)
	}
	if last.Offset < ti.idx.baseOffset {
		return fmt.Errorf("%w: %s: last offset %d is below base offset %d", ErrCorruptIndex, ti.idx.name(), last.Offset, ti.idx.baseOffset)
	}
	for i := 1; i < n; i++ {
		a, b := ti.entries[i-1], ti.entries[i]
		if b.ts < a.ts || b.rel < a.rel {
			return fmt.Errorf("%w: %s: entry %d %v does not follow entry %d %v", ErrCorruptIndex, ti.idx.name(), i, ti.at(i), i-1, ti.at(i-1))
		}
	}
	return nil
}

// TrimToValidSize writes the entries back and cuts the file to them.
func (ti *TimeIndex) TrimToValidSize() error { return ti.idx.trim(len(ti.entries), ti.encode) }

// Resize sets the file's length to roundDown(maxIndexSize, 12) and reports
// whether it changed; ErrIndexFull if the entries would not fit.
func (ti *TimeIndex) Resize(maxIndexSize int) (bool, error) {
	return ti.idx.resize(maxIndexSize, len(ti.entries))
}

// Sync writes the entries back (one write) and flushes the file to stable
// storage (Kafka's TimeIndex.flush, mmap.force).
func (ti *TimeIndex) Sync() error { return ti.idx.sync(len(ti.entries), ti.encode) }

// Close writes back and trims a writable index to its entries and closes the file.
func (ti *TimeIndex) Close() error { return ti.idx.close(len(ti.entries), ti.encode) }

// writeBack writes the entries appended since the last write-back to the file.
func (ti *TimeIndex) writeBack() error { return ti.idx.writeBack(len(ti.entries), ti.encode) }

// encode returns the file bytes of entries [from, to).
func (ti *TimeIndex) encode(from, to int) []byte {
	b := make([]byte, 0, (to-from)*TimeIndexEntrySize)
	for _, e := range ti.entries[from:to] {
		b = binary.BigEndian.AppendUint64(b, uint64(e.ts))
		b = binary.BigEndian.AppendUint32(b, uint32(e.rel))
	}
	return b
}

// DecodeTimeIndex decodes the bytes of a .timeindex file of the segment at base:
// every whole 12 bytes is an entry, in file order, unchecked. Trailing bytes give
// the entries and an ErrCorruptIndex error.
func DecodeTimeIndex(b []byte, base int64) ([]TimestampOffset, error) {
	out := make([]TimestampOffset, 0, len(b)/TimeIndexEntrySize)
	for i := 0; i+TimeIndexEntrySize <= len(b); i += TimeIndexEntrySize {
		ts := int64(binary.BigEndian.Uint64(b[i:]))
		rel := int32(binary.BigEndian.Uint32(b[i+8:]))
		out = append(out, TimestampOffset{Timestamp: ts, Offset: base + int64(rel)})
	}
	if r := len(b) % TimeIndexEntrySize; r != 0 {
		return out, fmt.Errorf("%w: length %d is not a multiple of %d (%d trailing bytes)", ErrCorruptIndex, len(b), TimeIndexEntrySize, r)
	}
	return out, nil
}
