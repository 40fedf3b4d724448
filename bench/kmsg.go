package bench

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// ErrKmsgBatch is what KmsgDecoder reports for a batch it rejects; the wrapping
// error says which check failed.
var ErrKmsgBatch = errors.New("bench: kmsg: bad batch")

// KmsgFromBatch converts a kafkalog batch into what kgo's producer holds before
// it encodes: the header fields (Length, CRC, NumRecords and Records left for
// the encoder) and one kmsg.Record per record, Length not yet computed.
func KmsgFromBatch(b *kafkalog.RecordBatch) (kmsg.RecordBatch, []kmsg.Record) {
	h := kmsg.RecordBatch{
		FirstOffset:          b.BaseOffset,
		PartitionLeaderEpoch: b.PartitionLeaderEpoch,
		Magic:                kafkalog.MagicV2,
		Attributes:           int16(b.Attributes),
		LastOffsetDelta:      b.LastOffsetDelta,
		FirstTimestamp:       b.BaseTimestamp,
		MaxTimestamp:         b.MaxTimestamp,
		ProducerID:           b.ProducerID,
		ProducerEpoch:        b.ProducerEpoch,
		FirstSequence:        b.BaseSequence,
	}
	recs := make([]kmsg.Record, len(b.Records))
	for i := range b.Records {
		r := &b.Records[i]
		recs[i] = kmsg.Record{
			Attributes:       r.Attributes,
			TimestampDelta:   int32(r.TimestampDelta),
			TimestampDelta64: r.TimestampDelta,
			OffsetDelta:      r.OffsetDelta,
			Key:              r.Key,
			Value:            r.Value,
		}
		for _, hd := range r.Headers {
			recs[i].Headers = append(recs[i].Headers, kmsg.Header{Key: string(hd.Key), Value: hd.Value})
		}
	}
	return h, recs
}

// KmsgAppendRecords sets each record's Length (as kgo does when it buffers a
// record) and appends the records' wire form to dst: the records section of
// an uncompressed batch, or the input of a compressor.
func KmsgAppendRecords(dst []byte, recs []kmsg.Record) []byte {
	for i := range recs {
		recs[i].Length = kmsgRecordLength(&recs[i])
		dst = recs[i].AppendTo(dst)
	}
	return dst
}

// KmsgAppendBatch encodes an uncompressed batch with kmsg the way kgo's producer
// does (sink.go appendTo): the header with zero length and CRC, then the records
// straight into the same buffer, then the length and CRC patched in place.
func KmsgAppendBatch(dst []byte, h kmsg.RecordBatch, recs []kmsg.Record) []byte {
	start := len(dst)
	h.Magic, h.Length, h.CRC, h.Records = kafkalog.MagicV2, 0, 0, nil
	h.NumRecords = int32(len(recs))
	dst = h.AppendTo(dst)
	dst = KmsgAppendRecords(dst, recs)
	return kmsgPatch(dst, start)
}

// KmsgAppendBatchWithRecords encodes a batch whose records section is already
// built (for example compressed by kgo's compressor) as kgo does.
func KmsgAppendBatchWithRecords(dst []byte, h kmsg.RecordBatch, numRecords int32, records []byte) []byte {
	start := len(dst)
	h.Magic, h.Length, h.CRC, h.Records = kafkalog.MagicV2, 0, 0, records
	h.NumRecords = numRecords
	dst = h.AppendTo(dst)
	return kmsgPatch(dst, start)
}

func kmsgPatch(dst []byte, start int) []byte {
	binary.BigEndian.PutUint32(dst[start+8:], uint32(len(dst)-start-12))
	binary.BigEndian.PutUint32(dst[start+17:], crc32.Checksum(dst[start+21:], castagnoli))
	return dst
}

func uvarintLen(u uint64) int { return max(1, (bits.Len64(u)+6)/7) }

func varintLen(v int32) int { return uvarintLen(uint64(uint32(v<<1) ^ uint32(v>>31))) }

func varlongLen(v int64) int { return uvarintLen(uint64(v<<1) ^ uint64(v>>63)) }

func bytesLen(b []byte) int {
	if b == nil {
		return 1
	}
	return varintLen(int32(len(b))) + len(b)
}

// kmsgRecordLength is the record's length field: the bytes after it. kgo
// computes it the same way (from field sizes) when a record is buffered.
func kmsgRecordLength(r *kmsg.Record) int32 {
	ts := r.TimestampDelta64
	if ts == 0 {
		ts = int64(r.TimestampDelta)
	}
	n := 1 + varlongLen(ts) + varintLen(r.OffsetDelta) + bytesLen(r.Key) + bytesLen(r.Value) +
		varintLen(int32(len(r.Headers)))
	for i := range r.Headers {
		n += varintLen(int32(len(r.Headers[i].Key))) + len(r.Headers[i].Key) + bytesLen(r.Headers[i].Value)
	}
	return int32(n)
}

// KmsgDecoder decodes v2 batches with kmsg as kgo's consumer does: it reads the
// header with RecordBatch.ReadFrom, checks the magic, the length and the CRC-32C
// of bytes [21, end), then reads each record with Record.ReadFrom, bounded by its
// length prefix. It reuses its record slice, so that a steady stream of
// uncompressed batches decodes without allocating.
type KmsgDecoder struct {
	// Batch is the last batch's header; its Records field holds the (still
	// compressed, if the batch is) records section.
	Batch kmsg.RecordBatch
	// Records are the last batch's records; keys and values alias the input.
	Records []kmsg.Record
}

// Decode validates the batch that fills src and decodes its header. When the
// batch is uncompressed it also decodes its records into d.Records.
func (d *KmsgDecoder) Decode(src []byte) error {
	if err := d.Batch.ReadFrom(src); err != nil {
		return fmt.Errorf("%w: header: %w", ErrKmsgBatch, err)
	}
	switch {
	case d.Batch.Magic != kafkalog.MagicV2:
		return fmt.Errorf("%w: magic %d", ErrKmsgBatch, d.Batch.Magic)
	case int(d.Batch.Length)+12 != len(src):
		return fmt.Errorf("%w: length %d for %d bytes", ErrKmsgBatch, d.Batch.Length, len(src))
	case crc32.Checksum(src[21:], castagnoli) != uint32(d.Batch.CRC):
		return fmt.Errorf("%w: crc mismatch", ErrKmsgBatch)
	}
	if d.Batch.Attributes&0x07 != 0 {
		d.Records = d.Records[:0]
		return nil
	}
	return d.DecodeRecords(d.Batch.Records, d.Batch.NumRecords)
}

// DecodeRecords decodes count records from p, which must hold exactly them (an
// uncompressed or decompressed records section), into d.Records.
func (d *KmsgDecoder) DecodeRecords(p []byte, count int32) error {
	if count < 0 || int(count) > len(p) {
		return fmt.Errorf("%w: %d records in %d bytes", ErrKmsgBatch, count, len(p))
	}
	if cap(d.Records) < int(count) {
		d.Records = make([]kmsg.Record, count)
	}
	d.Records = d.Records[:count]
	for i := range d.Records {
		l, n := binary.Varint(p)
		if n <= 0 || l < 0 || l > int64(len(p)-n) {
			return fmt.Errorf("%w: record %d: length", ErrKmsgBatch, i)
		}
		total := n + int(l)
		if err := d.Records[i].ReadFrom(p[:total]); err != nil {
			return fmt.Errorf("%w: record %d: %w", ErrKmsgBatch, i, err)
		}
		p = p[total:]
	}
	if len(p) != 0 {
		return fmt.Errorf("%w: %d bytes after the last record", ErrKmsgBatch, len(p))
	}
	return nil
}
