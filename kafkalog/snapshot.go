package kafkalog

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/kafkalive/kafkalive/vfs"
)

// ErrCorruptSnapshot means a producer state snapshot failed to read: unknown
// version, CRC mismatch, or a length that does not match its entries (Kafka's
// CorruptSnapshotException). The broker then rebuilds producer state from the log.
var ErrCorruptSnapshot = errors.New("kafkalog: corrupt producer snapshot")

// Layout of a producer state snapshot (.snapshot) version 1
// (ProducerStateManager.java, ProducerSnapshot.json), big-endian:
//
//	offset  size  field
//	     0     2  version                1
//	     2     4  crc                    CRC-32C of bytes [6, end)
//	     6     4  count                  number of entries
//	    10    46  entry × count:
//	               +0  8  producerId
//	               +8  2  producerEpoch
//	              +10  4  lastSequence
//	              +14  8  lastOffset
//	              +22  4  offsetDelta
//	              +26  8  timestamp
//	              +34  4  coordinatorEpoch
//	              +38  8  currentTxnFirstOffset  (-1: none)
//
// An empty snapshot is the 10 bytes 00 01 48 67 4b c7 00 00 00 00.
const (
	// ProducerSnapshotVersion is the only version Kafka writes and reads.
	ProducerSnapshotVersion = 1
	// producerSnapshotHeaderLen is version int16, crc uint32, entry count int32.
	producerSnapshotHeaderLen = 10
	// producerSnapshotCRCStart is where the CRC-32C coverage begins (the count).
	producerSnapshotCRCStart = 6
	// ProducerSnapshotEntryLen is the size of one entry.
	ProducerSnapshotEntryLen = 46
)

// ProducerSnapshotEntry is one producer's state in a .snapshot file.
type ProducerSnapshotEntry struct {
	// ProducerID of the idempotent or transactional producer.
	ProducerID int64
	// ProducerEpoch is the producer's current epoch.
	ProducerEpoch int16
	// LastSequence is the sequence number of the last record of its last batch.
	LastSequence int32
	// LastOffset is the offset of the last record of its last batch.
	LastOffset int64
	// OffsetDelta is that batch's lastOffset − baseOffset, so the first sequence
	// is DecrementSequence(LastSequence, OffsetDelta).
	OffsetDelta int32
	// Timestamp is the max timestamp of the last batch.
	Timestamp int64
	// CoordinatorEpoch is the epoch of the last transaction coordinator that wrote
	// a marker for this producer (-1 if none).
	CoordinatorEpoch int32
	// CurrentTxnFirstOffset is the first offset of its open transaction, or -1.
	CurrentTxnFirstOffset int64
}

// FirstSequence returns the sequence of the first record of the last batch.
func (e ProducerSnapshotEntry) FirstSequence() int32 {
	return DecrementSequence(e.LastSequence, e.OffsetDelta)
}

// ReadProducerSnapshot decodes the bytes of a .snapshot file. It checks the
// version (1), the CRC-32C of bytes [6, end), and that the entry count matches
// the bytes present exactly (Kafka ignores trailing bytes after the entries,
// which the CRC covers; we report them).
func ReadProducerSnapshot(b []byte) ([]ProducerSnapshotEntry, error) {
	if len(b) < producerSnapshotHeaderLen {
		return nil, fmt.Errorf("%w: %d bytes, a snapshot header takes %d", ErrCorruptSnapshot, len(b), producerSnapshotHeaderLen)
	}
	if v := int16(binary.BigEndian.Uint16(b)); v != ProducerSnapshotVersion {
		return nil, fmt.Errorf("%w: unknown file version %d", ErrCorruptSnapshot, v)
	}
	stored, computed := binary.BigEndian.Uint32(b[2:]), CRC32C(b[producerSnapshotCRCStart:])
	if stored != computed {
		return nil, fmt.Errorf("%w: CRC is no longer valid: stored crc %d, computed crc %d", ErrCorruptSnapshot, stored, computed)
	}
	n := int32(binary.BigEndian.Uint32(b[6:]))
	body := b[producerSnapshotHeaderLen:]
	if n < 0 || int64(n)*ProducerSnapshotEntryLen != int64(len(body)) {
		return nil, fmt.Errorf("%w: %d entries declared, %d bytes of entries present", ErrCorruptSnapshot, n, len(body))
	}
	out := make([]ProducerSnapshotEntry, n)
	for i := range out {
		out[i] = decodeSnapshotEntry(body[i*ProducerSnapshotEntryLen:])
	}
	return out, nil
}

func decodeSnapshotEntry(p []byte) ProducerSnapshotEntry {
	be := binary.BigEndian
	return ProducerSnapshotEntry{
		ProducerID:            int64(be.Uint64(p)),
		ProducerEpoch:         int16(be.Uint16(p[8:])),
		LastSequence:          int32(be.Uint32(p[10:])),
		LastOffset:            int64(be.Uint64(p[14:])),
		OffsetDelta:           int32(be.Uint32(p[22:])),
		Timestamp:             int64(be.Uint64(p[26:])),
		CoordinatorEpoch:      int32(be.Uint32(p[34:])),
		CurrentTxnFirstOffset: int64(be.Uint64(p[38:])),
	}
}

// AppendProducerSnapshot appends a version 1 snapshot of entries to dst, CRC
// included. Kafka writes entries in producer id order; so should the caller.
func AppendProducerSnapshot(dst []byte, entries []ProducerSnapshotEntry) []byte {
	be := binary.BigEndian
	start := len(dst)
	dst = be.AppendUint16(dst, ProducerSnapshotVersion)
	dst = be.AppendUint32(dst, 0)
	dst = be.AppendUint32(dst, uint32(len(entries)))
	for _, e := range entries {
		dst = be.AppendUint64(dst, uint64(e.ProducerID))
		dst = be.AppendUint16(dst, uint16(e.ProducerEpoch))
		dst = be.AppendUint32(dst, uint32(e.LastSequence))
		dst = be.AppendUint64(dst, uint64(e.LastOffset))
		dst = be.AppendUint32(dst, uint32(e.OffsetDelta))
		dst = be.AppendUint64(dst, uint64(e.Timestamp))
		dst = be.AppendUint32(dst, uint32(e.CoordinatorEpoch))
		dst = be.AppendUint64(dst, uint64(e.CurrentTxnFirstOffset))
	}
	be.PutUint32(dst[start+2:], CRC32C(dst[start+producerSnapshotCRCStart:]))
	return dst
}

// ReadProducerSnapshotFile reads and decodes the .snapshot file at name.
func ReadProducerSnapshotFile(fsys vfs.FS, name string) ([]ProducerSnapshotEntry, error) {
	b, err := readWholeFile(fsys, name)
	if err != nil {
		return nil, err
	}
	entries, err := ReadProducerSnapshot(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return entries, nil
}

// WriteProducerSnapshotFile writes entries to the .snapshot file at name and, if
// sync, fsyncs it (Kafka writes the file in place and forces it; the snapshot at
// a segment roll is synced asynchronously).
func WriteProducerSnapshotFile(fsys vfs.FS, name string, entries []ProducerSnapshotEntry, sync bool) error {
	f, err := fsys.Create(name)
	if err != nil {
		return fmt.Errorf("kafkalog: write snapshot %s: %w", name, err)
	}
	_, err = f.WriteAt(AppendProducerSnapshot(nil, entries), 0)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("kafkalog: write snapshot %s: %w", name, err)
	}
	return nil
}
