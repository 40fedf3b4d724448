package bench

import (
	"reflect"

	"github.com/google/go-cmp/cmp"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// flatBatch is a batch in a form both libraries convert to, so that cmp.Diff can
// compare what each decoded. Null and empty keys, values and header values stay
// distinct (nil against []byte{}).
type flatBatch struct {
	BaseOffset           int64
	Length               int32
	PartitionLeaderEpoch int32
	Magic                int8
	CRC                  uint32
	Attributes           int16
	LastOffsetDelta      int32
	BaseTimestamp        int64
	MaxTimestamp         int64
	ProducerID           int64
	ProducerEpoch        int16
	BaseSequence         int32
	NumRecords           int32
	Records              []flatRecord
}

type flatRecord struct {
	Attributes     int8
	TimestampDelta int64
	OffsetDelta    int32
	Key            []byte
	Value          []byte
	Headers        []flatHeader
}

type flatHeader struct {
	Key   string
	Value []byte
}

func flatHeaderOf(h *kafkalog.BatchHeader) flatBatch {
	return flatBatch{
		BaseOffset: h.BaseOffset, Length: h.BatchLength, PartitionLeaderEpoch: h.PartitionLeaderEpoch,
		Magic: h.Magic, CRC: h.CRC, Attributes: int16(h.Attributes), LastOffsetDelta: h.LastOffsetDelta,
		BaseTimestamp: h.BaseTimestamp, MaxTimestamp: h.MaxTimestamp, ProducerID: h.ProducerID,
		ProducerEpoch: h.ProducerEpoch, BaseSequence: h.BaseSequence, NumRecords: h.NumRecords,
	}
}

func flatFromKafkalog(b *kafkalog.RecordBatch) flatBatch {
	f := flatHeaderOf(&b.BatchHeader)
	for _, r := range b.Records {
		fr := flatRecord{Attributes: r.Attributes, TimestampDelta: r.TimestampDelta, OffsetDelta: r.OffsetDelta, Key: r.Key, Value: r.Value}
		for _, h := range r.Headers {
			fr.Headers = append(fr.Headers, flatHeader{Key: string(h.Key), Value: h.Value})
		}
		f.Records = append(f.Records, fr)
	}
	return f
}

func flatFromKmsg(h *kmsg.RecordBatch, recs []kmsg.Record) flatBatch {
	f := flatBatch{
		BaseOffset: h.FirstOffset, Length: h.Length, PartitionLeaderEpoch: h.PartitionLeaderEpoch,
		Magic: h.Magic, CRC: uint32(h.CRC), Attributes: h.Attributes, LastOffsetDelta: h.LastOffsetDelta,
		BaseTimestamp: h.FirstTimestamp, MaxTimestamp: h.MaxTimestamp, ProducerID: h.ProducerID,
		ProducerEpoch: h.ProducerEpoch, BaseSequence: h.FirstSequence, NumRecords: h.NumRecords,
	}
	for _, r := range recs {
		fr := flatRecord{Attributes: r.Attributes, TimestampDelta: r.TimestampDelta64, OffsetDelta: r.OffsetDelta, Key: r.Key, Value: r.Value}
		for _, hd := range r.Headers {
			fr.Headers = append(fr.Headers, flatHeader{Key: hd.Key, Value: hd.Value})
		}
		f.Records = append(f.Records, fr)
	}
	return f
}

// wantFlat is what decoding the encoding of b must give: b's fields, with the
// length, magic, CRC and count taken from the encoded bytes' own rules.
func wantFlat(b *kafkalog.RecordBatch, encoded []byte) flatBatch {
	h := b.BatchHeader
	h.BatchLength = int32(len(encoded) - kafkalog.LogOverhead)
	h.Magic = kafkalog.MagicV2
	h.CRC = crcOf(encoded)
	h.NumRecords = int32(len(b.Records))
	w := flatFromKafkalog(&kafkalog.RecordBatch{BatchHeader: h, Records: b.Records})
	return w
}

// diffFlat is cmp.Diff(want, got) (-want +got), after a quick reflect.DeepEqual
// (which, like cmp, tells nil from empty slices): cmp is slow on megabyte batches.
func diffFlat(want, got flatBatch) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	return cmp.Diff(want, got)
}
