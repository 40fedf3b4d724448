package kafkalogkit

import (
	"cmp"
	"math"
	"slices"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/kafkalog"
	"pgregory.net/rapid"
)

// readCommittedSubject is a Deliver under judgement, with the known
// mistakes to recognise in what it answers, in what it leaves of its
// input, and in what its earlier answers read after a later call.
type readCommittedSubject struct {
	ReadCommitted
	delivers *kit.Signatures[fetchInput, []int64]
	inputs   *kit.Signatures[fetchInput, fetchInput]
	aliases  *kit.Signatures[[2]fetchInput, []int64]
}

func judgeReadCommitted(r ReadCommitted, known []kit.Known[ReadCommitted]) readCommittedSubject {
	return readCommittedSubject{ReadCommitted: r,
		delivers: kit.NewSignatures(readCommittedProbes, kit.MistakesOf(known, deliverOf)...),
		inputs:   kit.NewSignatures(readCommittedProbes, kit.MistakesOf(known, inputAfterDeliver)...),
		aliases:  kit.NewSignatures(readCommittedAliasProbes, kit.MistakesOf(known, aliasDeliverOf)...),
	}
}

func (r readCommittedSubject) agreeDelivers() []bool {
	return r.delivers.Agrees(deliverOf(r.ReadCommitted))
}
func (r readCommittedSubject) agreeInputs() []bool {
	return r.inputs.Agrees(inputAfterDeliver(r.ReadCommitted))
}
func (r readCommittedSubject) agreeAliases() []bool {
	return r.aliases.Agrees(aliasDeliverOf(r.ReadCommitted))
}

// deliverOf calls a Deliver on a copy of in.
func deliverOf(r ReadCommitted) func(fetchInput) []int64 {
	return func(in fetchInput) []int64 {
		c := in.clone()
		return slices.Clone(r.Deliver(c.fetchOffset, c.batches, c.aborted))
	}
}

// inputAfterDeliver calls a Deliver on in as a caller hands it over and
// returns what the input reads after the call.
func inputAfterDeliver(r ReadCommitted) func(fetchInput) fetchInput {
	return func(in fetchInput) fetchInput {
		c := in.withSpareCapacity()
		r.Deliver(c.fetchOffset, c.batches, c.aborted)
		return c.clone()
	}
}

// aliasDeliverOf runs p[0] then p[1] and returns what p[0]'s answer reads
// after.
func aliasDeliverOf(r ReadCommitted) func([2]fetchInput) []int64 {
	return func(p [2]fetchInput) []int64 {
		a, b := p[0].clone(), p[1].clone()
		first := r.Deliver(a.fetchOffset, a.batches, a.aborted)
		r.Deliver(b.fetchOffset, b.batches, b.aborted)
		return slices.Clone(first)
	}
}

// readCommittedProbes are the known answers' inputs and a fixed sample of
// drawn fetches: a mistake is named only if it agrees with the learner's
// code on all of them.
func readCommittedProbes() []fetchInput {
	var in []fetchInput
	for _, c := range readCommittedKnownAnswers() {
		in = append(in, c.in)
	}
	return append(in, kit.Examples(rapid.Custom(drawFetch), 80)...)
}

// readCommittedAliasProbes are the known answers' consecutive pairs.
func readCommittedAliasProbes() [][2]fetchInput {
	cases := readCommittedKnownAnswers()
	var out [][2]fetchInput
	for i := 1; i < len(cases); i++ {
		out = append(out, [2]fetchInput{cases[i-1].in, cases[i].in})
	}
	return out
}

// farBaseOffsets are where a drawn log begins: at 0, a few offsets in, just
// below 2^31 (offsets cross it), past 2^32, and near Long.MaxValue.
var farBaseOffsets = []int64{0, 7, 1<<31 - 3, 3_000_000_000, math.MaxInt64 - 1000}

// producerIDSets are the producer ids of a drawn log's two transactional
// producers and its idempotent one: producer id 0 is a real id (the
// first of the first block a controller hands out), and ids run up to
// Long.MaxValue.
var producerIDSets = [][3]int64{{1, 2, 7}, {0, 1, 7}, {1 << 40, 5, 9}, {math.MaxInt64, 0, 3}}

// The actions a drawn log is written with.
const (
	actTxnA         = "transactional batch of A"
	actTxnB         = "transactional batch of B"
	actEndA         = "A ends its transaction"
	actEndB         = "B ends its transaction"
	actPlain        = "plain batch (no producer id)"
	actIdempotent   = "idempotent batch"
	actGap          = "offsets removed by the cleaner"
	actRetriedAbort = "a retried ABORT marker of A"
	actEmptyControl = "a control batch the cleaner emptied"
	actShortAbortB  = "B sends one batch and aborts"
	actIdempotentA  = "a batch of A that is not transactional, inside its transaction"
	actAbortRetryA  = "A aborts and begins again"
)

var logActions = []string{actTxnA, actTxnB, actEndA, actEndB, actTxnA, actTxnB, actEndA, actEndB, actPlain, actIdempotent, actGap, actRetriedAbort, actEmptyControl, actShortAbortB, actIdempotentA, actIdempotentA, actAbortRetryA}

// drawFetch draws a log written by two transactional producers (A and B),
// an idempotent one and a plain one, with transactions committed and
// aborted, then one read_committed fetch of it: from a batch to a later
// one, at an offset inside or before the first, with its
// AbortedTransactions list as the leader collects it, in the .txnindex's
// order or another.
func drawFetch(t *rapid.T) fetchInput {
	var in fetchInput
	drawLog(t, func(l *txnLog, from, to int, fetchOffset int64) { in = l.fetch(fetchOffset, from, to) })
	switch kit.Draw(t, rapid.SampledFrom([]string{"txnindex order", "reversed", "shuffled"}), "abortedListOrder") {
	case "reversed":
		slices.Reverse(in.aborted)
	case "shuffled":
		in.aborted = kit.Draw(t, rapid.Permutation(in.aborted), "abortedList")
	}
	return in
}

// drawLog draws the log of drawFetch and the bounds of one fetch of it,
// and hands them to use.
func drawLog(t *rapid.T, use func(l *txnLog, from, to int, fetchOffset int64)) {
	base := kit.Draw(t, rapid.OneOf(rapid.Int64Range(0, 20), rapid.SampledFrom(farBaseOffsets)), "logStartOffset")
	ids := kit.Draw(t, rapid.SampledFrom(producerIDSets), "producerIds")
	a, b, idem := ids[0], ids[1], ids[2]
	l := newTxnLog(base)
	records := func() (int, uint) {
		n := kit.Draw(t, rapid.IntRange(1, 3), "records")
		removed := kit.Draw(t, rapid.SampledFrom([]uint{0, 0, 0, 1, 2, 5}), "removedByCleaner")
		return n, removed & (1<<n - 1)
	}
	end := func(pid int64) {
		marker := kafkalog.ControlAbort
		if kit.Draw(t, rapid.Bool(), "commit") {
			marker = kafkalog.ControlCommit
		}
		l.end(pid, marker)
	}
	steps := kit.Draw(t, rapid.IntRange(1, 18), "steps")
	for range steps {
		switch kit.Draw(t, rapid.SampledFrom(logActions), "action") {
		case actTxnA:
			n, rm := records()
			l.data(a, true, n, rm)
		case actTxnB:
			n, rm := records()
			l.data(b, true, n, rm)
		case actEndA:
			end(a)
		case actEndB:
			end(b)
		case actPlain:
			n, rm := records()
			l.data(kafkalog.NoProducerID, false, n, rm)
		case actIdempotent:
			n, rm := records()
			l.data(idem, false, n, rm)
		case actGap:
			l.gap(kit.Draw(t, rapid.Int64Range(1, 3), "gap"))
		case actRetriedAbort:
			l.end(a, kafkalog.ControlAbort)
		case actEmptyControl:
			l.emptyControl(b)
		case actShortAbortB:
			l.data(b, true, 1, 0)
			l.end(b, kafkalog.ControlAbort)
		case actAbortRetryA:
			n, rm := records()
			l.data(a, true, n, rm)
			l.end(a, kafkalog.ControlAbort)
			l.data(a, true, 1, 0)
		case actIdempotentA:
			// Only inside A's transaction does the batch tell the rule:
			// outside one, A's transactional batch begins one.
			_, open := l.open[a]
			n, rm := records()
			l.data(a, !open, n, rm)
		}
	}
	commits := kit.Draw(t, rapid.SampledFrom([]string{"both commit", "A aborts", "B aborts", "both abort"}), "openTransactionsEnd")
	l.endAll(func(pid int64) bool {
		return commits == "both commit" || (commits == "A aborts" && pid != a) || (commits == "B aborts" && pid != b)
	})
	if len(l.batches) == 0 {
		l.data(kafkalog.NoProducerID, false, 1, 0)
	}
	// A fetch that begins at an ABORT marker, its transaction's records
	// below the fetch offset, is drawn often: the walk starts inside an
	// abort.
	from := kit.Draw(t, rapid.IntRange(0, len(l.batches)-1), "firstBatch")
	if markers := l.abortMarkerBatches(); len(markers) > 0 && kit.Draw(t, rapid.Bool(), "fetchBeginsAtAnAbortMarker") {
		from = kit.Draw(t, rapid.SampledFrom(markers), "markerBatch")
	}
	// Most fetches read to the end of the log: what comes after an abort
	// tells most rules.
	to := kit.Draw(t, rapid.OneOf(rapid.Just(len(l.batches)), rapid.IntRange(from+1, len(l.batches))), "endBatch")
	lo := base
	if from > 0 {
		lo = l.batches[from-1].NextOffset()
	}
	use(l, from, to, kit.Draw(t, rapid.Int64Range(lo, l.batches[from].LastOffset()), "fetchOffset"))
}

// smallerFetch proposes smaller fetches than in: a batch fewer, an entry
// of the list fewer, a record fewer, the fetch offset at its first batch's
// base offset, the list sorted.
func smallerFetch(in fetchInput) []fetchInput {
	var out []fetchInput
	with := func(edit func(f *fetchInput)) {
		c := in.clone()
		edit(&c)
		out = append(out, c)
	}
	for i := range in.batches {
		with(func(f *fetchInput) { f.batches = slices.Delete(f.batches, i, i+1) })
	}
	for i := range in.aborted {
		with(func(f *fetchInput) { f.aborted = slices.Delete(f.aborted, i, i+1) })
	}
	for i, b := range in.batches {
		for j := range b.Records {
			with(func(f *fetchInput) {
				f.batches[i].Records = slices.Delete(f.batches[i].Records, j, j+1)
				f.batches[i].NumRecords--
			})
		}
	}
	if len(in.batches) > 0 && in.fetchOffset > in.batches[0].BaseOffset {
		with(func(f *fetchInput) { f.fetchOffset = f.batches[0].BaseOffset })
	}
	if !slices.IsSortedFunc(in.aborted, compareAborted) {
		with(func(f *fetchInput) { slices.SortStableFunc(f.aborted, compareAborted) })
	}
	return out
}

func compareAborted(a, b AbortedTransaction) int { return cmp.Compare(a.FirstOffset, b.FirstOffset) }
