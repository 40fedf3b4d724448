package kafkalogkit

import (
	"encoding/binary"
	"hash/crc32"
	"strconv"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// batchEncoding is the suite's own encoder of record batch v2, written from
// the v2 format (DefaultRecordBatch, DefaultRecord) independently of
// kafkalog.RecordBatch.AppendTo: a test checks that the two agree, so that
// the library the suite uses as its oracle is itself checked against the
// format.
type batchEncoding struct{}

var kafkaBatchEncoding batchEncoding

func (batchEncoding) appendBytes(dst, b []byte) []byte {
	if b == nil {
		return kafkalog.AppendVarint(dst, -1)
	}
	return append(kafkalog.AppendVarint(dst, int32(len(b))), b...)
}

func (e batchEncoding) appendRecord(dst []byte, r *kafkalog.Record) []byte {
	var body []byte
	body = append(body, byte(r.Attributes))
	body = kafkalog.AppendVarlong(body, r.TimestampDelta)
	body = kafkalog.AppendVarint(body, r.OffsetDelta)
	body = e.appendBytes(body, r.Key)
	body = e.appendBytes(body, r.Value)
	body = kafkalog.AppendVarint(body, int32(len(r.Headers)))
	for _, h := range r.Headers {
		body = e.appendBytes(body, h.Key)
		body = e.appendBytes(body, h.Value)
	}
	return append(kafkalog.AppendVarint(dst, int32(len(body))), body...)
}

func (e batchEncoding) appendBatch(dst []byte, b *kafkalog.RecordBatch) []byte {
	be := binary.BigEndian
	start := len(dst)
	dst = be.AppendUint64(dst, uint64(b.BaseOffset))
	dst = append(dst, 0, 0, 0, 0)
	dst = be.AppendUint32(dst, uint32(b.PartitionLeaderEpoch))
	dst = append(dst, kafkalog.MagicV2, 0, 0, 0, 0)
	dst = be.AppendUint16(dst, uint16(b.Attributes))
	dst = be.AppendUint32(dst, uint32(b.LastOffsetDelta))
	dst = be.AppendUint64(dst, uint64(b.BaseTimestamp))
	dst = be.AppendUint64(dst, uint64(b.MaxTimestamp))
	dst = be.AppendUint64(dst, uint64(b.ProducerID))
	dst = be.AppendUint16(dst, uint16(b.ProducerEpoch))
	dst = be.AppendUint32(dst, uint32(b.BaseSequence))
	dst = be.AppendUint32(dst, uint32(len(b.Records)))
	for i := range b.Records {
		dst = e.appendRecord(dst, &b.Records[i])
	}
	batch := dst[start:]
	be.PutUint32(batch[8:], uint32(len(batch)-kafkalog.LogOverhead))
	be.PutUint32(batch[17:], crc32.Checksum(batch[21:], crc32.MakeTable(crc32.Castagnoli)))
	return dst
}

// batchField names the field of an encoded batch at byte position pos.
func batchField(batch []byte, pos int) string {
	header := []struct {
		end  int
		name string
	}{
		{8, "baseOffset"}, {12, "length"}, {16, "partitionLeaderEpoch"}, {17, "magic"}, {21, "crc"},
		{23, "attributes"}, {27, "lastOffsetDelta"}, {35, "baseTimestamp"}, {43, "maxTimestamp"},
		{51, "producerId"}, {53, "producerEpoch"}, {57, "baseSequence"}, {61, "recordsCount"},
	}
	for _, f := range header {
		if pos < f.end {
			return f.name
		}
	}
	if len(batch) < kafkalog.BatchHeaderLen {
		return "records"
	}
	return recordsField(batch[kafkalog.BatchHeaderLen:], pos-kafkalog.BatchHeaderLen)
}

// recordsField names the field at position pos of a records section, by
// walking the (right) records: "record 2: keyLength".
func recordsField(p []byte, pos int) string {
	at := 0
	for i := 0; at < len(p); i++ {
		name, next := recordField(p[at:], pos-at)
		if pos < at+next || next <= 0 {
			return fieldName(i, name)
		}
		at += next
	}
	return "after the last record"
}

func fieldName(i int, name string) string { return "record " + strconv.Itoa(i) + ": " + name }

// recordField walks one record; it returns the field at pos (if pos falls in
// it) and the record's size.
func recordField(p []byte, pos int) (string, int) {
	at := 0
	var name string
	step := func(field string, n int) {
		if name == "" && pos >= at && pos < at+n {
			name = field
		}
		at += n
	}
	varint := func(field string) int32 {
		v, n := kafkalog.Varint(p[min(at, len(p)):])
		if n <= 0 {
			n = len(p) - at + 1
		}
		step(field, n)
		return v
	}
	length := varint("length")
	step("attributes", 1)
	_, n := kafkalog.Varlong(p[min(at, len(p)):])
	if n <= 0 {
		n = len(p) - at + 1
	}
	step("timestampDelta", n)
	varint("offsetDelta")
	for _, f := range []string{"key", "value"} {
		step(f, max(int(varint(f+"Length")), 0))
	}
	if name == "" {
		name = "headers"
	}
	return name, kafkalog.VarintLen(length) + int(length)
}
