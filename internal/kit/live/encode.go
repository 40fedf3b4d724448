package live

import (
	"encoding/binary"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// appendBatchWithVarint appends b as an uncompressed v2 batch, as
// (*kafkalog.RecordBatch).AppendTo does, with varint writing every int32 varint
// of the records (length, offsetDelta, key and value lengths, header counts and
// lengths) and the timestamp delta when it fits an int32: the reference batch
// encoder around a learner's ch01/varint. The delta is a varlong
// (ByteUtils.writeVarlong), and a varlong of a value in an int32's range is the
// same bytes as its varint: the zigzag value is below 2^32 either way. A
// backfill's records, stamped days apart, give deltas of 2^27 ms (37 hours)
// and more: a varint of five bytes.
func appendBatchWithVarint(dst []byte, b *kafkalog.RecordBatch, varint func([]byte, int32) []byte) []byte {
	start := len(dst)
	dst = binary.BigEndian.AppendUint64(dst, uint64(b.BaseOffset))
	dst = append(dst, 0, 0, 0, 0) // length
	dst = binary.BigEndian.AppendUint32(dst, uint32(b.PartitionLeaderEpoch))
	dst = append(dst, kafkalog.MagicV2)
	dst = append(dst, 0, 0, 0, 0) // crc
	dst = binary.BigEndian.AppendUint16(dst, uint16(b.Attributes))
	dst = binary.BigEndian.AppendUint32(dst, uint32(b.LastOffsetDelta))
	dst = binary.BigEndian.AppendUint64(dst, uint64(b.BaseTimestamp))
	dst = binary.BigEndian.AppendUint64(dst, uint64(b.MaxTimestamp))
	dst = binary.BigEndian.AppendUint64(dst, uint64(b.ProducerID))
	dst = binary.BigEndian.AppendUint16(dst, uint16(b.ProducerEpoch))
	dst = binary.BigEndian.AppendUint32(dst, uint32(b.BaseSequence))
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(b.Records)))
	var body []byte
	for i := range b.Records {
		r := &b.Records[i]
		body = append(body[:0], byte(r.Attributes))
		if d := r.TimestampDelta; d == int64(int32(d)) {
			body = varint(body, int32(d))
		} else {
			body = kafkalog.AppendVarlong(body, d)
		}
		body = varint(body, r.OffsetDelta)
		body = appendBytesWithVarint(body, r.Key, varint)
		body = appendBytesWithVarint(body, r.Value, varint)
		body = varint(body, int32(len(r.Headers)))
		for _, h := range r.Headers {
			body = appendBytesWithVarint(body, h.Key, varint)
			body = appendBytesWithVarint(body, h.Value, varint)
		}
		dst = varint(dst, int32(len(body)))
		dst = append(dst, body...)
	}
	binary.BigEndian.PutUint32(dst[start+8:], uint32(len(dst)-start-12))
	binary.BigEndian.PutUint32(dst[start+17:], kafkalog.CRC32C(dst[start+21:]))
	return dst
}

// appendBytesWithVarint appends a length (-1 for nil) and the bytes.
func appendBytesWithVarint(dst, b []byte, varint func([]byte, int32) []byte) []byte {
	if b == nil {
		return varint(dst, -1)
	}
	return append(varint(dst, int32(len(b))), b...)
}
