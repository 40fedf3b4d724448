package crcieee

import (
	"encoding/binary"
	"hash/crc32"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// castagnoli is the CRC-32C table. Kafka's batch CRC is CRC-32C, not the
// CRC-32/IEEE of crc32.ChecksumIEEE.
//
//lint:ignore U1000 a mutant is the solution with one change; this is the solution's, which the mistake no longer uses
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// AppendRecord appends r to dst in the v2 record layout
// (notes/01-records-on-disk.md#a-record-inside-the-batch):
//
//	length          varint   bytes of the record after this field
//	attributes      int8     0
//	timestampDelta  varlong
//	offsetDelta     varint
//	keyLength       varint   -1 for a null key
//	key
//	valueLength     varint   -1 for a null value
//	value
//	headersCount    varint
//	headers         keyLength, key, valueLength (-1 = null), value
//
// The length comes first but is only known at the end, so the body is built
// first and the length written in front of it.
func AppendRecord(dst []byte, r *kafkalog.Record) []byte {
	body := []byte{byte(r.Attributes)}
	body = kafkalog.AppendVarlong(body, r.TimestampDelta)
	body = kafkalog.AppendVarint(body, r.OffsetDelta)
	body = appendBytes(body, r.Key)
	body = appendBytes(body, r.Value)
	body = kafkalog.AppendVarint(body, int32(len(r.Headers)))
	for _, h := range r.Headers {
		body = appendBytes(body, h.Key)
		body = appendBytes(body, h.Value)
	}
	dst = kafkalog.AppendVarint(dst, int32(len(body)))
	return append(dst, body...)
}

// appendBytes writes a varint length and the bytes; nil is null, length -1.
func appendBytes(dst, b []byte) []byte {
	if b == nil {
		return kafkalog.AppendVarint(dst, -1)
	}
	dst = kafkalog.AppendVarint(dst, int32(len(b)))
	return append(dst, b...)
}

// AppendBatch appends b to dst as an uncompressed record batch v2
// (notes/01-records-on-disk.md#the-61-byte-batch-header). It writes magic 2 and
// recordsCount = len(b.Records), computes the length and the CRC, and writes
// every other header field as set. All integers are big-endian.
//
// Two fields depend on bytes written after them, so they are reserved as zeros
// and filled in at the end ("reserve and backpatch"):
//
//   - length (bytes 8-11) counts every byte after itself: batch size - 12;
//   - crc (bytes 17-20) is the CRC-32C of bytes [21, end): from attributes to the
//     last record. baseOffset, length, partitionLeaderEpoch and magic are outside
//     it, so a broker can assign offsets and stamp its epoch without recomputing it.
func AppendBatch(dst []byte, b *kafkalog.RecordBatch) []byte {
	start := len(dst)
	be := binary.BigEndian
	dst = be.AppendUint64(dst, uint64(b.BaseOffset))
	dst = append(dst, 0, 0, 0, 0) // length, filled in below
	dst = be.AppendUint32(dst, uint32(b.PartitionLeaderEpoch))
	dst = append(dst, kafkalog.MagicV2)
	dst = append(dst, 0, 0, 0, 0) // crc, filled in below
	dst = be.AppendUint16(dst, uint16(b.Attributes))
	dst = be.AppendUint32(dst, uint32(b.LastOffsetDelta))
	dst = be.AppendUint64(dst, uint64(b.BaseTimestamp))
	dst = be.AppendUint64(dst, uint64(b.MaxTimestamp))
	dst = be.AppendUint64(dst, uint64(b.ProducerID))
	dst = be.AppendUint16(dst, uint16(b.ProducerEpoch))
	dst = be.AppendUint32(dst, uint32(b.BaseSequence))
	dst = be.AppendUint32(dst, uint32(len(b.Records)))
	for i := range b.Records {
		dst = AppendRecord(dst, &b.Records[i])
	}
	batch := dst[start:]
	be.PutUint32(batch[8:], uint32(len(batch)-12))
	// mistake: wrong polynomial
	be.PutUint32(batch[17:], crc32.ChecksumIEEE(batch[21:]))
	return dst
}
