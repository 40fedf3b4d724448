package kafkalogkit

import (
	"math"

	"github.com/kafkalive/kafkalive/kafkalog"
)

type readCommittedKnown struct {
	name string
	in   fetchInput
}

// aborts is an AbortedTransactions list, written pid, firstOffset, pid,
// firstOffset...
func aborts(pairs ...int64) []AbortedTransaction {
	out := []AbortedTransaction{}
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, AbortedTransaction{ProducerID: pairs[i], FirstOffset: pairs[i+1]})
	}
	return out
}

// whole is the fetch at offset from of every batch of l, with the list
// the leader would send.
func whole(l *txnLog, from int64) fetchInput { return l.fetch(from, 0, len(l.batches)) }

// withList is in with another AbortedTransactions list.
func withList(in fetchInput, list []AbortedTransaction) fetchInput {
	in.aborted = list
	return in
}

// readCommittedKnownAnswers are Kafka 3.7's own read_committed cases
// (FetcherTest), the chapter's worked example, one case per known mistake,
// and the extremes of offsets and producer ids. Each answer is what
// Kafka's test asserts (models_test.go holds them written down by hand).
func readCommittedKnownAnswers() []readCommittedKnown {
	const a, b = 1, 2
	const abort, commit = kafkalog.ControlAbort, kafkalog.ControlCommit
	var cases []readCommittedKnown
	add := func(name string, in fetchInput) { cases = append(cases, readCommittedKnown{name, in}) }

	l := newTxnLog(0) // the aborted-transaction scenario: a1-a3 aborted, b1 committed
	l.data(10000, true, 1, 0)
	l.data(10000, true, 1, 0)
	l.data(10000, true, 1, 0)
	l.end(10000, abort)
	l.data(10000, true, 1, 0)
	l.end(10000, commit)
	add("the chapter's example (the aborted-transaction scenario): a1-a3 at 0-2 aborted, ABORT at 3, b1 at 4 committed, COMMIT at 5", whole(l, 0))

	l = newTxnLog(0)
	l.data(a, true, 2, 0)
	l.end(a, abort)
	add("FetcherTest.testSkippingAbortedTransactions: producer 1's records 0-1, ABORT at 2, list {1, 0}", whole(l, 0))

	l = newTxnLog(0)
	l.data(a, true, 2, 0)
	l.end(a, commit)
	add("FetcherTest.testReturnCommittedTransactions: records 0-1, COMMIT at 2, an empty list", whole(l, 0))

	l = newTxnLog(0)
	l.data(a, true, 2, 0) // commit1-1, commit1-2
	l.data(b, true, 1, 0) // abort2-1
	l.end(a, commit)      // 3
	l.data(b, true, 1, 0) // abort2-2
	l.end(b, abort)       // 5
	l.data(a, true, 1, 0) // abort1-1
	l.data(b, true, 1, 0) // commit2-1
	l.data(a, true, 1, 0) // abort1-2
	l.end(a, abort)       // 9
	l.end(b, commit)      // 10
	add("FetcherTest.testReadCommittedWithCommittedAndAbortedTransactions: producers 1 and 2 interleaved, 0-1 and 7 committed", whole(l, 0))

	l = newTxnLog(0)
	l.data(a, true, 2, 0)
	l.end(a, abort)
	l.end(a, abort) // a duplicate marker
	l.data(a, true, 2, 0)
	l.end(a, commit)
	add("FetcherTest.testMultipleAbortMarkers: 0-1 aborted, ABORT at 2 and again at 3, 4-5 committed", whole(l, 0))

	l = newTxnLog(5)
	l.end(a, abort)
	l.data(a, true, 3, 0)
	l.end(a, commit)
	add("FetcherTest.testReadCommittedAbortMarkerWithNoData: ABORT at 5 whose records are gone, list {1, 0}, 6-8 committed", withList(whole(l, 0), aborts(a, 0)))

	l = newTxnLog(3)
	l.data(3, true, 2, 0) // 3-4
	l.gap(10)
	l.data(b, true, 3, 0) // 15-17
	l.gap(4)
	l.data(a, true, 2, 0) // 22-23
	l.gap(4)
	l.end(b, abort) // 28
	l.gap(1)
	l.data(3, true, 3, 0) // 30-32
	l.gap(2)
	l.end(3, commit) // 35
	l.gap(3)
	l.data(a, true, 2, 0) // 39-40, its ABORT beyond the fetch
	add("FetcherTest.testReadCommittedWithCompactedTopic: gaps, a list {2, 6}, {1, 0} not by first offset, producer 1's marker not fetched", withList(whole(l, 0), aborts(b, 6, a, 0)))

	l = newTxnLog(0)
	l.emptyControl(a)
	l.data(a, true, 2, 0)
	l.end(a, commit)
	add("FetcherTest.testEmptyControlBatch: a control batch with no record at 0, then 1-2 committed", whole(l, 0))

	l = newTxnLog(0)
	l.data(a, false, 1, 0)
	l.end(a, abort)
	add("FetcherTest.testFetcherIgnoresControlRecords: an idempotent record at 0, an ABORT marker at 1", whole(l, 0))

	l = newTxnLog(0)
	l.data(kafkalog.NoProducerID, false, 5, 0)
	add("a plain batch 0..4 fetched at offset 3: the batch comes whole, 3 and 4 are delivered", whole(l, 3))

	l = newTxnLog(10)
	l.data(kafkalog.NoProducerID, false, 5, 0b01010)
	add("a batch the cleaner compacted: offsets 10..14, records left at 10, 12 and 14", whole(l, 10))

	l = newTxnLog(0)
	l.data(a, true, 2, 0) // 0-1
	l.end(a, abort)       // 2
	l.data(b, true, 2, 0) // 3-4
	l.end(b, abort)       // 5
	l.data(kafkalog.NoProducerID, false, 1, 0)
	add("a list not sorted by first offset: {2, 3} before {1, 0}; producer 1's batch at 0 is aborted", withList(whole(l, 0), aborts(b, 3, a, 0)))

	l = newTxnLog(0)
	l.data(a, true, 2, 0) // 0-1
	l.end(a, abort)       // 2
	l.data(a, true, 2, 0) // 3-4
	l.end(a, abort)       // 5
	l.data(a, true, 1, 0) // 6
	l.end(a, commit)      // 7
	add("two aborted transactions of one producer ({1, 0} and {1, 3}), then one committed at 6", whole(l, 0))

	l = newTxnLog(0)
	l.data(a, true, 1, 0) // 0
	l.data(b, true, 1, 0) // 1
	l.end(b, abort)       // 2: B's marker, inside A's transaction
	l.data(a, true, 1, 0) // 3
	l.end(a, abort)       // 4
	add("producer 2's ABORT marker inside producer 1's aborted transaction: 1 stays aborted until its own marker", withList(whole(l, 0), aborts(b, 1, a, 0)))

	l = newTxnLog(0)
	l.data(0, true, 2, 0)
	l.end(0, abort)
	l.data(kafkalog.NoProducerID, false, 1, 0)
	add("producer id 0, the first id a cluster hands out, aborts 0-1", whole(l, 0))

	l = newTxnLog(0)
	l.data(a, true, 1, 0) // 0
	l.data(a, false, 1, 0)
	l.data(a, true, 1, 0) // 2
	l.end(a, abort)       // 3
	add("a batch of producer 1 that is not transactional, inside its aborted transaction: delivered", whole(l, 0))

	l = newTxnLog(0)
	l.data(a, true, 2, 0) // 0-1
	l.data(a, true, 2, 0) // 2-3
	l.end(a, abort)       // 4
	l.data(kafkalog.NoProducerID, false, 1, 0)
	add("a fetch at offset 2, inside producer 1's aborted transaction begun at 0", l.fetch(2, 1, len(l.batches)))

	add("an empty fetch at offset 42: nothing to deliver", fetchInput{fetchOffset: 42})

	l = newTxnLog(3_000_000_000)
	l.data(math.MaxInt64, true, 2, 0)
	l.data(0, true, 1, 0)
	l.end(math.MaxInt64, abort)
	l.end(0, commit)
	add("offsets past 2^32 and producer id Long.MaxValue (9223372036854775807) aborting, producer 0 committing", whole(l, 3_000_000_000))

	l = newTxnLog(math.MaxInt64 - 10)
	l.data(a, true, 2, 0)
	l.end(a, commit)
	l.data(b, true, 2, 0)
	l.end(b, abort)
	add("a log near Long.MaxValue: offsets 9223372036854775797 on", whole(l, math.MaxInt64-10))
	return cases
}
