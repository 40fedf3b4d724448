package kafkalog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// The records of __transaction_state, the transaction coordinators' compacted
// log (Kafka's TransactionLogKey and TransactionLogValue, read and written by
// TransactionLog): one record per state change of a transactional id, keyed
// by the id, its latest value the transaction's state. Big-endian.
//
//	key    int16 version 0, string transactionalId (int16 length, UTF-8)
//	value  int16 version, then
//	  v0:  int64 producerId, int16 producerEpoch, int32 transactionTimeoutMs,
//	       int8 transactionStatus, transactionPartitions: int32 count (-1:
//	       null, the Empty state's) of {string topic, int32 count, int32
//	       partition...}, int64 lastUpdateTimestampMs, int64 startTimestampMs
//	  v1:  the same fields, flexible (KIP-482): the array and its strings
//	       compact (unsigned varint length + 1, 0 for null), a tag buffer
//	       after each partitions entry and at the end, whose tags are 0
//	       previousProducerId, 1 nextProducerId (int64, default -1) and 2
//	       clientTransactionVersion (int16, default 0), each written only
//	       when not its default (KIP-890; written by Kafka 4.0's coordinators
//	       with transaction.version 1 or more, TransactionVersion.
//	       transactionLogValueVersion). Kafka 3.7 writes v0 and reads both.
//	a tombstone (an expired transactional id) has a null value.
const (
	txnLogKeyVersion    int16 = 0
	txnLogValueVersion1 int16 = 1
)

// ErrCorruptTxnLogRecord means bytes of a __transaction_state record that do
// not read as one (an unknown version, a field cut short).
var ErrCorruptTxnLogRecord = errors.New("kafkalog: corrupt __transaction_state record")

// TxnState is the state of a transactional id at its coordinator
// (TransactionState), stored as its id.
type TxnState int8

// The transaction states, with their ids in the log.
const (
	// TxnEmpty: no transaction open (after InitProducerId).
	TxnEmpty TxnState = 0
	// TxnOngoing: partitions or offsets were added to the transaction.
	TxnOngoing TxnState = 1
	// TxnPrepareCommit: EndTxn(commit) was written; the markers go out.
	TxnPrepareCommit TxnState = 2
	// TxnPrepareAbort: an abort (EndTxn, a timeout, a fencing) was written.
	TxnPrepareAbort TxnState = 3
	// TxnCompleteCommit: every partition holds the COMMIT marker.
	TxnCompleteCommit TxnState = 4
	// TxnCompleteAbort: every partition holds the ABORT marker.
	TxnCompleteAbort TxnState = 5
	// TxnDead: the transactional id expired and is being removed.
	TxnDead TxnState = 6
	// TxnPrepareEpochFence: an epoch bump fencing the producer is in
	// progress (never written: the abort it leads to is).
	TxnPrepareEpochFence TxnState = 7
)

var txnStateNames = [...]string{"Empty", "Ongoing", "PrepareCommit", "PrepareAbort", "CompleteCommit", "CompleteAbort", "Dead", "PrepareEpochFence"}

// String returns the state's name as DescribeTransactions and
// kafka-transactions print it ("Ongoing").
func (s TxnState) String() string {
	if s < 0 || int(s) >= len(txnStateNames) {
		return fmt.Sprintf("TxnState(%d)", int8(s))
	}
	return txnStateNames[s]
}

// ParseTxnState returns the state named name (as String prints it).
func ParseTxnState(name string) (TxnState, bool) {
	i := slices.Index(txnStateNames[:], name)
	return TxnState(i), i >= 0
}

// TxnLogValue is the value of a __transaction_state record: a transactional
// id's state as its coordinator last wrote it.
type TxnLogValue struct {
	// Version is the value's schema version: 0 (Kafka 3.x) or 1 (flexible,
	// Kafka 4.0 with transaction.version 1+).
	Version int16
	// ProducerID is the producer id in use by the transactional id.
	ProducerID int64
	// PreviousProducerID (v1, default -1) is the producer id of the last
	// transaction, after an epoch overflow gave a new one (KIP-890).
	PreviousProducerID int64
	// NextProducerID (v1, default -1) is the producer id the coordinator
	// handed the producer after an epoch overflow, not yet in use.
	NextProducerID int64
	// ProducerEpoch is the producer's epoch.
	ProducerEpoch int16
	// TransactionTimeoutMs is the producer's transaction.timeout.ms.
	TransactionTimeoutMs int32
	// State is the transaction's state.
	State TxnState
	// Partitions are the partitions in the transaction, nil in the Empty
	// state (written as a null array).
	Partitions []TopicPartition
	// LastUpdateTimestampMs and StartTimestampMs are when the state last
	// changed and when the transaction began (-1 if none).
	LastUpdateTimestampMs, StartTimestampMs int64
	// ClientTransactionVersion (v1, default 0) is the transaction version the
	// producer used (2: KIP-890's epoch bump per transaction).
	ClientTransactionVersion int16
}

// AppendTxnLogKey appends the key of transactional id to dst.
func AppendTxnLogKey(dst []byte, transactionalID string) []byte {
	dst = binary.BigEndian.AppendUint16(dst, uint16(txnLogKeyVersion))
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(transactionalID)))
	return append(dst, transactionalID...)
}

// ParseTxnLogKey returns the transactional id of a key.
func ParseTxnLogKey(key []byte) (string, error) {
	if len(key) < 2 {
		return "", fmt.Errorf("%w: key of %d bytes", ErrCorruptTxnLogRecord, len(key))
	}
	if v := int16(binary.BigEndian.Uint16(key)); v != txnLogKeyVersion {
		return "", fmt.Errorf("%w: key version %d", ErrCorruptTxnLogRecord, v)
	}
	r := txnReader{b: key[2:]}
	id := r.string(false)
	if r.err != nil {
		return "", fmt.Errorf("%w: key: %w", ErrCorruptTxnLogRecord, r.err)
	}
	return id, nil
}

// AppendTxnLogValue appends v at v.Version (0 or 1) to dst, its partitions
// grouped by topic. Kafka groups them with Scala's hash collections, whose
// iteration order carries no meaning; here the topics and partitions are in
// the order of v.Partitions' first sight of each topic.
func AppendTxnLogValue(dst []byte, v TxnLogValue) []byte {
	be := binary.BigEndian
	flexible := v.Version >= txnLogValueVersion1
	dst = be.AppendUint16(dst, uint16(v.Version))
	dst = be.AppendUint64(dst, uint64(v.ProducerID))
	dst = be.AppendUint16(dst, uint16(v.ProducerEpoch))
	dst = be.AppendUint32(dst, uint32(v.TransactionTimeoutMs))
	dst = append(dst, byte(v.State))
	groups := groupByTopic(v.Partitions)
	switch {
	case v.Partitions == nil && flexible:
		dst = append(dst, 0)
	case v.Partitions == nil:
		dst = be.AppendUint32(dst, 0xffffffff)
	case flexible:
		dst = AppendUvarint(dst, uint32(len(groups)+1))
	default:
		dst = be.AppendUint32(dst, uint32(len(groups)))
	}
	for _, g := range groups {
		if flexible {
			dst = AppendUvarint(dst, uint32(len(g.topic)+1))
			dst = append(dst, g.topic...)
			dst = AppendUvarint(dst, uint32(len(g.partitions)+1))
		} else {
			dst = be.AppendUint16(dst, uint16(len(g.topic)))
			dst = append(dst, g.topic...)
			dst = be.AppendUint32(dst, uint32(len(g.partitions)))
		}
		for _, p := range g.partitions {
			dst = be.AppendUint32(dst, uint32(p))
		}
		if flexible {
			dst = append(dst, 0) // no tagged fields
		}
	}
	dst = be.AppendUint64(dst, uint64(v.LastUpdateTimestampMs))
	dst = be.AppendUint64(dst, uint64(v.StartTimestampMs))
	if !flexible {
		return dst
	}
	var tags [][]byte
	if v.PreviousProducerID != -1 {
		tags = append(tags, be.AppendUint64([]byte{0, 8}, uint64(v.PreviousProducerID)))
	}
	if v.NextProducerID != -1 {
		tags = append(tags, be.AppendUint64([]byte{1, 8}, uint64(v.NextProducerID)))
	}
	if v.ClientTransactionVersion != 0 {
		tags = append(tags, be.AppendUint16([]byte{2, 2}, uint16(v.ClientTransactionVersion)))
	}
	dst = AppendUvarint(dst, uint32(len(tags)))
	for _, t := range tags {
		dst = append(dst, t...)
	}
	return dst
}

type topicGroup struct {
	topic      string
	partitions []int32
}

func groupByTopic(tps []TopicPartition) []topicGroup {
	var out []topicGroup
	for _, tp := range tps {
		i := slices.IndexFunc(out, func(g topicGroup) bool { return g.topic == tp.Topic })
		if i < 0 {
			out = append(out, topicGroup{topic: tp.Topic})
			i = len(out) - 1
		}
		out[i].partitions = append(out[i].partitions, tp.Partition)
	}
	return out
}

// ParseTxnLogValue reads a value of version 0 or 1 (Kafka 3.7's
// readTxnRecordValue). The caller treats a null value as a tombstone. The
// partitions of a value in the Empty state are dropped, as Kafka drops
// them.
func ParseTxnLogValue(value []byte) (TxnLogValue, error) {
	if len(value) < 2 {
		return TxnLogValue{}, fmt.Errorf("%w: value of %d bytes", ErrCorruptTxnLogRecord, len(value))
	}
	v := TxnLogValue{Version: int16(binary.BigEndian.Uint16(value)), PreviousProducerID: -1, NextProducerID: -1}
	if v.Version != 0 && v.Version != txnLogValueVersion1 {
		return TxnLogValue{}, fmt.Errorf("%w: unknown version %d from the transaction log message value", ErrCorruptTxnLogRecord, v.Version)
	}
	flexible := v.Version == txnLogValueVersion1
	r := txnReader{b: value[2:]}
	v.ProducerID = int64(r.u64())
	v.ProducerEpoch = int16(r.u16())
	v.TransactionTimeoutMs = int32(r.u32())
	v.State = TxnState(r.u8())
	n := r.arrayLen(flexible)
	if n >= 0 {
		v.Partitions = []TopicPartition{}
	}
	for i := 0; i < n && r.err == nil; i++ {
		topic := r.string(flexible)
		m := r.arrayLen(flexible)
		for j := 0; j < m && r.err == nil; j++ {
			v.Partitions = append(v.Partitions, TopicPartition{Topic: topic, Partition: int32(r.u32())})
		}
		if flexible {
			r.skipTags()
		}
	}
	v.LastUpdateTimestampMs = int64(r.u64())
	v.StartTimestampMs = int64(r.u64())
	if flexible {
		r.tags(func(tag uint32, data []byte) {
			switch {
			case tag == 0 && len(data) == 8:
				v.PreviousProducerID = int64(binary.BigEndian.Uint64(data))
			case tag == 1 && len(data) == 8:
				v.NextProducerID = int64(binary.BigEndian.Uint64(data))
			case tag == 2 && len(data) == 2:
				v.ClientTransactionVersion = int16(binary.BigEndian.Uint16(data))
			}
		})
	}
	if r.err != nil {
		return TxnLogValue{}, fmt.Errorf("%w: value: %w", ErrCorruptTxnLogRecord, r.err)
	}
	if v.State < TxnEmpty || v.State > TxnPrepareEpochFence {
		return TxnLogValue{}, fmt.Errorf("%w: unknown transaction state id %d from the transaction status message", ErrCorruptTxnLogRecord, v.State)
	}
	if v.State == TxnEmpty {
		v.Partitions = nil
	}
	return v, nil
}

// FormatTxnLogRecord prints a __transaction_state record as kafka-dump-log
// --transaction-log-decoder does (TransactionLog.formatRecordKeyAndValue):
// the key as "transaction_metadata::transactionalId=<id>", the value as
// "producerId:<id>,producerEpoch:<epoch>,state=<state>,partitions=[t-0,t-1],
// txnLastUpdateTimestamp=<ms>,txnTimeoutMs=<ms>", or "<DELETE>" for a
// tombstone; a key of an unknown version as "unknown::version=<v>" with no
// value (hasValue false).
func FormatTxnLogRecord(key, value []byte) (keyText, valueText string, hasValue bool, err error) {
	if len(key) >= 2 {
		if v := int16(binary.BigEndian.Uint16(key)); v != txnLogKeyVersion {
			return fmt.Sprintf("unknown::version=%d", v), "", false, nil
		}
	}
	id, err := ParseTxnLogKey(key)
	if err != nil {
		return "", "", false, err
	}
	keyText = "transaction_metadata::transactionalId=" + id
	if value == nil {
		return keyText, "<DELETE>", true, nil
	}
	v, err := ParseTxnLogValue(value)
	if err != nil {
		return keyText, "", false, err
	}
	parts := make([]string, len(v.Partitions))
	for i, tp := range v.Partitions {
		parts[i] = tp.String()
	}
	return keyText, fmt.Sprintf("producerId:%d,producerEpoch:%d,state=%s,partitions=[%s],txnLastUpdateTimestamp=%d,txnTimeoutMs=%d",
		v.ProducerID, v.ProducerEpoch, v.State, strings.Join(parts, ","), v.LastUpdateTimestampMs, v.TransactionTimeoutMs), true, nil
}

// txnReader reads the fields of a record, remembering the first error.
type txnReader struct {
	b   []byte
	err error
}

func (r *txnReader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.b) < n {
		r.err = fmt.Errorf("%w: %d bytes wanted, %d left", ErrTruncated, n, len(r.b))
		r.b = nil
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *txnReader) u8() uint8 {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *txnReader) u16() uint16 {
	if b := r.take(2); b != nil {
		return binary.BigEndian.Uint16(b)
	}
	return 0
}

func (r *txnReader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.BigEndian.Uint32(b)
	}
	return 0
}

func (r *txnReader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.BigEndian.Uint64(b)
	}
	return 0
}

func (r *txnReader) uvarint() uint32 {
	if r.err != nil {
		return 0
	}
	v, n := Uvarint(r.b)
	if n <= 0 {
		r.err = fmt.Errorf("%w: unsigned varint", ErrVarintOverflow)
		return 0
	}
	r.b = r.b[n:]
	return v
}

// arrayLen reads an array's length: -1 for null.
func (r *txnReader) arrayLen(compact bool) int {
	if compact {
		return int(r.uvarint()) - 1
	}
	n := int32(r.u32())
	if n < -1 || int(n) > len(r.b) {
		r.err = fmt.Errorf("%w: array of %d entries", ErrCorruptTxnLogRecord, n)
		return -1
	}
	return int(n)
}

func (r *txnReader) string(compact bool) string {
	var n int
	if compact {
		n = int(r.uvarint()) - 1
	} else {
		n = int(int16(r.u16()))
	}
	if n < 0 {
		if r.err == nil {
			r.err = fmt.Errorf("%w: null string", ErrCorruptTxnLogRecord)
		}
		return ""
	}
	return string(r.take(n))
}

// tags reads a tag buffer, handing each tag and its bytes to fn.
func (r *txnReader) tags(fn func(tag uint32, data []byte)) {
	n := r.uvarint()
	for i := uint32(0); i < n && r.err == nil; i++ {
		tag := r.uvarint()
		data := r.take(int(r.uvarint()))
		if r.err == nil {
			fn(tag, data)
		}
	}
}

func (r *txnReader) skipTags() { r.tags(func(uint32, []byte) {}) }
