package kafkalogkit

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// fetchInput is one read_committed fetch as the consumer receives it: the
// offset it asked for, the batches of the partition's answer, and its
// AbortedTransactions list.
type fetchInput struct {
	fetchOffset int64
	batches     []kafkalog.RecordBatch
	aborted     []AbortedTransaction
}

// clone is a deep copy of in: the learner's code may change what it is
// handed, and the next call must see the input as it was.
func (in fetchInput) clone() fetchInput {
	out := fetchInput{fetchOffset: in.fetchOffset, aborted: slices.Clone(in.aborted)}
	out.batches = make([]kafkalog.RecordBatch, len(in.batches))
	for i, b := range in.batches {
		out.batches[i] = b
		out.batches[i].Records = make([]kafkalog.Record, len(b.Records))
		for j, r := range b.Records {
			r.Key, r.Value = slices.Clone(r.Key), slices.Clone(r.Value)
			out.batches[i].Records[j] = r
		}
	}
	return out
}

// withSpareCapacity is a copy of in whose slices have room after their
// elements, filled with entries that are not part of the fetch: code that
// appends to the caller's slices writes over them.
func (in fetchInput) withSpareCapacity() fetchInput {
	c := in.clone()
	spare := AbortedTransaction{ProducerID: -7, FirstOffset: -7}
	aborted := append(make([]AbortedTransaction, 0, len(c.aborted)+2), c.aborted...)
	c.aborted = append(aborted, spare, spare)[:len(c.aborted)]
	batches := make([]kafkalog.RecordBatch, 0, len(c.batches)+1)
	c.batches = append(append(batches, c.batches...), kafkalog.RecordBatch{})[:len(c.batches)]
	return c
}

// Equal lets the kit compare inputs (what a mistake left of its input).
func (in fetchInput) Equal(other fetchInput) bool { return sameFetch(in, other) }

// sameFetch reports whether two fetches hold the same offset, batches and
// list, in the same order.
func sameFetch(a, b fetchInput) bool {
	if a.fetchOffset != b.fetchOffset || !slices.Equal(a.aborted, b.aborted) || len(a.batches) != len(b.batches) {
		return false
	}
	for i := range a.batches {
		x, y := a.batches[i], b.batches[i]
		if x.BatchHeader != y.BatchHeader || len(x.Records) != len(y.Records) {
			return false
		}
		for j := range x.Records {
			if !sameRecord(&x.Records[j], &y.Records[j]) {
				return false
			}
		}
	}
	return true
}

func sameRecord(a, b *kafkalog.Record) bool {
	return a.OffsetDelta == b.OffsetDelta && a.TimestampDelta == b.TimestampDelta && a.Attributes == b.Attributes &&
		slices.Equal(a.Key, b.Key) && slices.Equal(a.Value, b.Value) && (a.Key == nil) == (b.Key == nil) && (a.Value == nil) == (b.Value == nil)
}

// controlType is the type in the key of a control batch's first record,
// false for a batch that is not a control batch or has no record whose key
// reads as a control key.
func controlType(b *kafkalog.RecordBatch) (kafkalog.ControlRecordType, bool) {
	if !b.Attributes.IsControl() || len(b.Records) == 0 || len(b.Records[0].Key) < 4 {
		return 0, false
	}
	return kafkalog.ControlRecordType(int16(binary.BigEndian.Uint16(b.Records[0].Key[2:]))), true
}

// recordFate is what a read_committed consumer does with one record of a
// fetch, and why: the model's answer, which the failure explains from.
type recordFate int

const (
	fateDelivered  recordFate = iota
	fateControl               // a control record: never handed out
	fateBelowFetch            // below the fetch offset: the consumer has it
	fateAborted               // a batch of an aborted transaction
)

// fate is the model's decision on one record, with the batch it is in.
type fate struct {
	offset int64
	batch  int
	fate   recordFate
}

// readCommittedModel is what Kafka 3.7's consumer hands out of a fetch
// (CompletedFetch.nextFetchedRecord): the fate of every record of the
// fetched batches, in offset order, and the offsets delivered.
func readCommittedModel(in fetchInput) (fates []fate, delivered []int64) {
	queue := slices.Clone(in.aborted)
	slices.SortStableFunc(queue, func(a, b AbortedTransaction) int { return cmp.Compare(a.FirstOffset, b.FirstOffset) })
	abortedPIDs := map[int64]bool{}
	for i := range in.batches {
		b := &in.batches[i]
		skip := false
		if b.ProducerID >= 0 { // hasProducerId: any id above NO_PRODUCER_ID (-1), 0 included
			for len(queue) > 0 && queue[0].FirstOffset <= b.LastOffset() {
				abortedPIDs[queue[0].ProducerID] = true
				queue = queue[1:]
			}
			if t, ok := controlType(b); ok && t == kafkalog.ControlAbort {
				delete(abortedPIDs, b.ProducerID)
			} else if b.Attributes.IsTransactional() && abortedPIDs[b.ProducerID] {
				skip = true
			}
		}
		for _, r := range b.Records {
			o := b.BaseOffset + int64(r.OffsetDelta)
			f := fate{offset: o, batch: i}
			switch {
			case skip:
				f.fate = fateAborted
			case b.Attributes.IsControl():
				f.fate = fateControl
			case o < in.fetchOffset:
				f.fate = fateBelowFetch
			default:
				delivered = append(delivered, o)
			}
			fates = append(fates, f)
		}
	}
	return fates, delivered
}

// describeFetch lays out a fetch for a failure: the fetch offset, one line
// per batch (offsets, producer, transactional or control, its records'
// offsets) and the AbortedTransactions list as it came.
func describeFetch(in fetchInput) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "fetch offset %d, %d batches:", in.fetchOffset, len(in.batches))
	for _, b := range in.batches {
		fmt.Fprintf(&sb, "\n  %s", describeFetchedBatch(&b))
	}
	sb.WriteString("\nAbortedTransactions: ")
	if len(in.aborted) == 0 {
		sb.WriteString("(none)")
	}
	for i, a := range in.aborted {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "{producerId %d, firstOffset %d}", a.ProducerID, a.FirstOffset)
	}
	return sb.String()
}

func describeFetchedBatch(b *kafkalog.RecordBatch) string {
	span := fmt.Sprintf("%d..%d", b.BaseOffset, b.LastOffset())
	who := "no producer id"
	if b.ProducerID >= 0 {
		who = fmt.Sprintf("producerId %d", b.ProducerID)
	}
	switch t, ok := controlType(b); {
	case ok:
		return fmt.Sprintf("%-13s %s control (transactional=%v): %s marker", span, who, b.Attributes.IsTransactional(), t)
	case b.Attributes.IsControl():
		return fmt.Sprintf("%-13s %s control, no record", span, who)
	}
	kind := "idempotent"
	switch {
	case b.Attributes.IsTransactional():
		kind = "transactional"
	case b.ProducerID < 0:
		kind = "plain"
	}
	offs := make([]string, 0, len(b.Records))
	for _, r := range b.Records {
		offs = append(offs, fmt.Sprint(b.BaseOffset+int64(r.OffsetDelta)))
	}
	return fmt.Sprintf("%-13s %s %s, records at %s", span, who, kind, strings.Join(offs, " "))
}

// offsetsText prints offsets as a list, "(none)" when empty.
func offsetsText(offs []int64) string {
	if len(offs) == 0 {
		return "(none)"
	}
	s := make([]string, len(offs))
	for i, o := range offs {
		s[i] = fmt.Sprint(o)
	}
	return strings.Join(s, " ")
}

// txnLog writes a partition's log batch by batch as producers and a
// transaction coordinator would: plain and idempotent batches, transactions
// that begin with their first batch and end with a COMMIT or ABORT marker,
// and offsets the cleaner removed. It keeps what a broker knows of the
// aborted transactions (the .txnindex entries: producer id, first offset,
// the marker's offset), from which a fetch's AbortedTransactions list is
// collected.
type txnLog struct {
	next    int64
	batches []kafkalog.RecordBatch
	open    map[int64]int64 // producer id -> first offset of its open transaction
	seq     map[int64]int32
	aborted []kafkalog.AbortedTxn
	// txnOf is, for each batch, the index in ends of the transaction it
	// belongs to, -1 for none; ends[i] is that transaction's marker type
	// (ControlUnknown while open).
	txnOf []int
	ends  []kafkalog.ControlRecordType
	cur   map[int64]int // producer id -> its open transaction's index in ends
}

func newTxnLog(base int64) *txnLog {
	return &txnLog{next: base, open: map[int64]int64{}, seq: map[int64]int32{}, cur: map[int64]int{}}
}

// gap leaves n offsets out, as the cleaner leaves them.
func (l *txnLog) gap(n int64) { l.next += n }

// data appends a batch of n records of producer pid (-1: a plain producer),
// transactional or not; the records whose bit is set in removed were
// removed by the cleaner (the batch keeps its lastOffsetDelta).
func (l *txnLog) data(pid int64, transactional bool, n int, removed uint) {
	b := kafkalog.RecordBatch{BatchHeader: kafkalog.BatchHeader{
		BaseOffset: l.next, PartitionLeaderEpoch: 0, Magic: kafkalog.MagicV2,
		Attributes:      kafkalog.NewAttributes(kafkalog.CompressionNone, kafkalog.CreateTime, transactional, false),
		LastOffsetDelta: int32(n - 1), ProducerID: pid, ProducerEpoch: kafkalog.NoProducerEpoch, BaseSequence: kafkalog.NoSequence,
	}}
	if pid >= 0 {
		b.ProducerEpoch, b.BaseSequence = 0, l.seq[pid]
		l.seq[pid] += int32(n)
	}
	for i := range n {
		if removed&(1<<i) != 0 {
			continue
		}
		o := l.next + int64(i)
		b.Records = append(b.Records, kafkalog.Record{OffsetDelta: int32(i), Key: []byte(fmt.Sprintf("k%d", o)), Value: []byte("v")})
	}
	b.NumRecords = int32(len(b.Records))
	txn := -1
	if transactional {
		if _, ok := l.open[pid]; !ok {
			l.open[pid] = l.next
			l.cur[pid] = len(l.ends)
			l.ends = append(l.ends, kafkalog.ControlUnknown)
		}
		txn = l.cur[pid]
	}
	l.push(b, txn)
}

// end writes producer pid's COMMIT or ABORT marker, ending its open
// transaction if it has one (a marker without one is a retried marker, as
// Kafka's FetcherTest.testMultipleAbortMarkers writes).
func (l *txnLog) end(pid int64, t kafkalog.ControlRecordType) {
	b := kafkalog.NewEndTxnMarkerBatch(l.next, 0, pid, 0, t, 0)
	b.PartitionLeaderEpoch = 0
	txn := -1
	if first, ok := l.open[pid]; ok {
		txn = l.cur[pid]
		l.ends[txn] = t
		if t == kafkalog.ControlAbort {
			l.aborted = append(l.aborted, kafkalog.AbortedTxn{ProducerID: pid, FirstOffset: first, LastOffset: l.next})
		}
		delete(l.open, pid)
		delete(l.cur, pid)
	}
	l.push(b, txn)
}

// emptyControl writes a control batch whose records the cleaner removed
// (FetcherTest.testEmptyControlBatch).
func (l *txnLog) emptyControl(pid int64) {
	b := kafkalog.NewEndTxnMarkerBatch(l.next, 0, pid, 0, kafkalog.ControlCommit, 0)
	b.Records, b.NumRecords = nil, 0
	l.push(b, -1)
}

func (l *txnLog) push(b kafkalog.RecordBatch, txn int) {
	l.batches = append(l.batches, b)
	l.txnOf = append(l.txnOf, txn)
	l.next = b.NextOffset()
}

// endAll ends every open transaction, in producer id order: COMMIT when
// commit says so.
func (l *txnLog) endAll(commit func(pid int64) bool) {
	pids := make([]int64, 0, len(l.open))
	for pid := range l.open {
		pids = append(pids, pid)
	}
	slices.Sort(pids)
	for _, pid := range pids {
		t := kafkalog.ControlAbort
		if commit(pid) {
			t = kafkalog.ControlCommit
		}
		l.end(pid, t)
	}
}

// fetch is the read_committed fetch at fetchOffset that gets batches
// [from, to): its AbortedTransactions list is every aborted transaction
// whose marker is at or after fetchOffset and whose first offset is below
// the end of the batches (UnifiedLog.collectAbortedTransactions), listed
// in .txnindex order, by marker offset.
func (l *txnLog) fetch(fetchOffset int64, from, to int) fetchInput {
	in := fetchInput{fetchOffset: fetchOffset, batches: slices.Clone(l.batches[from:to])}
	upper := fetchOffset
	if to > from {
		upper = l.batches[to-1].NextOffset()
	}
	for _, a := range l.aborted {
		if a.LastOffset >= fetchOffset && a.FirstOffset < upper {
			in.aborted = append(in.aborted, AbortedTransaction{ProducerID: a.ProducerID, FirstOffset: a.FirstOffset})
		}
	}
	return in.clone()
}

// committedTruth is what a read_committed consumer must get from batches
// [from, to) of l read from fetchOffset, from what the log knows of each
// transaction rather than from the consumer's rule: every data record at or
// after fetchOffset that is not in a transaction, or in one that committed.
func (l *txnLog) committedTruth(fetchOffset int64, from, to int) []int64 {
	var out []int64
	for i := from; i < to; i++ {
		b := &l.batches[i]
		if b.Attributes.IsControl() {
			continue
		}
		if t := l.txnOf[i]; t >= 0 && l.ends[t] != kafkalog.ControlCommit {
			continue
		}
		for _, r := range b.Records {
			if o := b.BaseOffset + int64(r.OffsetDelta); o >= fetchOffset {
				out = append(out, o)
			}
		}
	}
	return out
}

// abortMarkerBatches are the indexes of l's ABORT markers that ended a
// transaction.
func (l *txnLog) abortMarkerBatches() []int {
	var out []int
	for i := range l.batches {
		if t, ok := controlType(&l.batches[i]); ok && t == kafkalog.ControlAbort && l.txnOf[i] >= 0 {
			out = append(out, i)
		}
	}
	return out
}
