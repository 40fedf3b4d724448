package dumplog

import (
	"fmt"
	"io"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/vfs"
)

// readSmall reads a whole small file (index, snapshot, checkpoint) through d.fsys.
func (d *dumper) readSmall(file string) ([]byte, bool) {
	f, err := d.fsys.Open(file)
	if err != nil {
		d.problem(file, "%v", err)
		return nil, false
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		d.problem(file, "%v", err)
		return nil, false
	}
	if size > 1<<30 {
		d.problem(file, "%d bytes is too large for this kind of file", size)
		return nil, false
	}
	b := make([]byte, size)
	if err := vfs.ReadAtFull(f, b, 0); err != nil {
		d.problem(file, "%v", err)
		return nil, false
	}
	return b, true
}

// openIndex opens an offset index read-only, as Kafka's tool does (maxIndexSize
// -1, not writable): every whole 8 bytes is an entry.
func (d *dumper) openOffsetIndex(file string, base int64) (*kafkalog.OffsetIndex, bool) {
	f, err := d.fsys.Open(file)
	if err != nil {
		d.problem(file, "%v", err)
		return nil, false
	}
	ix, err := kafkalog.OpenOffsetIndex(f, base, 0, false)
	if err != nil {
		f.Close()
		d.problem(file, "%v", err)
		return nil, false
	}
	return ix, true
}

// batchLastOffsetAt returns the last offset of the entry at position pos of the
// log r reads, read with at most maxSize bytes (Kafka:
// fileRecords.slice(position, maxMessageSize)).
func batchLastOffsetAt(r *segmentReader, pos int64, maxSize int) (int64, error) {
	size, err := r.f.Size()
	if err != nil {
		return 0, err
	}
	limit := min(size, pos+int64(maxSize))
	b, status, _, err := r.read(pos, limit)
	switch status {
	case readBatch:
	case readBad:
		return 0, err
	default:
		return 0, fmt.Errorf("no whole batch at position %d (log has %d bytes, max message size %d)", pos, size, maxSize)
	}
	it := kafkalog.NewBatchIter(b, pos)
	if !it.Next() {
		return 0, it.Err()
	}
	return it.Entry().LastOffset(), nil
}

// dumpIndex prints an offset index and checks each entry against the log
// (DumpLogSegments.dumpIndex).
func (d *dumper) dumpIndex(file string) {
	base, ok := baseOffsetOf(file)
	if !ok {
		d.problem(file, "the name does not start with a base offset")
		return
	}
	ix, ok := d.openOffsetIndex(file, base)
	if !ok {
		return
	}
	defer ix.Close()
	if ix.Entries() == 0 {
		fmt.Fprintf(d.out, "%s is empty.\n", file)
		return
	}
	if d.opts.indexSanity {
		d.sanity(file, ix.SanityCheck())
		return
	}
	logFile := siblingFile(file, kafkalog.LogSuffix)
	var lr *segmentReader
	if lf, err := d.fsys.Open(logFile); err != nil {
		d.problem(file, "cannot check the entries against the log: %v", err)
	} else {
		defer lf.Close()
		lr = &segmentReader{f: lf}
	}
	for i := 0; i < ix.Entries(); i++ {
		e := ix.Entry(i)
		if e.Offset == base && i > 0 {
			// Kafka stops here: a preallocated index left untrimmed by a crash is zeros.
			d.out.Flush()
			fmt.Fprintf(d.errw, "kafkalive: %s: entry %d is (%d, %d), zero padding: stopped\n", file, i, e.Offset, e.Position)
			return
		}
		if lr != nil {
			last, err := batchLastOffsetAt(lr, e.Position, d.opts.maxMessageSize)
			if err != nil {
				d.problem(file, "entry %d (offset %d, position %d): %v", i, e.Offset, e.Position, err)
				last = -1
			}
			if last != e.Offset {
				d.addIndexMismatch(file, e.Offset, last)
			}
		}
		if !d.opts.verifyOnly {
			fmt.Fprintf(d.out, "offset: %d position: %d\n", e.Offset, e.Position)
		}
	}
}

func (d *dumper) addIndexMismatch(file string, indexOffset, logOffset int64) {
	if _, seen := d.idxMismatch[file]; !seen {
		d.idxOrder = append(d.idxOrder, file)
	}
	// Kafka prepends: newest first.
	d.idxMismatch[file] = append([]offsetPair{{indexOffset, logOffset}}, d.idxMismatch[file]...)
	d.failed = true
}

func (d *dumper) sanity(file string, err error) {
	if err != nil {
		d.problem(file, "failed sanity check: %v", err)
		return
	}
	fmt.Fprintf(d.out, "%s passed sanity check.\n", file)
}

// timeIndexErrors collects what dumpTimeIndex finds, printed at the end as Kafka
// does. They are reported but do not fail the run: a time index written by a
// broker before Kafka 3.x points at record offsets, not batch last offsets, and
// Kafka's tool flags every such entry.
type timeIndexErrors struct {
	file       string
	mismatches []offsetPair // (index timestamp, log timestamp)
	outOfOrder []offsetPair // (index timestamp, previous timestamp)
	notFound   []offsetPair // (indexed offset, found log offset)
}

func (te *timeIndexErrors) print(w io.Writer) {
	if len(te.mismatches) > 0 {
		fmt.Fprintf(w, "Found timestamp mismatch in :%s\n", te.file)
		for _, m := range te.mismatches {
			fmt.Fprintf(w, "  Index timestamp: %d, log timestamp: %d\n", m.a, m.b)
		}
	}
	if len(te.outOfOrder) > 0 {
		fmt.Fprintf(w, "Found out of order timestamp in :%s\n", te.file)
		for _, m := range te.outOfOrder {
			fmt.Fprintf(w, "  Index timestamp: %d, Previously indexed timestamp: %d\n", m.a, m.b)
		}
	}
	if len(te.notFound) > 0 {
		fmt.Fprintln(w, "The following indexed offsets are not found in the log.")
		for _, m := range te.notFound {
			fmt.Fprintf(w, "Indexed offset: %d, found log offset: %d\n", m.a, m.b)
		}
	}
}

// dumpTimeIndex prints a time index and checks each entry against the log
// (DumpLogSegments.dumpTimeIndex).
func (d *dumper) dumpTimeIndex(file string) {
	base, ok := baseOffsetOf(file)
	if !ok {
		d.problem(file, "the name does not start with a base offset")
		return
	}
	f, err := d.fsys.Open(file)
	if err != nil {
		d.problem(file, "%v", err)
		return
	}
	ti, err := kafkalog.OpenTimeIndex(f, base, 0, false)
	if err != nil {
		f.Close()
		d.problem(file, "%v", err)
		return
	}
	defer ti.Close()
	if d.opts.indexSanity {
		d.sanity(file, ti.SanityCheck())
		return
	}
	te := timeIndexErrors{file: file}
	defer func() {
		if len(te.mismatches)+len(te.outOfOrder)+len(te.notFound) > 0 {
			d.timeErrs = append(d.timeErrs, te)
		}
	}()
	ts := d.timeIndexChecker(file, base)
	if ts != nil {
		defer ts.close()
	}
	prev := int64(kafkalog.NoTimestamp)
	for i := 0; i < ti.Entries(); i++ {
		e := ti.Entry(i)
		if e.Offset == base && i > 0 {
			d.out.Flush()
			fmt.Fprintf(d.errw, "kafkalive: %s: entry %d is (%d, %d), zero padding: stopped\n", file, i, e.Timestamp, e.Offset)
			return
		}
		if ts != nil {
			ts.check(e, prev, &te)
		}
		if !d.opts.verifyOnly {
			fmt.Fprintf(d.out, "timestamp: %d offset: %d\n", e.Timestamp, e.Offset)
		}
		prev = e.Timestamp
	}
}

// timeIndexCheck verifies time index entries against the segment's log, using
// the offset index to find where to start scanning.
type timeIndexCheck struct {
	d    *dumper
	file string
	log  vfs.File
	size int64
	ix   *kafkalog.OffsetIndex
	r    segmentReader
	dec  kafkalog.Decoder
	rb   kafkalog.RecordBatch
}

func (d *dumper) timeIndexChecker(file string, base int64) *timeIndexCheck {
	lf, err := d.fsys.Open(siblingFile(file, kafkalog.LogSuffix))
	if err != nil {
		d.problem(file, "cannot check the entries against the log: %v", err)
		return nil
	}
	size, err := lf.Size()
	if err != nil {
		d.problem(file, "%v", err)
		return nil
	}
	tc := &timeIndexCheck{d: d, file: file, log: lf, size: size, r: segmentReader{f: lf}}
	if f, err := d.fsys.Open(siblingFile(file, kafkalog.IndexSuffix)); err == nil {
		if ix, err := kafkalog.OpenOffsetIndex(f, base, 0, false); err == nil {
			tc.ix = ix
		}
	}
	return tc
}

func (tc *timeIndexCheck) close() {
	tc.log.Close()
	if tc.ix != nil {
		tc.ix.Close()
	}
}

// check finds the batch holding e.Offset (the first with lastOffset ≥ it) and
// compares its largest record timestamp with e.Timestamp.
func (tc *timeIndexCheck) check(e kafkalog.TimestampOffset, prev int64, te *timeIndexErrors) {
	pos := int64(0)
	if tc.ix != nil {
		pos = tc.ix.Lookup(e.Offset).Position
	}
	for {
		b, status, _, _ := tc.r.read(pos, tc.size)
		if status != readBatch {
			te.notFound = append(te.notFound, offsetPair{e.Offset, -1})
			return
		}
		it := kafkalog.NewBatchIter(b, pos)
		if !it.Next() {
			te.notFound = append(te.notFound, offsetPair{e.Offset, -1})
			return
		}
		en := it.Entry()
		if last := en.LastOffset(); last >= e.Offset {
			if last != e.Offset {
				te.notFound = append(te.notFound, offsetPair{e.Offset, last})
				return
			}
			if max := tc.maxTimestamp(en); max != e.Timestamp {
				te.mismatches = append(te.mismatches, offsetPair{e.Timestamp, max})
			}
			if prev >= e.Timestamp {
				te.outOfOrder = append(te.outOfOrder, offsetPair{e.Timestamp, prev})
			}
			return
		}
		pos += int64(len(b))
	}
}

func (tc *timeIndexCheck) maxTimestamp(en *kafkalog.LogEntry) int64 {
	max := int64(kafkalog.NoTimestamp)
	if en.Magic != kafkalog.MagicV2 {
		return en.Legacy.Timestamp
	}
	if _, err := tc.dec.Decode(en.Bytes, &tc.rb); err != nil {
		return max
	}
	for i := range tc.rb.Records {
		if t := tc.rb.Timestamp(&tc.rb.Records[i]); t > max {
			max = t
		}
	}
	return max
}

// dumpTxnIndex prints the aborted transactions of a .txnindex.
func (d *dumper) dumpTxnIndex(file string) {
	b, ok := d.readSmall(file)
	if !ok {
		return
	}
	txns, err := kafkalog.DecodeTxnIndex(b)
	for _, t := range txns {
		fmt.Fprintf(d.out, "version: %d producerId: %d firstOffset: %d lastOffset: %d lastStableOffset: %d\n",
			kafkalog.AbortedTxnVersion, t.ProducerID, t.FirstOffset, t.LastOffset, t.LastStableOffset)
	}
	if err != nil {
		d.problem(file, "%v", err)
	}
}

// dumpProducerSnapshot prints a producer state snapshot
// (DumpLogSegments.dumpProducerIdSnapshot).
func (d *dumper) dumpProducerSnapshot(file string) {
	b, ok := d.readSmall(file)
	if !ok {
		return
	}
	entries, err := kafkalog.ReadProducerSnapshot(b)
	if err != nil {
		d.problem(file, "%v", err)
		return
	}
	for _, e := range entries {
		fmt.Fprintf(d.out, "producerId: %d producerEpoch: %d coordinatorEpoch: %d currentTxnFirstOffset: %s lastTimestamp: %d ",
			e.ProducerID, e.ProducerEpoch, e.CoordinatorEpoch, optionalLong(e.CurrentTxnFirstOffset >= 0, e.CurrentTxnFirstOffset), e.Timestamp)
		fmt.Fprintf(d.out, "firstSequence: %d lastSequence: %d lastOffset: %d offsetDelta: %d timestamp: %d\n",
			e.FirstSequence(), e.LastSequence, e.LastOffset, e.OffsetDelta, e.Timestamp)
	}
}

// dumpLeaderEpochCheckpoint prints a leader-epoch-checkpoint (Kafka's tool
// ignores this file; the line format is ours).
func (d *dumper) dumpLeaderEpochCheckpoint(file string) {
	b, ok := d.readSmall(file)
	if !ok {
		return
	}
	entries, err := kafkalog.DecodeLeaderEpochCheckpoint(b)
	if err != nil {
		d.problem(file, "%v", err)
		return
	}
	fmt.Fprintf(d.out, "version: %d entries: %d\n", kafkalog.LeaderEpochCheckpointVersion, len(entries))
	for _, e := range entries {
		fmt.Fprintf(d.out, "epoch: %d startOffset: %d\n", e.Epoch, e.StartOffset)
	}
}

// dumpOffsetCheckpoint prints an offset checkpoint file, sorted by partition.
func (d *dumper) dumpOffsetCheckpoint(file string) {
	b, ok := d.readSmall(file)
	if !ok {
		return
	}
	m, err := kafkalog.DecodeOffsetCheckpoint(b)
	if err != nil {
		d.problem(file, "%v", err)
		return
	}
	fmt.Fprintf(d.out, "version: %d entries: %d\n", kafkalog.OffsetCheckpointVersion, len(m))
	for _, tp := range kafkalog.SortedTopicPartitions(m) {
		fmt.Fprintf(d.out, "topic: %s partition: %d offset: %d\n", tp.Topic, tp.Partition, m[tp])
	}
}

// dumpCleanShutdown prints the clean shutdown marker.
func (d *dumper) dumpCleanShutdown(file string) {
	b, ok := d.readSmall(file)
	if !ok {
		return
	}
	if epoch, ok := kafkalog.DecodeCleanShutdown(b); ok {
		fmt.Fprintf(d.out, "clean shutdown marker: brokerEpoch: %d\n", epoch)
		return
	}
	fmt.Fprintf(d.out, "clean shutdown marker: %d bytes, no broker epoch (written by a broker before Kafka 3.7)\n", len(b))
}
