package kafkalogkit

import (
	"embed"
	"encoding/hex"
	"fmt"
	"math"
	"path"
	"strings"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// Golden batches of the v2 format (computed field by field from
// DefaultRecordBatch and DefaultRecord, cross-checked with
// franz-go's kmsg), as continuous hex.
var goldenBatches = []struct{ name, hex string }{
	{"G1 (one record, key \"k\", value \"v\")", "00000000000000000000003a0000000002e99b8dd80000000000000000018bcfe568000000018bcfe56800ffffffffffffffffffffffffffff0000000110000000026b027600"},
	{"G2 (three records, null key, null value, headers)", "0000000000000005000000650000000302a3d80ea40000000000020000018bcfe568000000018bcfe65260ffffffffffffffffffffffffffff000000031c000000066b65790a76616c7565001a00e0d40302010a76616c7565002c00c0a90704066b6579010406666f6f06626172026e01"},
	{"G3 (transaction COMMIT marker)", "000000000000000a000000420000000002c8e628f10030000000000000018bcfe568000000018bcfe5680000000000000000010000ffffffff000000012000000008000000010c00000000000f00"},
	{"G5 (empty batch kept by the cleaner)", "0000000000000014000000310000000002dc464c41000000000004ffffffffffffffff0000018bcfe56800000000000000000700020000006400000000"},
}

//go:embed testdata/kafka-real/*.log
var realBrokerFiles embed.FS

// batchCase is one known answer: a batch and the bytes Kafka wrote for it.
type batchCase struct {
	source string // where the bytes come from, for the failure message
	batch  kafkalog.RecordBatch
	want   []byte
}

// knownBatches returns the golden batches, the batch of the published
// kafka-dump-log output (251 bytes, crc 997822510) and every batch of the
// real-broker files, each decoded by kafkalog so that the learner re-encodes it.
func knownBatches() []batchCase {
	var cases []batchCase
	for _, g := range goldenBatches {
		b, err := hex.DecodeString(g.hex)
		if err != nil {
			panic(err)
		}
		cases = append(cases, decodeAll("golden batch "+g.name, b)...)
	}
	cases = append(cases, helloKafka(), compactedBatch(), extremeBatch())
	entries, err := realBrokerFiles.ReadDir("testdata/kafka-real")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		b, err := realBrokerFiles.ReadFile(path.Join("testdata/kafka-real", e.Name()))
		if err != nil {
			panic(err)
		}
		cases = append(cases, decodeAll("a real broker's "+e.Name(), b)...)
	}
	return cases
}

// decodeAll splits b into its batches. The inputs are embedded and known good,
// so a decode error is a bug in the suite.
func decodeAll(source string, b []byte) []batchCase {
	var cases []batchCase
	for pos, i := 0, 0; pos < len(b); i++ {
		batch, n, err := kafkalog.ReadBatch(b[pos:])
		if err != nil {
			panic(fmt.Sprintf("kafkalogkit: %s: %v", source, err))
		}
		src := source
		if pos > 0 || n < len(b) {
			src = fmt.Sprintf("%s, batch %d at position %d", source, i, pos)
		}
		cases = append(cases, batchCase{source: src, batch: batch, want: b[pos : pos+n]})
		pos += n
	}
	return cases
}

// helloKafka is the batch whose kafka-dump-log output a public article printed
// (base offset 0, 10 records "hello kafka0".."hello kafka9", null keys, all at
// CreateTime 1716780091840, leader epoch 0): size 251, crc 997822510.
func helloKafka() batchCase {
	const ts = 1716780091840
	b := kafkalog.RecordBatch{BatchHeader: kafkalog.BatchHeader{
		LastOffsetDelta: 9, BaseTimestamp: ts, MaxTimestamp: ts,
		ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1,
	}}
	for i := range 10 {
		b.Records = append(b.Records, kafkalog.Record{OffsetDelta: int32(i), Value: []byte(fmt.Sprintf("hello kafka%d", i))})
	}
	want := b.AppendTo(nil)
	if len(want) != 251 || kafkalog.CRC32C(want[21:]) != 997822510 {
		panic("kafkalogkit: the hello-kafka batch no longer matches the broker's size 251, crc 997822510")
	}
	return batchCase{source: "the batch a real broker printed with kafka-dump-log (size: 251, crc: 997822510)", batch: b, want: want}
}

func describeBatch(b *kafkalog.RecordBatch) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "batch: baseOffset %d, partitionLeaderEpoch %d, attributes 0x%04x, lastOffsetDelta %d, baseTimestamp %d, maxTimestamp %d, producerId %d, producerEpoch %d, baseSequence %d, %d record(s)",
		b.BaseOffset, b.PartitionLeaderEpoch, uint16(b.Attributes), b.LastOffsetDelta, b.BaseTimestamp, b.MaxTimestamp,
		b.ProducerID, b.ProducerEpoch, b.BaseSequence, len(b.Records))
	for i := range b.Records {
		sb.WriteString("\n  " + describeRecord(i, &b.Records[i]))
	}
	return sb.String()
}

func describeRecord(i int, r *kafkalog.Record) string {
	s := fmt.Sprintf("record %d: timestampDelta %d, offsetDelta %d, key %s, value %s", i, r.TimestampDelta, r.OffsetDelta, quote(r.Key), quote(r.Value))
	for _, h := range r.Headers {
		s += fmt.Sprintf(", header %s=%s", quote(h.Key), quote(h.Value))
	}
	return s
}

func quote(b []byte) string {
	if b == nil {
		return "null"
	}
	if len(b) > 24 {
		return fmt.Sprintf("%q... (%d bytes)", b[:24], len(b))
	}
	return fmt.Sprintf("%q", b)
}

// compactedBatch is a batch as the log cleaner leaves it: offsets with gaps
// inside the batch (lastOffsetDelta 5, records at deltas 0, 3, 5), and a
// record whose timestamp delta (60 days) does not fit an int32.
func compactedBatch() batchCase {
	const ts = 1700000000000
	const days60 = 60 * 24 * 3600 * 1000
	b := kafkalog.RecordBatch{BatchHeader: kafkalog.BatchHeader{
		BaseOffset: 100, PartitionLeaderEpoch: 2, LastOffsetDelta: 5,
		BaseTimestamp: ts, MaxTimestamp: ts + days60,
		ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1,
	}, Records: []kafkalog.Record{
		{OffsetDelta: 0, Key: []byte("a"), Value: []byte("1")},
		{OffsetDelta: 3, TimestampDelta: 1000, Key: []byte("b"), Value: []byte("2")},
		{OffsetDelta: 5, TimestampDelta: days60, Key: []byte("c"), Value: []byte("3")},
	}}
	return batchCase{source: "a compacted batch (offset deltas 0, 3, 5; a 60-day timestamp delta), built with kafkalog", batch: b, want: b.AppendTo(nil)}
}

// extremeBatch is a batch at the edges of every field: offsets, epochs and
// sequences at their maxima, no timestamp (-1), the producer fields of a
// producer that never existed, and records whose deltas are at the ends of
// their types, with null and empty keys, values and header values.
func extremeBatch() batchCase {
	b := kafkalog.RecordBatch{BatchHeader: kafkalog.BatchHeader{
		BaseOffset: math.MaxInt64 - math.MaxInt32, PartitionLeaderEpoch: math.MaxInt32, LastOffsetDelta: math.MaxInt32,
		BaseTimestamp: kafkalog.NoTimestamp, MaxTimestamp: kafkalog.NoTimestamp,
		ProducerID: math.MaxInt64, ProducerEpoch: math.MaxInt16, BaseSequence: math.MaxInt32,
	}, Records: []kafkalog.Record{
		{TimestampDelta: math.MinInt64, Value: []byte{}, Headers: []kafkalog.Header{{Key: []byte{}, Value: nil}, {Key: []byte("h"), Value: []byte{}}}},
		{OffsetDelta: math.MaxInt32, TimestampDelta: math.MaxInt64, Key: []byte{}},
	}}
	return batchCase{source: "a batch at the edges of every field (offsets and sequences at their maxima, timestamps -1, deltas at the ends of their types, null and empty keys, values and header values), built with kafkalog", batch: b, want: b.AppendTo(nil)}
}
