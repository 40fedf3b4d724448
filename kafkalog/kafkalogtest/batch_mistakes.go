package kafkalogtest

import (
	"bytes"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/kafkalog"
)

type recordInput struct {
	r *kafkalog.Record
	i int
}

type batchInput struct {
	dst []byte
	b   *kafkalog.RecordBatch
}

// batchMistake describes a wrong encoder by the knobs of the suite's own encoder.
type batchMistake struct {
	says string
	enc  batchEncoding
}

var batchMistakeList = []batchMistake{
	{"the CRC covers the whole batch from byte 0; Kafka's starts at attributes (byte 21)", batchEncoding{crcFrom: 0, crcTo: -1}},
	{"the CRC covers only the records (from byte 61); Kafka's starts at attributes (byte 21)", batchEncoding{crcFrom: 61, crcTo: -1}},
	{"the CRC starts at partitionLeaderEpoch (byte 12); the epoch is outside the CRC so the leader can stamp it", batchEncoding{crcFrom: 12, crcTo: -1}},
	{"the CRC covers only the header after the crc field, not the records", batchEncoding{crcFrom: 21, crcTo: 61}},
	{"CRC-32/IEEE (crc32.ChecksumIEEE) instead of CRC-32C (Castagnoli)", batchEncoding{crcFrom: 21, crcTo: -1, crcIEEE: true}},
	{"the length field counts the whole batch; it counts the bytes after itself (size - 12)", batchEncoding{crcFrom: 21, crcTo: -1, lengthExtra: 12}},
	{"the length field counts the bytes after baseOffset (size - 8)", batchEncoding{crcFrom: 21, crcTo: -1, lengthExtra: 4}},
	{"the length field counts only the records; it counts everything after itself, header included", batchEncoding{crcFrom: 21, crcTo: -1, lengthRecords: true}},
	{"the header integers are little-endian; Kafka writes them big-endian", batchEncoding{crcFrom: 21, crcTo: -1, leHeader: true}},
	{"a record's length counts its own length varint; it counts only the bytes after it", batchEncoding{crcFrom: 21, crcTo: -1, recordLenSelf: true}},
	{"a null key or value is written with length 0; null is length -1 (varint 01), 0 is the empty string", batchEncoding{crcFrom: 21, crcTo: -1, nullAsEmpty: true}},
	{"offsetDelta is the record's index in the batch; after compaction offsets have gaps, so use the record's own OffsetDelta", batchEncoding{crcFrom: 21, crcTo: -1, offsetByCounter: true}},
}

var batchMistakes = func() []kit.Mistake[batchInput, []byte] {
	var ms []kit.Mistake[batchInput, []byte]
	for _, m := range batchMistakeList {
		ms = append(ms, kit.Mistake[batchInput, []byte]{Says: m.says, Do: func(in batchInput) []byte {
			return m.enc.appendBatch(bytes.Clone(in.dst), in.b)
		}})
	}
	return ms
}()

var recordMistakes = func() []kit.Mistake[recordInput, []byte] {
	var ms []kit.Mistake[recordInput, []byte]
	for _, m := range batchMistakeList {
		ms = append(ms, kit.Mistake[recordInput, []byte]{Says: m.says, Do: func(in recordInput) []byte {
			return m.enc.appendRecord(nil, in.r, in.i)
		}})
	}
	ms = append(ms, kit.Mistake[recordInput, []byte]{
		Says: "timestampDelta is written as a varint (int32); it is a varlong",
		Do: func(in recordInput) []byte {
			r := *in.r
			r.TimestampDelta = int64(int32(r.TimestampDelta))
			return r.AppendTo(nil)
		},
	})
	return ms
}()
