package kafkalog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// C1: a header-only batch (what the cleaner keeps, Kafka's writeEmptyHeader)
// reads back every field under all four transactional/control combinations and
// both timestamp types.
func TestEmptyHeaderBatch(t *testing.T) {
	const ts = 1700000000000
	for _, txn := range []bool{false, true} {
		for _, ctl := range []bool{false, true} {
			for _, tt := range []TimestampType{CreateTime, LogAppendTime} {
				t.Run(fmt.Sprintf("txn=%v/control=%v/%v", txn, ctl, tt), func(t *testing.T) {
					want := BatchHeader{
						BaseOffset: 15, PartitionLeaderEpoch: 15, Magic: MagicV2,
						Attributes: NewAttributes(CompressionNone, tt, txn, ctl), LastOffsetDelta: 37 - 15,
						BaseTimestamp: NoTimestamp, MaxTimestamp: ts, ProducerID: 23423, ProducerEpoch: 145,
						BaseSequence: 983,
					}
					b := RecordBatch{BatchHeader: want}
					enc := b.AppendTo(nil)
					got, n, err := ReadBatch(enc)
					require.NoError(t, err)
					want.BatchLength, want.CRC = MinBatchLength, CRC32C(enc[posAttributes:])
					if diff := cmp.Diff(RecordBatch{BatchHeader: want}, got); diff != "" {
						t.Errorf("(-want +got):\n%s", diff)
					}
					if n != BatchHeaderLen || got.LastOffset() != 37 || got.LastSequence() != 983+22 {
						t.Errorf("size %d, last offset %d, last sequence %d; want 61, 37, 1005", n, got.LastOffset(), got.LastSequence())
					}
					if got.Attributes.IsTransactional() != txn || got.Attributes.IsControl() != ctl || got.Attributes.TimestampType() != tt {
						t.Errorf("attributes %v lost a flag", got.Attributes)
					}
				})
			}
		}
	}
}

// twoRecords is C2's batch: base 1234567, timestamps 1 and 2.
func twoRecords() RecordBatch {
	b := RecordBatch{BatchHeader: BatchHeader{ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch,
		BaseSequence: NoSequence, PartitionLeaderEpoch: NoPartitionLeaderEpoch}}
	b.AppendRecord(1234567, 1, []byte("a"), []byte("v"))
	b.AppendRecord(1234568, 2, []byte("b"), []byte("v"))
	return b
}

// C2-C4: header fields of built batches and sequence arithmetic.
func TestBuiltBatchHeader(t *testing.T) {
	type summary struct {
		BaseOffset, LastOffset, MaxTimestamp int64
		ProducerID                           int64
		ProducerEpoch                        int16
		BaseSequence, LastSequence           int32
		Sequences                            []int32
	}
	summarize := func(t *testing.T, b RecordBatch) summary {
		got, _, err := ReadBatch(b.AppendTo(nil))
		require.NoError(t, err, "CRC and records must be valid")
		s := summary{got.BaseOffset, got.LastOffset(), got.MaxTimestamp, got.ProducerID, got.ProducerEpoch, got.BaseSequence, got.LastSequence(), nil}
		for i := range got.Records {
			if seq := got.Sequence(&got.Records[i]); seq != NoSequence {
				s.Sequences = append(s.Sequences, seq)
			}
		}
		return s
	}
	c3 := twoRecords()
	c3.ProducerID, c3.ProducerEpoch, c3.BaseSequence = 23423, 145, 983
	c4 := twoRecords()
	c4.AppendRecord(1234569, 3, nil, []byte("v"))
	c4.ProducerID, c4.ProducerEpoch, c4.BaseSequence = 23423, 145, math.MaxInt32-1
	tests := []struct {
		name  string
		batch RecordBatch
		want  summary
	}{
		{"C2 no producer", twoRecords(), summary{1234567, 1234568, 2, -1, -1, -1, -1, nil}},
		{"C3 idempotent", c3, summary{1234567, 1234568, 2, 23423, 145, 983, 984, []int32{983, 984}}},
		{"C4 sequence wraps", c4, summary{1234567, 1234569, 3, 23423, 145, math.MaxInt32 - 1, 0, []int32{math.MaxInt32 - 1, math.MaxInt32, 0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, summarize(t, tc.batch)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// threeRecords is the batch of C5-C10: null keys, values hello, there, beautiful.
func threeRecords(c Compression) RecordBatch {
	b := RecordBatch{BatchHeader: BatchHeader{Attributes: NewAttributes(c, CreateTime, false, false),
		ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch, BaseSequence: NoSequence}}
	for i, v := range []string{"hello", "there", "beautiful"} {
		b.AppendRecord(int64(i), 1700000000000+int64(i), nil, []byte(v))
	}
	return b
}

// C5-C7: damaged batches fail with the sentinel Kafka's exception maps to.
func TestDamagedBatch(t *testing.T) {
	putInt := func(pos int, v uint32, fixCRC bool) func([]byte) {
		return func(b []byte) {
			binary.BigEndian.PutUint32(b[pos:], v)
			if fixCRC {
				binary.BigEndian.PutUint32(b[posCRC:], CRC32C(b[posAttributes:]))
			}
		}
	}
	tests := []struct {
		name      string
		codec     Compression
		damage    func([]byte)
		wantErr   error
		wantField string
	}{
		{"C5 length field 10", CompressionNone, putInt(posLength, 10, false), ErrCorruptBatch, "length"},
		{"C6 lastOffsetDelta 23 breaks the crc", CompressionNone, putInt(posLastOffsetDelta, 23, false), ErrCorruptBatch, "crc"},
		{"C7 five records declared, three present", CompressionNone, putInt(posRecordsCount, 5, true), ErrInvalidRecord, "record 3"},
		{"C7 two records declared, three present", CompressionNone, putInt(posRecordsCount, 2, true), ErrInvalidRecord, "records"},
		{"C7 gzip five declared", CompressionGzip, putInt(posRecordsCount, 5, true), ErrInvalidRecord, "record 3"},
		{"C7 gzip two declared", CompressionGzip, putInt(posRecordsCount, 2, true), ErrInvalidRecord, "records"},
		{"negative record count", CompressionNone, putInt(posRecordsCount, 0xffffffff, true), ErrCorruptBatch, "recordsCount"},
		{"magic 3", CompressionNone, func(b []byte) { b[posMagic] = 3 }, ErrUnknownMagic, "magic"},
		{"codec 5", CompressionNone, func(b []byte) { b[posAttributes+1] |= 5; putInt(posCRC, CRC32C(b[posAttributes:]), false)(b) }, ErrUnknownCompression, "records (unknown(5))"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b3 := threeRecords(tc.codec)
			enc := b3.AppendTo(nil)
			tc.damage(enc)
			_, _, err := ReadBatch(enc)
			var be *BatchError
			require.ErrorAs(t, err, &be)
			if !errors.Is(err, tc.wantErr) || be.Field != tc.wantField {
				t.Errorf("got %v (field %q), want %v in field %q", err, be.Field, tc.wantErr, tc.wantField)
			}
		})
	}
}

// C8-C11: the broker's in-place edits.
func TestInPlaceEdits(t *testing.T) {
	b3 := threeRecords(CompressionNone)
	enc := b3.AppendTo(nil)
	require.NoError(t, SetLastOffset(enc, 500))
	require.NoError(t, SetPartitionLeaderEpoch(enc, 500))
	got, _, err := ReadBatch(enc)
	require.NoError(t, err, "C8/C9: baseOffset and epoch are outside the CRC")
	offsets := []int64{}
	for i := range got.Records {
		offsets = append(offsets, got.Offset(&got.Records[i]))
	}
	if diff := cmp.Diff([]int64{498, 499, 500}, offsets); diff != "" || got.BaseOffset != 498 || got.PartitionLeaderEpoch != 500 {
		t.Errorf("C8: base %d epoch %d offsets (-want +got):\n%s", got.BaseOffset, got.PartitionLeaderEpoch, diff)
	}

	require.NoError(t, SetMaxTimestamp(enc, LogAppendTime, 15))
	got, _, err = ReadBatch(enc)
	require.NoError(t, err, "C10: the CRC is recomputed")
	stamps := []int64{}
	for i := range got.Records {
		stamps = append(stamps, got.Timestamp(&got.Records[i]))
	}
	if diff := cmp.Diff([]int64{15, 15, 15}, stamps); diff != "" || got.Attributes.TimestampType() != LogAppendTime {
		t.Errorf("C10: type %v, timestamps (-want +got):\n%s", got.Attributes.TimestampType(), diff)
	}
	if err := SetMaxTimestamp(enc, NoTimestampType, NoTimestamp); !errors.Is(err, ErrTimestampType) {
		t.Errorf("C11: SetMaxTimestamp(NoTimestampType) = %v, want ErrTimestampType", err)
	}
	for _, f := range []func([]byte) error{
		func(b []byte) error { return SetLastOffset(b, 1) },
		func(b []byte) error { return SetPartitionLeaderEpoch(b, 1) },
		func(b []byte) error { return SetMaxTimestamp(b, CreateTime, 1) },
	} {
		if err := f(enc[:60]); !errors.Is(err, ErrTruncated) {
			t.Errorf("edit of a 60-byte prefix = %v, want ErrTruncated", err)
		}
	}
}

// C12: a COMMIT marker batch decodes to one control record (COMMIT, 15).
func TestCommitMarkerBatch(t *testing.T) {
	b := NewEndTxnMarkerBatch(0, 1700000000000, 1, 0, ControlCommit, 15)
	got, _, err := ReadBatch(b.AppendTo(nil))
	require.NoError(t, err)
	require.Len(t, got.Records, 1)
	key, err := ParseControlRecordKey(got.Records[0].Key)
	require.NoError(t, err)
	marker, err := ParseEndTxnMarker(got.Records[0].Value)
	require.NoError(t, err)
	type summary struct {
		Control, Transactional bool
		Type                   ControlRecordType
		Marker                 EndTxnMarker
	}
	want := summary{true, true, ControlCommit, EndTxnMarker{CoordinatorEpoch: 15}}
	if diff := cmp.Diff(want, summary{got.Attributes.IsControl(), got.Attributes.IsTransactional(), key.Type, marker}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// C13: sequence arithmetic wraps at MaxInt32.
func TestSequenceArithmetic(t *testing.T) {
	got := []int32{IncrementSequence(5, 5), IncrementSequence(math.MaxInt32, 1), IncrementSequence(math.MaxInt32-5, 10),
		DecrementSequence(5, 5), DecrementSequence(0, 1)}
	if diff := cmp.Diff([]int32{10, 0, 4, 0, math.MaxInt32}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// C14: the computed size of a batch with null keys, null values and headers is
// the size of the encoded batch.
func TestBatchEncodedLen(t *testing.T) {
	const ts = 1700000000000
	var b RecordBatch
	b.AppendRecord(0, ts, []byte("key"), []byte("value"))
	b.AppendRecord(1, ts+30000, nil, []byte("value"))
	b.AppendRecord(2, ts+60000, []byte("key"), nil)
	b.AppendRecord(3, ts+60000, []byte("key"), []byte("value"), Header{[]byte("foo"), []byte("value")}, Header{[]byte("bar"), nil})
	if got, want := b.EncodedLen(), len(b.AppendTo(nil)); got != want {
		t.Errorf("EncodedLen = %d, AppendTo wrote %d bytes", got, want)
	}
}

func TestAppendRecordRejectsOffsetsGoingBack(t *testing.T) {
	b := twoRecords()
	require.Panics(t, func() { b.AppendRecord(1234568, 3, nil, nil) }, "an offset at the last offset is a caller bug")
}

func TestPeekBatch(t *testing.T) {
	g1 := mustHex(t, "00000000000000000000003a0000000002e99b8dd80000000000000000018bcfe568000000018bcfe56800ffffffffffffffffffffffffffff0000000110000000026b027600")
	type result struct {
		Size  int64
		Magic int8
		Err   error
	}
	short := append([]byte(nil), g1...)
	binary.BigEndian.PutUint32(short[posLength:], 13)
	tests := []struct {
		name string
		in   []byte
		want result
	}{
		{"G1", g1, result{70, 2, nil}},
		{"header only", g1[:17], result{70, 2, nil}},
		{"16 bytes", g1[:16], result{0, 0, ErrTruncated}},
		{"length 13", short, result{0, 0, ErrCorruptBatch}},
	}
	for _, tc := range tests {
		size, magic, err := PeekBatch(tc.in)
		got := result{size, magic, nil}
		if err != nil {
			got.Err = tc.want.Err
			if !errors.Is(err, tc.want.Err) {
				got.Err = err
			}
		}
		if diff := cmp.Diff(tc.want, got, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}
