package kafkalog

import (
	"encoding/binary"
	"fmt"
)

// Control records (ControlRecordType.java, EndTransactionMarker.java). A control
// batch (attribute bit 5) holds records whose key says what they are:
//
//	key    int16 version (0)  int16 type
//	value  depends on the type; for ABORT and COMMIT (EndTransactionMarker):
//	       int16 version (0)  int32 coordinatorEpoch
//
// Transaction markers are also transactional (bit 4), carry the transaction's
// producer id and epoch, baseSequence -1, and exactly one record. KRaft's
// metadata log uses the other types (LEADER_CHANGE first, then snapshot and
// voter records); their values are KRaft messages this package does not parse.

// ControlRecordType is the type in a control record's key.
type ControlRecordType int16

// Control record types; part of the format. ControlUnknown stands for any id
// this version does not know (Kafka ignores such records).
const (
	ControlUnknown        ControlRecordType = -1
	ControlAbort          ControlRecordType = 0
	ControlCommit         ControlRecordType = 1
	ControlLeaderChange   ControlRecordType = 2
	ControlSnapshotHeader ControlRecordType = 3
	ControlSnapshotFooter ControlRecordType = 4
	ControlKRaftVersion   ControlRecordType = 5
	ControlKRaftVoters    ControlRecordType = 6
)

// controlRecordKeyLen is the size of a control record key (version + type).
const controlRecordKeyLen = 4

// endTxnMarkerLen is the size of an end-transaction marker value (version + epoch).
const endTxnMarkerLen = 6

// String returns Kafka's name for t ("ABORT", "COMMIT", "LEADER_CHANGE"...).
func (t ControlRecordType) String() string {
	switch t {
	case ControlAbort:
		return "ABORT"
	case ControlCommit:
		return "COMMIT"
	case ControlLeaderChange:
		return "LEADER_CHANGE"
	case ControlSnapshotHeader:
		return "SNAPSHOT_HEADER"
	case ControlSnapshotFooter:
		return "SNAPSHOT_FOOTER"
	case ControlKRaftVersion:
		return "KRAFT_VERSION"
	case ControlKRaftVoters:
		return "KRAFT_VOTERS"
	}
	return "UNKNOWN"
}

// IsTxnMarker reports whether t ends a transaction (ABORT or COMMIT).
func (t ControlRecordType) IsTxnMarker() bool { return t == ControlAbort || t == ControlCommit }

// ControlRecordKey is the key of a control record.
type ControlRecordKey struct {
	// Version of the key schema; Kafka writes 0 and reads any higher version as 0.
	Version int16
	// Type says what the record is. Ids this package does not know read as
	// ControlUnknown; TypeID keeps the id as stored.
	Type ControlRecordType
	// TypeID is the type id as stored in the key.
	TypeID int16
}

// ParseControlRecordKey parses the key of a control record. Like Kafka, it
// rejects a key shorter than 4 bytes or with a negative version, ignores bytes
// after the first 4, and maps unknown type ids to ControlUnknown.
func ParseControlRecordKey(key []byte) (ControlRecordKey, error) {
	if len(key) < controlRecordKeyLen {
		return ControlRecordKey{}, fmt.Errorf("%w: control record key of %d bytes, at least %d needed", ErrInvalidRecord, len(key), controlRecordKeyLen)
	}
	k := ControlRecordKey{
		Version: int16(binary.BigEndian.Uint16(key)),
		TypeID:  int16(binary.BigEndian.Uint16(key[2:])),
	}
	if k.Version < 0 {
		return ControlRecordKey{}, fmt.Errorf("%w: control record key version %d", ErrInvalidRecord, k.Version)
	}
	k.Type = ControlRecordType(k.TypeID)
	if k.TypeID < int16(ControlAbort) || k.TypeID > int16(ControlKRaftVoters) {
		k.Type = ControlUnknown
	}
	return k, nil
}

// AppendControlRecordKey appends the 4-byte key of a control record of type t
// (version 0) to dst.
func AppendControlRecordKey(dst []byte, t ControlRecordType) []byte {
	dst = binary.BigEndian.AppendUint16(dst, 0)
	return binary.BigEndian.AppendUint16(dst, uint16(t))
}

// EndTxnMarker is the value of an ABORT or COMMIT control record.
type EndTxnMarker struct {
	// Version of the value schema; Kafka writes 0 and reads higher versions as 0.
	Version int16
	// CoordinatorEpoch is the epoch of the transaction coordinator that wrote the
	// marker, used to fence markers from a stale coordinator.
	CoordinatorEpoch int32
}

// ParseEndTxnMarker parses the value of an ABORT or COMMIT control record. A
// null or short value or a negative version is ErrInvalidRecord; bytes after
// the first 6 are ignored, as Kafka does.
func ParseEndTxnMarker(value []byte) (EndTxnMarker, error) {
	if len(value) < endTxnMarkerLen {
		return EndTxnMarker{}, fmt.Errorf("%w: end transaction marker of %d bytes, at least %d needed", ErrInvalidRecord, len(value), endTxnMarkerLen)
	}
	m := EndTxnMarker{
		Version:          int16(binary.BigEndian.Uint16(value)),
		CoordinatorEpoch: int32(binary.BigEndian.Uint32(value[2:])),
	}
	if m.Version < 0 {
		return EndTxnMarker{}, fmt.Errorf("%w: end transaction marker version %d", ErrInvalidRecord, m.Version)
	}
	return m, nil
}

// AppendTo appends the 6-byte marker value (version 0) to dst.
func (m EndTxnMarker) AppendTo(dst []byte) []byte {
	dst = binary.BigEndian.AppendUint16(dst, 0)
	return binary.BigEndian.AppendUint32(dst, uint32(m.CoordinatorEpoch))
}

// NewEndTxnMarkerBatch returns the control batch a transaction coordinator has
// the leader write to end a transaction (MemoryRecords.withEndTransactionMarker):
// transactional + control, baseSequence -1, one record at offset delta 0 whose
// key is t and whose value is the marker. t must be ControlAbort or ControlCommit.
func NewEndTxnMarkerBatch(baseOffset, timestamp, producerID int64, producerEpoch int16, t ControlRecordType, coordinatorEpoch int32) RecordBatch {
	return RecordBatch{
		BatchHeader: BatchHeader{
			BaseOffset:           baseOffset,
			PartitionLeaderEpoch: NoPartitionLeaderEpoch,
			Magic:                MagicV2,
			Attributes:           NewAttributes(CompressionNone, CreateTime, true, true),
			BaseTimestamp:        timestamp,
			MaxTimestamp:         timestamp,
			ProducerID:           producerID,
			ProducerEpoch:        producerEpoch,
			BaseSequence:         NoSequence,
			NumRecords:           1,
		},
		Records: []Record{{
			Key:   AppendControlRecordKey(nil, t),
			Value: EndTxnMarker{CoordinatorEpoch: coordinatorEpoch}.AppendTo(nil),
		}},
	}
}
