package removesbeforejoin

import (
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// abortMarker is the type of an ABORT control record, in the second int16
// of its key (ControlRecordType.ABORT; COMMIT is 1).
const abortMarker = 0

// Deliver returns the offsets of the records a consumer with
// isolation.level=read_committed hands to its application, in offset
// order, from one partition's answer to a fetch at fetchOffset
// (Kafka 3.7's CompletedFetch.nextFetchedRecord;
// notes/07-transactions.md#what-a-read_committed-consumer-does).
//
// An aborted transaction is not removed from the log: its batches stay,
// followed by its producer's ABORT marker. What the consumer knows is the
// list the leader sent, each entry a producer id and the offset its
// aborted transaction began at. Walking the batches in offset order, a
// producer becomes "aborted" when the walk reaches that first offset, and
// stops being aborted at its own ABORT marker; in between, its
// transactional batches are skipped whole.
func Deliver(fetchOffset int64, batches []kafkalog.RecordBatch, aborted []AbortedTransaction) []int64 {
	// The list is the caller's, and the leader lists it by marker offset:
	// take a sorted copy, a queue by first offset.
	queue := slices.Clone(aborted)
	slices.SortStableFunc(queue, func(a, b AbortedTransaction) int { return cmp.Compare(a.FirstOffset, b.FirstOffset) })
	abortedPIDs := map[int64]bool{}
	var out []int64
	for i := range batches {
		b := &batches[i]
		if b.ProducerID >= 0 { // 0 is a producer id too; -1 is none
			// Every aborted transaction that has begun by the end of this
			// batch is now in force, whoever wrote this batch.
			marker := isAbortMarker(b)
			if marker {
				delete(abortedPIDs, b.ProducerID) // mistake: before the list is read up to this batch
			}
			for len(queue) > 0 && queue[0].FirstOffset <= b.LastOffset() {
				abortedPIDs[queue[0].ProducerID] = true
				queue = queue[1:]
			}
			if marker {
				// The producer's aborted transaction ends here.
			} else if b.Attributes.IsTransactional() && abortedPIDs[b.ProducerID] {
				continue // a batch of the aborted transaction: skipped whole
			}
		}
		if b.Attributes.IsControl() {
			continue // markers are for the consumer, never for the application
		}
		for _, r := range b.Records {
			// A compacted batch keeps its records' deltas: the offsets
			// between are gone, so never count records to find an offset.
			if o := b.BaseOffset + int64(r.OffsetDelta); o >= fetchOffset {
				out = append(out, o) // below fetchOffset: read before
			}
		}
	}
	return out
}

// isAbortMarker reports whether b is a control batch whose first record is
// an ABORT marker: its key is an int16 version, then the int16 type. A
// control batch the cleaner emptied has no record, and is no marker.
func isAbortMarker(b *kafkalog.RecordBatch) bool {
	if !b.Attributes.IsControl() || len(b.Records) == 0 || len(b.Records[0].Key) < 4 {
		return false
	}
	return int16(binary.BigEndian.Uint16(b.Records[0].Key[2:])) == abortMarker
}
