package notes

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/partitioner"
	"github.com/kafkalive/kafkalive/solutions/bank"
	solbatch "github.com/kafkalive/kafkalive/solutions/ch01/batch"
	"github.com/kafkalive/kafkalive/solutions/ch02/index"
	"github.com/kafkalive/kafkalive/solutions/ch03/retention"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery"
)

// generators produce the blocks of the notes, by name.
var generators = map[string]func() string{
	"stub-message":          stubMessage,
	"batch-g1":              batchG1,
	"epoch-outside-crc":     epochOutsideCRC,
	"varint-table":          varintTable,
	"record-g2":             recordG2,
	"hello-kafka":           helloKafka,
	"failure-forgot-zigzag": failureForgotZigzag,
	"failure-crc-range":     failureCRCRange,
	"index-217":             index217,
	"failure-next-entry":    failureNextEntry,
	"retention-example":     retentionExample,
	"recovery-example":      recoveryExample,
	"failure-torn-tail":     failureTornTail,
	"partition-of-keys":     partitionOfKeys,
	"partition-dir":         partitionDir,
}

// todo is what an untouched exercise stub panics with (exercises/todo.TODO).
type todo struct{}

func (todo) NotStarted() bool { return true }

func stubMessage() string {
	stub := kafkalogkit.VarintCodec{AppendVarint: func([]byte, int32) []byte { panic(todo{}) }}
	return "--- FAIL: TestVarint (0.00s)\n    varint_test.go:10: " + kafkalogkit.CheckVarint(stub).Error() + "\nFAIL"
}

const ts = 1700000000000 // 2023-11-14T22:13:20Z, the timestamp of the golden vectors

// g1 is golden vector G1 (the chapter's first batch): one record, key "k",
// value "v".
func g1(epoch int32) kafkalog.RecordBatch {
	return kafkalog.RecordBatch{BatchHeader: kafkalog.BatchHeader{
		PartitionLeaderEpoch: epoch, BaseTimestamp: ts, MaxTimestamp: ts,
		ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1,
	}, Records: []kafkalog.Record{{Key: []byte("k"), Value: []byte("v")}}}
}

var headerFields = []struct {
	at, size int
	name     string
}{
	{0, 8, "baseOffset"}, {8, 4, "length"}, {12, 4, "partitionLeaderEpoch"}, {16, 1, "magic"},
	{17, 4, "crc"}, {21, 2, "attributes"}, {23, 4, "lastOffsetDelta"}, {27, 8, "baseTimestamp"},
	{35, 8, "maxTimestamp"}, {43, 8, "producerId"}, {51, 2, "producerEpoch"}, {53, 4, "baseSequence"},
	{57, 4, "recordsCount"},
}

func fieldValue(b []byte, size int) string {
	switch size {
	case 1:
		return fmt.Sprint(int8(b[0]))
	case 2:
		return fmt.Sprint(int16(binary.BigEndian.Uint16(b)))
	case 4:
		return fmt.Sprint(int32(binary.BigEndian.Uint32(b)))
	}
	return fmt.Sprint(int64(binary.BigEndian.Uint64(b)))
}

func batchG1() string {
	b := g1(0)
	enc := b.AppendTo(nil)
	var sb strings.Builder
	fmt.Fprintf(&sb, "G1: %d bytes\n\n", len(enc))
	fmt.Fprintf(&sb, "offset  size  field                 bytes                    value\n")
	for _, f := range headerFields {
		v := fieldValue(enc[f.at:], f.size)
		if f.name == "crc" {
			v = fmt.Sprintf("0x%08x (CRC-32C of bytes 21..%d)", binary.BigEndian.Uint32(enc[17:]), len(enc)-1)
		}
		if f.name == "length" {
			v += fmt.Sprintf(" (= %d - 12)", len(enc))
		}
		fmt.Fprintf(&sb, "%6d  %4d  %-20s  %-23s  %s\n", f.at, f.size, f.name, kit.Hex(enc[f.at:f.at+f.size], 8), v)
	}
	fmt.Fprintf(&sb, "%6d  %4d  %-20s  %-23s  %s\n", 61, len(enc)-61, "records", kit.Hex(enc[61:], 16), "one record: k -> v")
	sb.WriteString("\n" + kit.Hexdump(enc, -1))
	return sb.String()
}

func epochOutsideCRC() string {
	var sb strings.Builder
	for _, epoch := range []int32{-1, 0, 7} {
		b := g1(epoch)
		enc := b.AppendTo(nil)
		fmt.Fprintf(&sb, "partitionLeaderEpoch %2d: bytes 12..15 = %s, crc = 0x%08x\n", epoch, kit.Hex(enc[12:16], 4), binary.BigEndian.Uint32(enc[17:]))
	}
	b := g1(0)
	b.MaxTimestamp++
	enc := b.AppendTo(nil)
	fmt.Fprintf(&sb, "maxTimestamp + 1:         bytes 35..42 = %s, crc = 0x%08x", kit.Hex(enc[35:43], 8), binary.BigEndian.Uint32(enc[17:]))
	return sb.String()
}

func varintTable() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%12s  %11s  %s\n", "value", "zigzag", "varint bytes")
	for _, v := range []int32{0, -1, 1, -2, 2, 63, -64, 64, 300, -8193, 2147483647, -2147483648} {
		z := uint32(v<<1) ^ uint32(v>>31)
		fmt.Fprintf(&sb, "%12d  %11d  %s\n", v, z, kit.Hex(kafkalog.AppendVarint(nil, v), 8))
	}
	return sb.String()
}

// g2 is golden vector G2: three records, a null key, a null value, headers.
func g2() kafkalog.RecordBatch {
	return kafkalog.RecordBatch{BatchHeader: kafkalog.BatchHeader{
		BaseOffset: 5, PartitionLeaderEpoch: 3, LastOffsetDelta: 2, BaseTimestamp: ts, MaxTimestamp: ts + 60000,
		ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1,
	}, Records: []kafkalog.Record{
		{Key: []byte("key"), Value: []byte("value")},
		{TimestampDelta: 30000, OffsetDelta: 1, Value: []byte("value")},
		{TimestampDelta: 60000, OffsetDelta: 2, Key: []byte("key"), Headers: []kafkalog.Header{{Key: []byte("foo"), Value: []byte("bar")}, {Key: []byte("n")}}},
	}}
}

func recordG2() string {
	b := g2()
	var sb strings.Builder
	for i := range b.Records {
		r := &b.Records[i]
		enc := r.AppendTo(nil)
		fmt.Fprintf(&sb, "record %d (offset %d): %s\n", i, b.BaseOffset+int64(r.OffsetDelta), kit.Hex(enc, 40))
		body := r.EncodedLen() - kafkalog.VarintLen(int32(enc[0]>>1))
		fmt.Fprintf(&sb, "  length %d | attributes 0 | timestampDelta %d | offsetDelta %d | key %s | value %s | %d header(s)\n",
			body, r.TimestampDelta, r.OffsetDelta, nullable(r.Key), nullable(r.Value), len(r.Headers))
	}
	enc := b.AppendTo(nil)
	fmt.Fprintf(&sb, "the whole batch: %d bytes, crc 0x%08x", len(enc), binary.BigEndian.Uint32(enc[17:]))
	return sb.String()
}

func nullable(b []byte) string {
	if b == nil {
		return "null (length -1, varint 01)"
	}
	return fmt.Sprintf("%q (length %d)", b, len(b))
}

func helloKafka() string {
	const created = 1716780091840
	b := kafkalog.RecordBatch{BatchHeader: kafkalog.BatchHeader{
		LastOffsetDelta: 9, BaseTimestamp: created, MaxTimestamp: created,
		ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1,
	}}
	for i := range 10 {
		b.Records = append(b.Records, kafkalog.Record{OffsetDelta: int32(i), Value: []byte(fmt.Sprintf("hello kafka%d", i))})
	}
	enc := solbatch.AppendBatch(nil, &b)
	h, _, err := kafkalog.CheckBatch(enc)
	return fmt.Sprintf("baseOffset: %d lastOffset: %d count: %d baseSequence: %d lastSequence: %d producerId: %d producerEpoch: %d partitionLeaderEpoch: %d isTransactional: %v isControl: %v position: 0 CreateTime: %d size: %d magic: %d compresscodec: none crc: %d isvalid: %v",
		h.BaseOffset, h.LastOffset(), h.NumRecords, h.BaseSequence, h.LastSequence(), h.ProducerID, h.ProducerEpoch, h.PartitionLeaderEpoch,
		h.Attributes.IsTransactional(), h.Attributes.IsControl(), h.MaxTimestamp, len(enc), h.Magic, h.CRC, err == nil)
}

func failureForgotZigzag() string {
	return kafkalogkit.CheckVarint(mistake(bank.Varint(), "forgotzigzag"), bank.Varint()...).Error()
}

func failureCRCRange() string {
	return kafkalogkit.CheckBatch(mistake(bank.Batch(), "crcincludesepoch"), bank.Batch()...).Error()
}

// exampleSegment is chapter 2's segment: 100 batches of 3 records with 100-byte
// values (offsets 0..299), index.interval.bytes 1024, and its sparse index as
// LogSegment.append writes it.
func exampleSegment() (log, idx []byte) {
	since := 0
	for i := range 100 {
		b := kafkalog.RecordBatch{BatchHeader: kafkalog.BatchHeader{BaseOffset: int64(3 * i), LastOffsetDelta: 2, BaseTimestamp: ts, MaxTimestamp: ts + 2,
			ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1}}
		for j := range 3 {
			v := []byte(strings.Repeat(string(rune('a'+(3*i+j)%26)), 100))
			b.Records = append(b.Records, kafkalog.Record{OffsetDelta: int32(j), TimestampDelta: int64(j), Value: v})
		}
		pos := len(log)
		log = b.AppendTo(log)
		if since > 1024 {
			idx = binary.BigEndian.AppendUint32(idx, uint32(b.LastOffset()))
			idx = binary.BigEndian.AppendUint32(idx, uint32(pos))
			since = 0
		}
		since += len(log) - pos
	}
	return log, idx
}

func index217() string {
	log, idx := exampleSegment()
	var sb strings.Builder
	n := len(idx) / 8
	fmt.Fprintf(&sb, "segment 00000000000000000000.log: %d bytes, 100 batches of 3 records (offsets 0..299), index.interval.bytes 1024\n", len(log))
	fmt.Fprintf(&sb, "index 00000000000000000000.index: %d bytes = %d entries (relative offset -> position):\n  ", len(idx), n)
	for i := range n {
		fmt.Fprintf(&sb, "%d->%d ", binary.BigEndian.Uint32(idx[8*i:]), binary.BigEndian.Uint32(idx[8*i+4:]))
		if i%6 == 5 {
			sb.WriteString("\n  ")
		}
	}
	off, pos := index.LookupIndex(idx, n, 0, 217)
	fmt.Fprintf(&sb, "\n1. LookupIndex(217): the largest entry <= 217 is offset %d at position %d\n", off, pos)
	fmt.Fprintf(&sb, "2. FindBatch from position %d:\n", pos)
	for p := int(pos); p < len(log); {
		h, size, _ := kafkalog.CheckBatch(log[p:])
		fmt.Fprintf(&sb, "   position %5d: batch %d..%d", p, h.BaseOffset, h.LastOffset())
		if h.LastOffset() >= 217 {
			fmt.Fprintf(&sb, "  lastOffset %d >= 217: found\n", h.LastOffset())
			break
		}
		fmt.Fprintf(&sb, "  lastOffset %d < 217: skip %d bytes\n", h.LastOffset(), size)
		p += size
	}
	found, _ := index.FindBatch(log, pos, 217)
	fmt.Fprintf(&sb, "3. the fetch returns the batch at position %d; the consumer skips offsets before 217 inside it", found)
	return sb.String()
}

func failureNextEntry() string {
	return kafkalogkit.CheckIndex(mistake(bank.Index(), "nextentry"), bank.Index()...).Error()
}

func retentionExample() string {
	const now = ts + 10*86400000 // ten days after the first record
	day := int64(86400000)
	log := retention.Log{LogEndOffset: 5000, HighWatermark: 4800, LogStartOffset: 0, Segments: []retention.Segment{
		{BaseOffset: 0, SizeInBytes: 1 << 30, FirstTimestamp: ts, LargestTimestamp: ts + day},
		{BaseOffset: 1200, SizeInBytes: 1 << 30, FirstTimestamp: ts + day, LargestTimestamp: ts + 2*day},
		{BaseOffset: 2500, SizeInBytes: 1 << 30, FirstTimestamp: ts + 2*day, LargestTimestamp: ts + 9*day},
		{BaseOffset: 3700, SizeInBytes: 300 << 20, FirstTimestamp: ts + 9*day, LargestTimestamp: ts + 10*day},
	}}
	var sb strings.Builder
	fmt.Fprintf(&sb, "now = first record + 10 days; high watermark %d, log end offset %d\n", log.HighWatermark, log.LogEndOffset)
	for i, s := range log.Segments {
		fmt.Fprintf(&sb, "segment %d  %020d.log  %4d MiB  largest timestamp: %d days ago\n", i, s.BaseOffset, s.SizeInBytes>>20, (now-s.LargestTimestamp)/day)
	}
	for _, c := range []struct {
		name string
		cfg  retention.Config
	}{
		{"retention.ms 7 days (the default), retention.bytes -1", retention.Config{RetentionMs: 7 * day, RetentionBytes: -1, Delete: true}},
		{"retention.ms -1, retention.bytes 2 GiB", retention.Config{RetentionMs: -1, RetentionBytes: 2 << 30, Delete: true}},
		{"retention.ms 1 hour, retention.bytes -1", retention.Config{RetentionMs: 3600000, RetentionBytes: -1, Delete: true}},
		{"retention.ms 1 hour, cleanup.policy=compact", retention.Config{RetentionMs: 3600000, RetentionBytes: -1, Delete: false}},
	} {
		fmt.Fprintf(&sb, "%-52s -> delete %d segment(s)\n", c.name, retention.DeletableSegments(log, c.cfg, now))
	}
	return sb.String()
}

func recoveryExample() string {
	var log []byte
	for i := range 3 {
		b := kafkalog.RecordBatch{BatchHeader: kafkalog.BatchHeader{BaseOffset: int64(i), BaseTimestamp: ts, MaxTimestamp: ts,
			ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1}, Records: []kafkalog.Record{{Value: []byte(fmt.Sprintf("record %d", i))}}}
		log = b.AppendTo(log)
	}
	torn := log[:len(log)-20]
	valid, idx := recovery.Recover(torn, 0, 0)
	var sb strings.Builder
	fmt.Fprintf(&sb, "three one-record batches were written (%d bytes); the power went before the last 20 bytes reached the disk.\n", len(log))
	fmt.Fprintf(&sb, "Recover(log of %d bytes, baseOffset 0, indexIntervalBytes 0) = validBytes %d, index %s\n", len(torn), valid, kit.Hex(idx, 16))
	for i := 0; i+8 <= len(idx); i += 8 {
		fmt.Fprintf(&sb, "  index entry: relative offset %d at position %d\n", binary.BigEndian.Uint32(idx[i:]), binary.BigEndian.Uint32(idx[i+4:]))
	}
	sb.WriteString("  (with index.interval.bytes 0, every batch after the first gets an entry: the first has 0 bytes kept before it, not more than 0)\n")
	sb.WriteString(kit.Hexdump(torn, valid))
	padded := append(append([]byte(nil), log...), make([]byte, 32)...)
	valid, _ = recovery.Recover(padded, 0, 0)
	fmt.Fprintf(&sb, "\nthe same three batches followed by 32 zero bytes: validBytes %d of %d (length 0 < 14: not a batch)", valid, len(padded))
	return sb.String()
}

func failureTornTail() string {
	return kafkalogkit.CheckRecovery(mistake(bank.Recovery(), "keepstorntail"), bank.Recovery()...).Error()
}

func partitionOfKeys() string {
	var sb strings.Builder
	for _, k := range []string{"alice", "bob", "carol", "dave", "erin", "alice"} {
		p, err := partitioner.Partition([]byte(k), 3)
		if err != nil {
			return err.Error()
		}
		fmt.Fprintf(&sb, "key %-6q -> murmur2 0x%08x -> partition %d of 3\n", k, uint32(partitioner.Murmur2([]byte(k))), p)
	}
	return sb.String()
}

func partitionDir() string {
	dir := filepath.Join("..", "kafkalog", "testdata", "kafka-real", "donaldy-kafka-2.7.1", "__consumer_offsets-39")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "missing: " + err.Error()
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var sb strings.Builder
	sb.WriteString("__consumer_offsets-39/\n")
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			return err.Error()
		}
		fmt.Fprintf(&sb, "  %-32s %5d bytes\n", e.Name(), info.Size())
	}
	return sb.String()
}

// mistake returns the bank's mutant called name.
func mistake[S any](known []kit.Known[S], name string) S {
	for _, k := range known {
		if k.Name == name {
			return k.Impl
		}
	}
	panic("notes: the bank has no mistake " + name)
}
