package kafkalogkit

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/kafkalive/kafkalive/kafkalog"
)

type recoveryKnown struct {
	name       string
	log        []byte
	baseOffset int64
	interval   int
}

// oneRecordBatches is LogSegmentTest's log: n single-record batches at offsets
// base, base+1, ..., and where each starts.
func oneRecordBatches(base int64, n int) ([]byte, []int) {
	var log []byte
	var starts []int
	for i := range n {
		starts = append(starts, len(log))
		b := makeBatch(base+int64(i), 1, 5)
		log = b.AppendTo(log)
	}
	return log, starts
}

// garbage is deterministic junk, as a disk returns for a sector never written.
func garbage(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

func edited(log []byte, edit func(b []byte) []byte) []byte { return edit(bytes.Clone(log)) }

// recoveryKnownAnswers are Kafka's LogSegmentTest recovery cases
// (testRecoveryWithCorruptMessage, testRecoveryFixesCorruptIndex) and one
// case per kind of damage.
func recoveryKnownAnswers() []recoveryKnown {
	log, starts := oneRecordBatches(0, 20)
	var cases []recoveryKnown
	for _, k := range []int{0, 5, 19} {
		at := starts[k] + 30
		cases = append(cases, recoveryKnown{fmt.Sprintf("testRecoveryWithCorruptMessage: 20 batches, garbage from inside batch %d to the end leaves batches 0..%d", k, k-1),
			edited(log, func(b []byte) []byte { copy(b[at:], garbage(len(b)-at)); return b }), 0, 10})
	}
	cases = append(cases,
		recoveryKnown{"20 whole batches, index.interval.bytes 10: the index is rebuilt", log, 0, 10},
		recoveryKnown{"20 whole batches, index.interval.bytes 0: an entry for every batch but the first", log, 0, 0},
		recoveryKnown{"an empty segment", nil, 0, 4096},
	)
	multi := buildSegment(segmentSpec{baseOffset: 500, batches: []batchSpec{{records: 3, valueSize: 10}, {records: 2, valueSize: 10}, {gap: 4, records: 5, valueSize: 10}, {records: 1, valueSize: 10}}}).log
	cases = append(cases, recoveryKnown{"4 batches of 3, 2, 5 and 1 records at base offset 500, index.interval.bytes 0", multi, 500, 0})
	real := realSegment()
	cases = append(cases,
		recoveryKnown{"a real broker's segment (donaldy __consumer_offsets-8, 3 batches)", real, 0, 4096},
		recoveryKnown{"a real broker's segment, index.interval.bytes 100", real, 0, 100},
		recoveryKnown{"a real broker's segment torn at byte 400", real[:400], 0, 100},
	)
	three, s3 := oneRecordBatches(1000, 3)
	end := len(three)
	for _, cut := range []int{s3[2] + 1, s3[2] + 16, s3[2] + 17, s3[2] + 60, end - 1} {
		cases = append(cases, recoveryKnown{fmt.Sprintf("3 batches at base offset 1000, torn at byte %d of %d", cut, end), three[:cut], 1000, 0})
	}
	flip := func(name string, pos int) recoveryKnown {
		return recoveryKnown{name, edited(three, func(b []byte) []byte { b[pos] ^= 0x01; return b }), 1000, 0}
	}
	setLen := func(name string, length uint32) recoveryKnown {
		return recoveryKnown{name, edited(three, func(b []byte) []byte { binary.BigEndian.PutUint32(b[s3[1]+8:], length); return b }), 1000, 0}
	}
	cases = append(cases,
		recoveryKnown{"3 batches then 4096 zero bytes (a preallocated file after a power cut)", append(bytes.Clone(three), make([]byte, 4096)...), 1000, 0},
		recoveryKnown{"3 batches then 10 zero bytes", append(bytes.Clone(three), make([]byte, 10)...), 1000, 0},
		flip("a bit flipped in batch 1's value (inside the CRC)", s3[1]+70),
		flip("a bit flipped in batch 1's attributes (byte 21, the first byte the CRC covers)", s3[1]+21),
		flip("a bit flipped in batch 1's partitionLeaderEpoch (outside the CRC: the batch is still valid)", s3[1]+15),
		flip("a bit flipped in batch 1's magic", s3[1]+16),
		setLen("batch 1's length field set to 0", 0),
		setLen("batch 1's length field set to 20 (14 <= 20 < 49)", 20),
		setLen("batch 1's length field damaged to 0x7ffffff8, near MaxInt32: it runs past the end of the file", 0x7ffffff8),
		setLen("batch 1's length field damaged to 0x7fffffff (MaxInt32)", 0x7fffffff),
		setLen("batch 1's length field damaged to 0xfffffff4 (negative as an int32)", 0xfffffff4),
		recoveryKnown{"batch 1 written twice: the second copy's offsets go backwards", append(bytes.Clone(three[:s3[2]]), three[s3[1]:s3[2]]...), 1000, 0},
		recoveryKnown{"a batch below the segment's base offset", three, 1001, 0},
	)
	return append(cases, realLogRecoveryAnswers()...)
}

// realSegment is a .log a Kafka 2.7.1 broker wrote (see testdata/kafka-real/NOTICE).
func realSegment() []byte {
	b, err := realBrokerFiles.ReadFile("testdata/kafka-real/donaldy-consumer_offsets-8-00000000000000000000.log")
	if err != nil {
		panic(err)
	}
	if r := kafkaRecover(b, 0, 4096); r.validBytes != len(b) || len(r.batches) != 3 {
		panic("kafkalogkit: the real segment no longer recovers whole")
	}
	return b
}

// realLogRecoveryAnswers are segments shaped like a follower's copy of a
// compacted, transactional log: compacted batches whose lastOffsetDelta lies
// past their records, the cleaner's empty batches, transaction markers, and
// batches of every codec. Recovery reads the header's offsets and checks the
// CRC; it never needs the records (LogSegment.recover: "no need to iterate
// the records").
func realLogRecoveryAnswers() []recoveryKnown {
	spec := segmentSpec{baseOffset: 500, batches: []batchSpec{
		{records: 5, valueSize: 10, shape: shapeCompacted, removed: 0b10110}, // 500..504, records 500 and 503 left
		{records: 3, shape: shapeCleanedEmpty},                               // 505..507, no records
		{records: 2, valueSize: 10, shape: shapeTransactional},               // 508..509
		{records: 1, shape: shapeTxnMarker},                                  // 510, commit
		{gap: 3, records: 3, valueSize: 40, codec: kafkalog.CompressionGzip}, // 514..516
		{records: 3, valueSize: 40, codec: kafkalog.CompressionSnappy},
		{records: 3, valueSize: 40, codec: kafkalog.CompressionLZ4},
		{records: 3, valueSize: 40, codec: kafkalog.CompressionZstd, shape: shapeCompacted, removed: 0b001},
		{records: 2, shape: shapeCleanedEmpty},
	}}
	seg := buildSegment(spec)
	// A compacted batch between two whole ones and no empty batch: its index
	// entry holds its lastOffsetDelta, past its records, which sets it apart
	// from a recovery that only takes empty batches for damage.
	gaps := buildSegment(segmentSpec{baseOffset: 500, batches: []batchSpec{
		{records: 1, valueSize: 10}, // 500
		{records: 5, valueSize: 10, shape: shapeCompacted, removed: 0b01110}, // 501..505, records 501 and 505 left
		{records: 1, valueSize: 10}, // 506
	}})
	empty := seg.batches[1]
	last := seg.batches[len(seg.batches)-1]
	return []recoveryKnown{
		{"a compacted log as a follower copied it (a compacted batch 500..504 holding 2 records, an empty batch 505..507, a transaction and its marker, gzip, snappy, lz4 and zstd batches, an empty batch last), index.interval.bytes 0: everything is kept and indexed by last offset", seg.log, 500, 0},
		{"the same log, index.interval.bytes 100", seg.log, 500, 100},
		{"a whole batch 500, a compacted batch 501..505 holding 2 records, a whole batch 506, index.interval.bytes 0: the compacted batch is indexed by its last offset, 505, whatever its record count", gaps.log, 500, 0},
		{"the same log cut right after the empty batch 505..507", seg.log[:empty.pos+empty.size], 500, 0},
		{"the same log torn inside its last batch, the cleaner's empty batch", seg.log[:last.pos+30], 500, 0},
		{"the same log with a bit flipped in the zstd batch's records", edited(seg.log, func(b []byte) []byte { b[seg.batches[7].pos+70] ^= 0x10; return b }), 500, 0},
	}
}
