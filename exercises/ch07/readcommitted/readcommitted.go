package readcommitted

import (
	"github.com/kafkalive/kafkalive/exercises/todo"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// Deliver returns the offsets of the records a consumer with
// isolation.level=read_committed hands to its application, in offset
// order, from one partition's answer to a fetch at fetchOffset: batches,
// in offset order (the first may begin before fetchOffset: a fetch answers
// whole batches), and the answer's AbortedTransactions list. Read
// notes/07-transactions.md#what-a-read_committed-consumer-does.
//
// Walk the batches in order, as Kafka 3.7's consumer does
// (CompletedFetch.nextFetchedRecord), keeping a set of aborted producer
// ids:
//
//  1. For a batch with a producer id (ProducerID >= 0), first move every
//     aborted transaction whose FirstOffset is <= the batch's last offset
//     (BaseOffset + LastOffsetDelta) out of the list and its producer id
//     into the set, taking the list by FirstOffset, whatever its order.
//  2. A control batch (Attributes.IsControl()) whose first record's key is
//     an ABORT marker (int16 version, then int16 type 0) takes its
//     producer id out of the set. A transactional batch
//     (Attributes.IsTransactional()) of a producer in the set is skipped
//     whole.
//  3. Hand out every other record whose offset (BaseOffset + OffsetDelta)
//     is >= fetchOffset, except the records of control batches: those are
//     never handed out.
//
// The batches and the list are the caller's (read, never change them), and
// the slice you return is the application's.
//
// Check your work with: go test ./exercises/ch07/readcommitted
func Deliver(fetchOffset int64, batches []kafkalog.RecordBatch, aborted []AbortedTransaction) []int64 {
	panic(todo.TODO) // delete this line and write the consumer's filter
}
