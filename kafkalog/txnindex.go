package kafkalog

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/vfs"
)

// Layout of a .txnindex entry (AbortedTxn.java), 34 bytes, big-endian:
//
//	offset  size  field
//	     0     2  version           0
//	     2     8  producerId
//	    10     8  firstOffset
//	    18     8  lastOffset        offset of the ABORT marker
//	    26     8  lastStableOffset
const (
	// TxnIndexEntrySize is the size of one aborted transaction entry.
	TxnIndexEntrySize = 34
	// AbortedTxnVersion is the only entry version.
	AbortedTxnVersion = 0
)

// AbortedTxn is an aborted transaction recorded in a segment's .txnindex: a
// reader of the range [FirstOffset, LastOffset] must drop ProducerID's records.
type AbortedTxn struct {
	// ProducerID of the transactional producer.
	ProducerID int64
	// FirstOffset is the first offset of the transaction.
	FirstOffset int64
	// LastOffset is the offset of the ABORT marker.
	LastOffset int64
	// LastStableOffset is the partition's LSO when the marker was written.
	LastStableOffset int64
}

// String prints the entry as Kafka's AbortedTxn.toString does.
func (t AbortedTxn) String() string {
	return fmt.Sprintf("AbortedTxn(producerId=%d, firstOffset=%d, lastOffset=%d, lastStableOffset=%d)",
		t.ProducerID, t.FirstOffset, t.LastOffset, t.LastStableOffset)
}

// AppendAbortedTxn appends the 34-byte entry for t to dst.
func AppendAbortedTxn(dst []byte, t AbortedTxn) []byte {
	be := binary.BigEndian
	dst = be.AppendUint16(dst, AbortedTxnVersion)
	dst = be.AppendUint64(dst, uint64(t.ProducerID))
	dst = be.AppendUint64(dst, uint64(t.FirstOffset))
	dst = be.AppendUint64(dst, uint64(t.LastOffset))
	return be.AppendUint64(dst, uint64(t.LastStableOffset))
}

// DecodeTxnIndex decodes the bytes of a .txnindex file. It stops at the first
// entry with a version other than 0 (Kafka: KafkaException "Unexpected aborted
// transaction version") or at a partial trailing entry, returning the entries
// before it and an ErrCorruptIndex error.
func DecodeTxnIndex(b []byte) ([]AbortedTxn, error) {
	be := binary.BigEndian
	out := make([]AbortedTxn, 0, len(b)/TxnIndexEntrySize)
	for pos := 0; pos < len(b); pos += TxnIndexEntrySize {
		if len(b)-pos < TxnIndexEntrySize {
			return out, fmt.Errorf("%w: %d trailing bytes at position %d, an entry takes %d", ErrCorruptIndex, len(b)-pos, pos, TxnIndexEntrySize)
		}
		p := b[pos:]
		if v := int16(be.Uint16(p)); v != AbortedTxnVersion {
			return out, fmt.Errorf("%w: unexpected aborted transaction version %d at position %d", ErrCorruptIndex, v, pos)
		}
		out = append(out, AbortedTxn{
			ProducerID:       int64(be.Uint64(p[2:])),
			FirstOffset:      int64(be.Uint64(p[10:])),
			LastOffset:       int64(be.Uint64(p[18:])),
			LastStableOffset: int64(be.Uint64(p[26:])),
		})
	}
	return out, nil
}

// TxnIndex is a segment's transaction index (.txnindex, TransactionIndex.java):
// the aborted transactions whose ABORT marker lies in the segment, in marker
// order. The file is not preallocated. Not safe for concurrent use.
type TxnIndex struct {
	f          vfs.File
	baseOffset int64
	entries    []AbortedTxn
	// shared is how many entries a clone may read in the same array (see
	// shrink): neither side writes in place below it.
	shared  int
	loadErr error // what was wrong with the file content at open
}

// OpenTxnIndex loads the transaction index in f for the segment at baseOffset.
// Damaged content does not fail the open: the readable entries are kept and
// SanityCheck reports the damage (recovery then resets the index).
func OpenTxnIndex(f vfs.File, baseOffset int64) (*TxnIndex, error) {
	size, err := f.Size()
	if err != nil {
		return nil, fmt.Errorf("kafkalog: open txn index %s: %w", f.Name(), err)
	}
	if size > maxSmallFile {
		return nil, fmt.Errorf("kafkalog: open txn index %s: %w: %d bytes", f.Name(), ErrTooLarge, size)
	}
	b := make([]byte, size)
	if err := vfs.ReadAtFull(f, b, 0); err != nil {
		return nil, fmt.Errorf("kafkalog: read txn index %s: %w", f.Name(), err)
	}
	entries, derr := DecodeTxnIndex(b)
	ti := &TxnIndex{f: f, baseOffset: baseOffset, entries: entries}
	if derr != nil {
		ti.loadErr = fmt.Errorf("%s: %w", f.Name(), derr)
	}
	return ti, nil
}

// BaseOffset returns the base offset of the segment the index belongs to.
func (ti *TxnIndex) BaseOffset() int64 { return ti.baseOffset }

// AllAbortedTxns returns a copy of the entries.
func (ti *TxnIndex) AllAbortedTxns() []AbortedTxn { return append([]AbortedTxn(nil), ti.entries...) }

// Append records an aborted transaction. Its LastOffset must be above the last
// entry's (ErrInvalidOffset; Kafka: IllegalArgumentException).
func (ti *TxnIndex) Append(t AbortedTxn) error {
	if n := len(ti.entries); n > 0 && t.LastOffset <= ti.entries[n-1].LastOffset {
		return fmt.Errorf("%w: aborted transaction last offset %d is not above %d in %s", ErrInvalidOffset, t.LastOffset, ti.entries[n-1].LastOffset, ti.f.Name())
	}
	pos := int64(len(ti.entries)) * TxnIndexEntrySize
	if _, err := ti.f.WriteAt(AppendAbortedTxn(nil, t), pos); err != nil {
		return fmt.Errorf("kafkalog: append to txn index %s: %w", ti.f.Name(), err)
	}
	ti.entries = append(ti.entries, t)
	return nil
}

// CollectAbortedTxns returns the aborted transactions that overlap a fetch of
// [fetchOffset, upperBoundOffset): LastOffset ≥ fetchOffset and FirstOffset <
// upperBoundOffset. complete is true if an entry with LastStableOffset ≥
// upperBoundOffset was seen, so later segments need not be searched.
func (ti *TxnIndex) CollectAbortedTxns(fetchOffset, upperBoundOffset int64) (txns []AbortedTxn, complete bool) {
	for _, t := range ti.entries {
		if t.LastOffset >= fetchOffset && t.FirstOffset < upperBoundOffset {
			txns = append(txns, t)
		}
		if t.LastStableOffset >= upperBoundOffset {
			return txns, true
		}
	}
	return txns, false
}

// TruncateTo removes the entries whose LastOffset ≥ offset, cutting the file.
func (ti *TxnIndex) TruncateTo(offset int64) error {
	n := 0
	for n < len(ti.entries) && ti.entries[n].LastOffset < offset {
		n++
	}
	return ti.truncateEntries(n)
}

// Reset removes every entry and empties the file.
func (ti *TxnIndex) Reset() error {
	ti.loadErr = nil
	return ti.truncateEntries(0)
}

func (ti *TxnIndex) truncateEntries(n int) error {
	if err := ti.f.Truncate(int64(n) * TxnIndexEntrySize); err != nil {
		return fmt.Errorf("kafkalog: truncate txn index %s: %w", ti.f.Name(), err)
	}
	ti.entries = shrink(ti.entries, n, &ti.shared)
	return nil
}

// SanityCheck returns ErrCorruptIndex if the file content was damaged at open, or
// if an entry's LastOffset is below the segment's base offset (Kafka's check).
func (ti *TxnIndex) SanityCheck() error {
	if ti.loadErr != nil {
		return ti.loadErr
	}
	for _, t := range ti.entries {
		if t.LastOffset < ti.baseOffset {
			return fmt.Errorf("%w: %s: last offset of %v is below the base offset %d", ErrCorruptIndex, ti.f.Name(), t, ti.baseOffset)
		}
	}
	return nil
}

// Sync flushes the file to stable storage.
func (ti *TxnIndex) Sync() error { return ti.f.Sync() }

// Entries returns how many aborted transactions the index holds.
func (ti *TxnIndex) Entries() int { return len(ti.entries) }

// share returns the entries for a clone to hold, which neither it nor ti
// writes in place afterwards (see shrink).
func (ti *TxnIndex) share() []AbortedTxn {
	ti.shared = len(ti.entries)
	return slices.Clip(ti.entries)
}

// Close closes the file.
func (ti *TxnIndex) Close() error { return ti.f.Close() }
