package kafkalog

import (
	"fmt"
	"math"
	"sort"

	"github.com/kafkalive/kafkalive/vfs"
)

// The file side of the offset and time indexes (Kafka's AbstractIndex without
// the mmap): loading whole entries, preallocation, trimming, and the binary
// search both indexes share. The entry layouts are drawn on OffsetIndex and
// TimeIndex.

// warmIndexBytes is the tail of an index that lookups search first
// (AbstractIndex.warmEntries: 8192 bytes, 1024 offset entries).
const warmIndexBytes = 8192

// slotRange is Kafka's AbstractIndex.indexSlotRangeFor: over n sorted entries
// with keys key(i), it returns the slot of the largest key ≤ target and the slot
// of the smallest key ≥ target (-1 where none). It binary-searches the warm tail
// (the last warmIndexBytes of the file) first if the target lies in it, so that
// lookups by caught-up readers touch only recent pages.
func slotRange(n, entrySize int, key func(int) int64, target int64) (int, int) {
	if n == 0 {
		return -1, -1
	}
	firstHot := max(0, n-1-warmIndexBytes/entrySize)
	if key(firstHot) < target {
		return binarySearchSlots(n, firstHot, n-1, key, target)
	}
	if key(0) > target {
		return -1, 0
	}
	return binarySearchSlots(n, 0, firstHot, key, target)
}

// keptSlots returns how many of n entries, sorted by key, have a key below
// target: what an index keeps when truncated to target. Kafka's truncateTo
// finds the largest entry ≤ target and drops it if equal, which is the same for
// the offset index's distinct offsets; a time index may hold several entries
// with one offset (a later, larger timestamp), and all of them must go.
func keptSlots(n int, key func(int) int64, target int64) int {
	return sort.Search(n, func(i int) bool { return key(i) >= target })
}

func binarySearchSlots(n, lo, hi int, key func(int) int64, target int64) (int, int) {
	for lo < hi {
		mid := int(uint(lo+hi+1) >> 1)
		switch k := key(mid); {
		case k > target:
			hi = mid - 1
		case k < target:
			lo = mid
		default:
			return mid, mid
		}
	}
	if lo == n-1 {
		return lo, -1
	}
	return lo, lo + 1
}

// indexFile is the file side of an index shared by the offset and time indexes
// (Kafka's AbstractIndex without the mmap): length, preallocation, trimming, and
// write-back of the entries appended since the last write.
//
// Write-back. Kafka's indexes are mmapped: appending an entry is a store to a
// page the kernel writes out whenever it likes, and only flush() (mmap.force)
// makes it durable. Here the entries live in memory and the file is written
// behind them: slots [0, written) of the file hold the in-memory entries, slots
// from written on hold zeros (preallocation, or zeroed by a truncation). Appends
// touch only memory; writeBack writes the dirty slots [written, entries) with one
// WriteAt, and Sync, TrimToValidSize and Close call it first. So a roll, a flush,
// a clean close and the end of a recovery leave the file equal to the entries.
//
// After a process crash or a power cut, entries never written back are lost, just
// as Kafka's unflushed mmap pages are after a power cut: the file then ends in
// zeros (preallocation) where they would be. That is safe because the only index
// a crash can leave incomplete belongs to a segment at or beyond the recovery
// point, which Open recovers (rebuilding its indexes) after an unclean shutdown,
// and because the recovery point only advances past a segment after a flush that
// wrote back and fsynced that segment's indexes (Log.Flush, roll, Close).
type indexFile struct {
	f          vfs.File
	baseOffset int64
	entrySize  int
	writable   bool
	maxEntries int
	written    int   // slots [0, written) of the file hold the in-memory entries
	length     int64 // current file length
	openLength int64 // file length at open, before any resize; -1 once reset
	maxSize    int   // the maxIndexSize the index was opened or last resized with
}

// indexReadChunk bounds the memory used to load an index file.
const indexReadChunk = 64 << 10

// open loads every whole entry of f through decode and, if writable, grows the
// file to roundDown(maxIndexSize, entrySize). It returns the number of entries.
func (x *indexFile) open(f vfs.File, base int64, maxIndexSize int, writable bool, entrySize int, decode func([]byte)) (int, error) {
	*x = indexFile{f: f, baseOffset: base, entrySize: entrySize, writable: writable, maxSize: maxIndexSize}
	size, err := f.Size()
	if err != nil {
		return 0, fmt.Errorf("kafkalog: open index %s: %w", f.Name(), err)
	}
	x.length, x.openLength = size, size
	n := int(size / int64(entrySize))
	buf := make([]byte, min(int64(indexReadChunk/entrySize*entrySize), int64(n*entrySize)))
	for done := 0; done < n; {
		k := min(n-done, len(buf)/entrySize)
		chunk := buf[:k*entrySize]
		if err := vfs.ReadAtFull(f, chunk, int64(done*entrySize)); err != nil {
			return 0, fmt.Errorf("kafkalog: read index %s at %d: %w", f.Name(), done*entrySize, err)
		}
		for i := 0; i < len(chunk); i += entrySize {
			decode(chunk[i : i+entrySize])
		}
		done += k
	}
	x.maxEntries, x.written = n, n
	if writable {
		if _, err := x.resize(max(maxIndexSize, n*entrySize), n); err != nil {
			return 0, err
		}
	}
	return n, nil
}

func (x *indexFile) name() string { return x.f.Name() }

// relative converts an absolute offset to the int32 the file stores.
func (x *indexFile) relative(offset int64) (int32, error) {
	rel := offset - x.baseOffset
	if rel < 0 || rel > math.MaxInt32 {
		return 0, fmt.Errorf("%w: offset %d is not within 2^31-1 of base offset %d of %s", ErrInvalidOffset, offset, x.baseOffset, x.name())
	}
	return int32(rel), nil
}

// writeBack writes the dirty slots [written, entries) of the file in one WriteAt;
// encode returns the bytes of slots [from, to). It does nothing if no slot is dirty.
func (x *indexFile) writeBack(entries int, encode func(from, to int) []byte) error {
	if x.written >= entries {
		return nil
	}
	at := int64(x.written * x.entrySize)
	if _, err := x.f.WriteAt(encode(x.written, entries), at); err != nil {
		return fmt.Errorf("kafkalog: write index %s entries %d to %d: %w", x.name(), x.written, entries, err)
	}
	x.written = entries
	if end := int64(entries * x.entrySize); end > x.length {
		x.length = end
	}
	return nil
}

// resize sets the file length to roundDown(newSize, entrySize).
func (x *indexFile) resize(newSize, entries int) (bool, error) {
	rounded := int64(newSize / x.entrySize * x.entrySize)
	if rounded < int64(entries*x.entrySize) {
		return false, fmt.Errorf("%w: cannot resize %s to %d bytes, it holds %d entries", ErrIndexFull, x.name(), newSize, entries)
	}
	x.maxSize = newSize
	x.maxEntries = int(rounded) / x.entrySize
	if rounded == x.length {
		return false, nil
	}
	if err := x.f.Truncate(rounded); err != nil {
		return false, fmt.Errorf("kafkalog: resize index %s to %d bytes: %w", x.name(), rounded, err)
	}
	x.length = rounded
	return true, nil
}

// dropSlots forgets slots [keep, ...) of the file: the written ones among them are
// overwritten with zeros (a writable index), the dirty ones were never written.
func (x *indexFile) dropSlots(keep int) error {
	if keep >= x.written {
		return nil
	}
	if x.writable {
		zeros := make([]byte, (x.written-keep)*x.entrySize)
		if _, err := x.f.WriteAt(zeros, int64(keep*x.entrySize)); err != nil {
			return fmt.Errorf("kafkalog: truncate index %s to %d entries: %w", x.name(), keep, err)
		}
	}
	x.written = keep
	return nil
}

// trim writes back the dirty slots and cuts the file to its entries.
func (x *indexFile) trim(entries int, encode func(from, to int) []byte) error {
	if err := x.writeBack(entries, encode); err != nil {
		return err
	}
	_, err := x.resize(entries*x.entrySize, entries)
	return err
}

// sync writes back the dirty slots and fsyncs the file.
func (x *indexFile) sync(entries int, encode func(from, to int) []byte) error {
	if err := x.writeBack(entries, encode); err != nil {
		return err
	}
	if err := x.f.Sync(); err != nil {
		return fmt.Errorf("kafkalog: sync index %s: %w", x.name(), err)
	}
	return nil
}

func (x *indexFile) reset() error {
	x.written = 0
	if !x.writable {
		return nil
	}
	if err := x.f.Truncate(0); err != nil {
		return fmt.Errorf("kafkalog: reset index %s: %w", x.name(), err)
	}
	x.length, x.openLength = 0, -1
	_, err := x.resize(x.maxSize, 0)
	return err
}

// checkLength fails if the file, as it was when opened, did not hold a whole
// number of entries (a writable open has since rounded it down).
func (x *indexFile) checkLength() error {
	if x.openLength >= 0 && x.openLength%int64(x.entrySize) != 0 {
		return fmt.Errorf("%w: %s: length %d is not a multiple of the entry size %d", ErrCorruptIndex, x.name(), x.openLength, x.entrySize)
	}
	return nil
}

// close writes back and trims a writable index, then closes the file.
func (x *indexFile) close(entries int, encode func(from, to int) []byte) error {
	var err error
	if x.writable {
		err = x.trim(entries, encode)
	}
	if cerr := x.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("kafkalog: close index %s: %w", x.name(), cerr)
	}
	return err
}
