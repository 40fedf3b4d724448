package kafkalogtest

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// segmentModel is a segment as the suites build it: a .log of real v2 batches
// and the sparse .index Kafka writes while appending them
// (LogSegment.append: an entry when more than index.interval.bytes have been
// appended since the last one, checked before adding the batch; the entry holds
// the batch's last offset, relative to the base offset, and its start position).
type segmentModel struct {
	baseOffset         int64
	indexIntervalBytes int
	log                []byte
	batches            []batchSpan
	index              []indexEntry
}

// batchSpan is where a batch sits in the .log and which offsets it holds.
type batchSpan struct {
	pos, size              int
	baseOffset, lastOffset int64
}

// indexEntry is one .index entry with its offset already made absolute.
type indexEntry struct {
	offset   int64
	position int32
}

// segmentSpec lists the batches to append: for each, the gap before it (offsets
// skipped, as compaction leaves them), its record count and its value size.
type segmentSpec struct {
	baseOffset         int64
	indexIntervalBytes int
	batches            []batchSpec
}

type batchSpec struct {
	gap, records, valueSize int
}

func buildSegment(s segmentSpec) *segmentModel {
	m := &segmentModel{baseOffset: s.baseOffset, indexIntervalBytes: s.indexIntervalBytes}
	next := s.baseOffset
	sinceLastEntry := 0
	for _, b := range s.batches {
		next += int64(b.gap)
		batch := makeBatch(next, b.records, b.valueSize)
		span := batchSpan{pos: len(m.log), baseOffset: next, lastOffset: batch.LastOffset()}
		m.log = batch.AppendTo(m.log)
		span.size = len(m.log) - span.pos
		if sinceLastEntry > s.indexIntervalBytes {
			m.index = append(m.index, indexEntry{span.lastOffset, int32(span.pos)})
			sinceLastEntry = 0
		}
		sinceLastEntry += span.size
		m.batches = append(m.batches, span)
		next = span.lastOffset + 1
	}
	return m
}

// makeBatch is an uncompressed batch of n records at base, with values of
// valueSize bytes, as a producer with default settings sends it.
func makeBatch(base int64, n, valueSize int) kafkalog.RecordBatch {
	const ts = 1700000000000
	b := kafkalog.RecordBatch{BatchHeader: kafkalog.BatchHeader{
		BaseOffset: base, LastOffsetDelta: int32(n - 1), BaseTimestamp: ts, MaxTimestamp: ts + int64(n-1),
		ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1,
	}}
	for i := range n {
		v := []byte(strings.Repeat(string(rune('a'+int(base+int64(i))%26)), valueSize))
		b.Records = append(b.Records, kafkalog.Record{OffsetDelta: int32(i), TimestampDelta: int64(i), Value: v})
	}
	return b
}

// indexFile encodes the entries as Kafka's .index file, followed by padding
// zero-filled slots (what a preallocated, untrimmed index holds after them).
func (m *segmentModel) indexFile(padding int) []byte {
	var b []byte
	for _, e := range m.index {
		b = binary.BigEndian.AppendUint32(b, uint32(e.offset-m.baseOffset))
		b = binary.BigEndian.AppendUint32(b, uint32(e.position))
	}
	return append(b, make([]byte, 8*padding)...)
}

// lookup is Kafka's OffsetIndex.lookup: the largest entry with offset <= target,
// or (baseOffset, 0).
func (m *segmentModel) lookup(target int64) indexEntry {
	found := indexEntry{m.baseOffset, 0}
	for _, e := range m.index {
		if e.offset <= target {
			found = e
		}
	}
	return found
}

// find is the scan of FileRecords.searchForOffsetWithSize: from position from,
// the first batch whose last offset is >= target.
func (m *segmentModel) find(from int32, target int64) (batchSpan, bool) {
	for _, b := range m.batches {
		if b.pos >= int(from) && b.lastOffset >= target {
			return b, true
		}
	}
	return batchSpan{}, false
}

func (m *segmentModel) describe() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "segment: base offset %d, index.interval.bytes %d, %d batch(es), %d bytes", m.baseOffset, m.indexIntervalBytes, len(m.batches), len(m.log))
	for i, b := range m.batches {
		if i == 12 {
			fmt.Fprintf(&sb, "\n  ... %d more", len(m.batches)-12)
			break
		}
		fmt.Fprintf(&sb, "\n  batch at position %d: offsets %d..%d (%d bytes)", b.pos, b.baseOffset, b.lastOffset, b.size)
	}
	sb.WriteString("\nindex entries (offset -> position):")
	if len(m.index) == 0 {
		sb.WriteString(" none")
	}
	for _, e := range m.index {
		fmt.Fprintf(&sb, " %d->%d", e.offset, e.position)
	}
	return sb.String()
}
