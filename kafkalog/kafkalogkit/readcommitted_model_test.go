package kafkalogkit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/kafkalog"
	"pgregory.net/rapid"
)

// TestReadCommittedKnownAnswersByHand checks the read_committed model on
// the answers Kafka's own tests assert (FetcherTest, 3.7.0) and on the
// suite's own cases, written down by hand.
func TestReadCommittedKnownAnswersByHand(t *testing.T) {
	want := map[string][]int64{
		"the chapter's example":                                            {4},
		"FetcherTest.testSkippingAbortedTransactions":                      nil,
		"FetcherTest.testReturnCommittedTransactions":                      {0, 1},
		"FetcherTest.testReadCommittedWithCommittedAndAbortedTransactions": {0, 1, 7},
		"FetcherTest.testMultipleAbortMarkers":                             {4, 5},
		"FetcherTest.testReadCommittedAbortMarkerWithNoData":               {6, 7, 8},
		"FetcherTest.testReadCommittedWithCompactedTopic":                  {3, 4, 30, 31, 32},
		"FetcherTest.testEmptyControlBatch":                                {1, 2},
		"FetcherTest.testFetcherIgnoresControlRecords":                     {0},
		"a plain batch 0..4 fetched at offset 3":                           {3, 4},
		"a batch the cleaner compacted":                                    {10, 12, 14},
		"a list not sorted by first offset":                                {6},
		"two aborted transactions of one producer":                         {6},
		"producer 2's ABORT marker inside":                                 nil,
		"producer id 0":                                                    {3},
		"a batch of producer 1 that is not transactional":                  {1},
		"a fetch at offset 2":                                              {5},
		"an empty fetch":                                                   nil,
		"offsets past 2^32":                                                {3_000_000_002},
		"a log near Long.MaxValue":                                         {1<<63 - 1 - 10, 1<<63 - 1 - 9},
	}
	cases := readCommittedKnownAnswers()
	for prefix, w := range want {
		found := false
		for _, c := range cases {
			if strings.HasPrefix(c.name, prefix) {
				found = true
				if _, got := readCommittedModel(c.in); !cmp.Equal(w, got) && (len(w) > 0 || len(got) > 0) {
					t.Errorf("%s: %s (-want +got):\n%s", c.name, describeFetch(c.in), cmp.Diff(w, got))
				}
			}
		}
		if !found {
			t.Errorf("no known answer is named %q...", prefix)
		}
	}
	if len(want) != len(cases) {
		t.Errorf("%d known answers, %d written down by hand", len(cases), len(want))
	}
}

// TestReadCommittedModelDeliversTheCommitted checks the model, Kafka's
// consumer rule, against what the drawn log knows of each transaction: a
// read_committed fetch hands out exactly the records at or after the fetch
// offset that are in no transaction or in a committed one.
func TestReadCommittedModelDeliversTheCommitted(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l, from, to, fetchOffset := drawTxnLog(t)
		in := l.fetch(fetchOffset, from, to)
		in.aborted = rapid.Permutation(in.aborted).Draw(t, "abortedList")
		_, got := readCommittedModel(in)
		if want := l.committedTruth(fetchOffset, from, to); !cmp.Equal(want, got) && (len(want) > 0 || len(got) > 0) {
			t.Fatalf("%s (-truth +model):\n%s", describeFetch(in), cmp.Diff(want, got))
		}
	})
}

// drawTxnLog draws a log as drawFetch does, returned with its fetch's
// bounds.
func drawTxnLog(t *rapid.T) (*txnLog, int, int, int64) {
	var got struct {
		l        *txnLog
		from, to int
		at       int64
	}
	drawLog(t, func(l *txnLog, from, to int, at int64) { got.l, got.from, got.to, got.at = l, from, to, at })
	return got.l, got.from, got.to, got.at
}

func TestReadCommittedPassesItsOwnRules(t *testing.T) {
	kafka := ReadCommitted{Deliver: func(fetchOffset int64, batches []kafkalog.RecordBatch, aborted []AbortedTransaction) []int64 {
		_, out := readCommittedModel(fetchInput{fetchOffset, batches, aborted})
		return out
	}}
	if err := CheckReadCommitted(kafka); err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, ReadCommittedProperties(kafka))
}
