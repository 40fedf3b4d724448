package kafkalogkit

import (
	"encoding/binary"
	"fmt"
	"slices"
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
	// spec is what buildSegment built the segment from; nil for an index
	// written by hand, with no .log.
	spec *segmentSpec
}

// batchSpan is where a batch sits in the .log and which offsets it holds.
type batchSpan struct {
	pos, size              int
	baseOffset, lastOffset int64
	// recordsCount and control are the header's record count and control bit.
	recordsCount int
	control      bool
	// what describes the batch for a failure message ("3 records, gzip").
	what string
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

// batchSpec is one batch of a segment. The zero shape and codec are a
// producer's uncompressed batch of records at dense offsets.
type batchSpec struct {
	gap, records, valueSize int
	// shape is what wrote the batch: a producer, a transactional producer, the
	// log cleaner, or a transaction coordinator.
	shape batchShape
	// codec compresses the records (producer, transactional and compacted batches).
	codec kafkalog.Compression
	// removed, for a compacted batch, has bit i set when the cleaner removed
	// the record at offset delta i (at least one stays; the batch keeps its
	// offsets either way).
	removed uint32
}

// batchShape is what wrote a batch, and so how its offsets look.
type batchShape int

const (
	// shapeProducer is a producer's batch: records at offset deltas 0..n-1.
	shapeProducer batchShape = iota
	// shapeTransactional is a transactional producer's batch (producer id,
	// epoch and sequence set, the transactional bit on).
	shapeTransactional
	// shapeCompacted is a batch the log cleaner rewrote with some records
	// removed (MemoryRecords.filterTo, buildRetainedRecordsInto): the offset
	// deltas of the records left skip, and the batch keeps its base offset and
	// last offset (overrideLastOffset), so LastOffsetDelta can lie beyond the
	// last record and past recordsCount - 1.
	shapeCompacted
	// shapeCleanedEmpty is what the cleaner leaves when it removed every record
	// of the last batch of a producer, kept for the producer's state
	// (BatchRetention.RETAIN_EMPTY, DefaultRecordBatch.writeEmptyHeader): a
	// 61-byte header, recordsCount 0, the batch's offsets and producer fields,
	// no compression, baseTimestamp -1.
	shapeCleanedEmpty
	// shapeTxnMarker is a transaction's commit or abort marker: a control
	// batch of one control record (MemoryRecords.withEndTransactionMarker).
	shapeTxnMarker
)

func buildSegment(s segmentSpec) *segmentModel {
	m := &segmentModel{baseOffset: s.baseOffset, indexIntervalBytes: s.indexIntervalBytes, spec: &s}
	next := s.baseOffset
	sinceLastEntry := 0
	for _, b := range s.batches {
		next += int64(b.gap)
		batch := specBatch(next, b)
		span := batchSpan{pos: len(m.log), baseOffset: next, lastOffset: batch.LastOffset(),
			recordsCount: len(batch.Records), control: batch.Attributes.IsControl(), what: describeBatchShape(&batch, b.shape)}
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

// specBatch builds the batch b describes at base, with the library's types,
// as the broker would hold it on disk.
func specBatch(base int64, b batchSpec) kafkalog.RecordBatch {
	n := max(b.records, 1)
	const producerID, producerEpoch = 4000, 3
	switch b.shape {
	case shapeTxnMarker:
		t := kafkalog.ControlCommit
		if b.records%2 == 0 {
			t = kafkalog.ControlAbort
		}
		return kafkalog.NewEndTxnMarkerBatch(base, 1700000000000+base, producerID, producerEpoch, t, 7)
	case shapeCleanedEmpty:
		full := makeBatch(base, n, b.valueSize)
		e := kafkalog.RecordBatch{BatchHeader: full.BatchHeader}
		e.ProducerID, e.ProducerEpoch, e.BaseSequence = producerID, producerEpoch, int32(base%1000)
		e.BaseTimestamp = kafkalog.NoTimestamp
		e.NumRecords = 0
		return e
	}
	batch := makeBatch(base, n, b.valueSize)
	batch.Attributes = batch.Attributes.WithCompression(b.codec)
	switch b.shape {
	case shapeTransactional:
		batch.Attributes = kafkalog.NewAttributes(b.codec, kafkalog.CreateTime, true, false)
		batch.ProducerID, batch.ProducerEpoch, batch.BaseSequence = producerID, producerEpoch, int32(base%1000)
	case shapeCompacted:
		n = max(n, 2)
		batch = makeBatch(base, n, b.valueSize)
		batch.Attributes = batch.Attributes.WithCompression(b.codec)
		removed := b.removed & (1<<n - 1)
		if removed == 0 {
			removed = 1 << (n - 1) // the newest record was superseded: LastOffsetDelta lies past the records
		}
		if removed == 1<<n-1 {
			removed &^= 1 // one record stays: a batch with none is shapeCleanedEmpty
		}
		kept := batch.Records[:0:0]
		for i, r := range batch.Records {
			if removed&(1<<i) == 0 {
				kept = append(kept, r)
			}
		}
		batch.Records = kept
		batch.NumRecords = int32(len(kept))
		// The cleaner keeps the header's offsets and timestamps' base; the max
		// timestamp becomes the largest left.
		batch.MaxTimestamp = batch.BaseTimestamp
		for _, r := range kept {
			batch.MaxTimestamp = max(batch.MaxTimestamp, batch.BaseTimestamp+r.TimestampDelta)
		}
	}
	return batch
}

// describeBatchShape says what a batch is in a few words.
func describeBatchShape(b *kafkalog.RecordBatch, shape batchShape) string {
	codec := ""
	if c := b.Attributes.Compression(); c != kafkalog.CompressionNone {
		codec = ", " + c.String()
	}
	switch shape {
	case shapeTransactional:
		return fmt.Sprintf("%d records, transactional%s", len(b.Records), codec)
	case shapeCompacted:
		deltas := make([]string, len(b.Records))
		for i, r := range b.Records {
			deltas[i] = fmt.Sprint(r.OffsetDelta)
		}
		return fmt.Sprintf("compacted: %d records left at offset deltas %s, lastOffsetDelta %d%s", len(b.Records), strings.Join(deltas, ","), b.LastOffsetDelta, codec)
	case shapeCleanedEmpty:
		return fmt.Sprintf("empty, kept by the cleaner for producer %d: recordsCount 0, lastOffsetDelta %d", b.ProducerID, b.LastOffsetDelta)
	case shapeTxnMarker:
		return "a transaction marker (control batch, 1 control record)"
	}
	return fmt.Sprintf("%d records%s", len(b.Records), codec)
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

// describe lays the segment out for a failure: the batches around the ones
// that matter (the first that can hold target, and those at the positions
// given), and the index entries around target's.
func (m *segmentModel) describe(target int64, positions ...int) string {
	var sb strings.Builder
	if m.spec == nil {
		fmt.Fprintf(&sb, "an index written by hand at base offset %d, with no .log", m.baseOffset)
	} else {
		fmt.Fprintf(&sb, "segment: base offset %d, index.interval.bytes %d, %d batch(es), %d bytes", m.baseOffset, m.indexIntervalBytes, len(m.batches), len(m.log))
	}
	show := make([]bool, len(m.batches))
	mark := func(i int) {
		for j := max(i-2, 0); j <= min(i+2, len(m.batches)-1); j++ {
			show[j] = true
		}
	}
	mark(0)
	for i, b := range m.batches {
		if b.lastOffset >= target {
			mark(i)
			break
		}
	}
	for i, b := range m.batches {
		if slices.Contains(positions, b.pos) || slices.ContainsFunc(positions, func(p int) bool { return p > b.pos && p < b.pos+b.size }) {
			mark(i)
		}
	}
	mark(len(m.batches) - 1)
	skipped := 0
	for i, b := range m.batches {
		if !show[i] {
			skipped++
			continue
		}
		if skipped > 0 {
			fmt.Fprintf(&sb, "\n  ... %d batch(es)", skipped)
			skipped = 0
		}
		fmt.Fprintf(&sb, "\n  batch at position %d: offsets %d..%d (%d bytes; %s)", b.pos, b.baseOffset, b.lastOffset, b.size, b.what)
	}
	sb.WriteString("\nindex entries (offset -> position):")
	if len(m.index) == 0 {
		sb.WriteString(" none")
	}
	at := 0
	for i, e := range m.index {
		if e.offset <= target {
			at = i
		}
	}
	for i, e := range m.index {
		switch {
		case i == at-4 && i > 0:
			fmt.Fprintf(&sb, " ... %d more,", at-4)
		case i < at-4 || i > at+4 && i < len(m.index)-1:
			continue
		case i == len(m.index)-1 && i > at+5:
			fmt.Fprintf(&sb, " ... %d more,", i-at-5)
		}
		fmt.Fprintf(&sb, " %d->%d", e.offset, e.position)
	}
	return sb.String()
}

// indexInput is one lookup of the index suite: a segment, how many zero
// slots follow its index entries, and the target.
type indexInput struct {
	seg     *segmentModel
	padding int
	target  int64
}

// smallerIndexInput proposes smaller lookups than in: no zero slots, a
// target nearer the base offset, fewer and plainer batches (or, for an index
// written by hand, an entry fewer).
func smallerIndexInput(in indexInput) []indexInput {
	var out []indexInput
	if in.padding > 0 {
		out = append(out, indexInput{in.seg, 0, in.target})
	}
	base := in.seg.baseOffset
	for _, t := range []int64{base, base + 1, nearTarget(in.seg, in.target), base + (in.target-base)/2, in.target - 1} {
		if d := t - base; d >= 0 && d < in.target-base || d < 0 && d > in.target-base {
			out = append(out, indexInput{in.seg, in.padding, t})
		}
	}
	if in.seg.spec == nil {
		if n := len(in.seg.index); n > 0 {
			seg := *in.seg
			seg.index = seg.index[:n-1]
			out = append(out, indexInput{&seg, in.padding, in.target})
		}
		return out
	}
	spec := *in.seg.spec
	rebuilt := func(edit func(s *segmentSpec)) {
		s := spec
		s.batches = slices.Clone(s.batches)
		edit(&s)
		out = append(out, indexInput{buildSegment(s), in.padding, in.target})
	}
	if n := len(spec.batches); n > 0 {
		rebuilt(func(s *segmentSpec) { s.batches = s.batches[:n/2] })
		rebuilt(func(s *segmentSpec) { s.batches = s.batches[:n-1] })
		rebuilt(func(s *segmentSpec) { s.batches = s.batches[1:] })
	}
	for i, b := range spec.batches {
		if b.shape != shapeProducer || b.codec != kafkalog.CompressionNone || b.records > 1 || b.valueSize > 0 || b.gap > 0 {
			rebuilt(func(s *segmentSpec) { s.batches[i] = batchSpec{records: 1} })
		}
	}
	if spec.baseOffset != 0 {
		rebuilt(func(s *segmentSpec) { s.baseOffset = 0 })
	}
	return out
}
