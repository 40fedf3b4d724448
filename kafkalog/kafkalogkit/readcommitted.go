package kafkalogkit

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/kafkalog"
	"pgregory.net/rapid"
)

// AbortedTransaction is one entry of a Fetch response's AbortedTransactions
// list (FetchResponseData.AbortedTransaction): the producer whose
// transaction was aborted and the transaction's first offset. A
// read_committed fetch lists every aborted transaction that overlaps the
// records it returns, in the order the leader's .txnindex files hold them
// (by ABORT marker offset), not by first offset.
type AbortedTransaction struct {
	// ProducerID is the transactional producer's id.
	ProducerID int64
	// FirstOffset is the offset of the transaction's first batch.
	FirstOffset int64
}

// ReadCommitted is the surface of exercise ch07/readcommitted: what a
// consumer with isolation.level=read_committed hands out of one fetched
// range (Kafka 3.7's CompletedFetch.nextFetchedRecord).
type ReadCommitted struct {
	// Deliver returns the offsets of the records the consumer hands to the
	// application, in offset order, from batches (one partition's answer to
	// a read_committed fetch at fetchOffset; the first batch may begin
	// before fetchOffset) and the answer's AbortedTransactions list.
	Deliver func(fetchOffset int64, batches []kafkalog.RecordBatch, aborted []AbortedTransaction) []int64
}

var readCommittedExercise = kit.Exercise{
	Dir:  "exercises/ch07/readcommitted",
	File: "readcommitted.go",
	Note: note07 + "#what-a-read_committed-consumer-does",
}

var (
	ruleE1  = kit.Rule{ID: "E1", Name: "control records are never delivered", Note: note07 + "#control-batches"}
	ruleE2  = kit.Rule{ID: "E2", Name: "from the fetch offset", Note: note07 + "#the-fetched-range"}
	ruleE3  = kit.Rule{ID: "E3", Name: "offset = baseOffset + offsetDelta", Note: note07 + "#the-fetched-range"}
	ruleE4  = kit.Rule{ID: "E4", Name: "an aborted transaction is skipped", Note: note07 + "#what-a-read_committed-consumer-does"}
	ruleE5  = kit.Rule{ID: "E5", Name: "an abort begins at its first offset", Note: note07 + "#an-abort-begins-at-its-first-offset"}
	ruleE6  = kit.Rule{ID: "E6", Name: "the ABORT marker ends it", Note: note07 + "#the-abort-marker-ends-it"}
	ruleE7  = kit.Rule{ID: "E7", Name: "only the aborted producer", Note: note07 + "#what-a-read_committed-consumer-does"}
	ruleE8  = kit.Rule{ID: "E8", Name: "only transactional batches", Note: note07 + "#what-a-read_committed-consumer-does"}
	ruleE9  = kit.Rule{ID: "E9", Name: "every other record is delivered", Note: note07 + "#what-a-read_committed-consumer-does"}
	ruleE10 = kit.Rule{ID: "E10", Name: "in offset order, once each", Note: note07 + "#you-write"}
	ruleE11 = kit.Rule{ID: "E11", Name: "no panic", Note: note07 + "#you-write"}
	ruleE12 = kit.Rule{ID: "E12", Name: "the fetch is the caller's", Note: note07 + "#the-fetch-and-the-answer-are-the-callers"}
	ruleE13 = kit.Rule{ID: "E13", Name: "an earlier result stays", Note: note07 + "#the-fetch-and-the-answer-are-the-callers"}

	readCommittedRules = []kit.Rule{ruleE1, ruleE2, ruleE3, ruleE4, ruleE5, ruleE6, ruleE7, ruleE8, ruleE9, ruleE10, ruleE11, ruleE12, ruleE13}
)

func probeReadCommitted(r ReadCommitted) error {
	return readCommittedExercise.Probe(kit.Call{Func: "Deliver", Do: func() { r.Deliver(0, nil, nil) }})
}

// CheckReadCommitted checks r against Kafka's own cases (FetcherTest's
// read_committed tests and CompletedFetchTest's), the chapter's worked
// example, the extremes of offsets and producer ids, and one case per
// known mistake, and returns the first violation.
func CheckReadCommitted(r ReadCommitted, known ...kit.Known[ReadCommitted]) error {
	return checkReadCommitted(judgeReadCommitted(r, known), kit.Replay("./"+readCommittedExercise.Dir, "TestReadCommitted"))
}

func checkReadCommitted(r readCommittedSubject, replay string) error {
	if err := probeReadCommitted(r.ReadCommitted); err != nil {
		return err
	}
	cases := readCommittedKnownAnswers()
	var known []kit.KnownAnswer[fetchInput]
	for _, c := range cases {
		known = append(known, kit.KnownAnswer[fetchInput]{Name: c.name, In: c.in})
	}
	if f := kit.CheckKnown(known, func(in fetchInput) *kit.Failure { return readCommittedCase(r, in) }, smallerFetch, replay); f != nil {
		return f
	}
	for i := 1; i < len(cases); i++ {
		if f := deliveredAliasCase(r, [2]fetchInput{cases[i-1].in, cases[i].in}); f != nil {
			f.Details = append(f.Details, "known answers: "+cases[i-1].name+", then "+cases[i].name)
			f.Replay = replay
			return f
		}
	}
	return nil
}

// ReadCommittedProperties returns the rapid property for r: for any log that
// transactional, idempotent and plain producers wrote (transactions
// committed and aborted, interleaved, markers retried, batches and records
// the cleaner removed, offsets past 2^31, producer id 0 and Long.MaxValue)
// and any read_committed fetch of it (from any offset, cut anywhere, its
// AbortedTransactions list in any order), Deliver hands out what Kafka's
// consumer does; and a result stays as it was after the next call.
func ReadCommittedProperties(r ReadCommitted, known ...kit.Known[ReadCommitted]) func(*rapid.T) {
	return readCommittedProperties(judgeReadCommitted(r, known), kit.Replay("./"+readCommittedExercise.Dir, "TestReadCommitted/properties"))
}

func readCommittedProperties(r readCommittedSubject, replay string) func(*rapid.T) {
	return func(t *rapid.T) {
		in := drawFetch(t)
		if f := readCommittedCase(r, in); f != nil {
			f.Replay = replay
			kit.Fatal(t, f)
		}
		next := kit.Draw(t, rapid.Custom(drawFetch), "nextFetch")
		if f := deliveredAliasCase(r, [2]fetchInput{in, next}); f != nil {
			f.Replay = replay
			kit.Fatal(t, f)
		}
	}
}

// TestReadCommitted runs CheckReadCommitted and ReadCommittedProperties as
// subtests of t.
func TestReadCommitted(t *testing.T, impl ReadCommitted, known ...kit.Known[ReadCommitted]) {
	t.Helper()
	r := judgeReadCommitted(impl, known)
	kit.Run(t, 1, kit.Suite{
		Exercise:  readCommittedExercise,
		Probe:     func() error { return probeReadCommitted(impl) },
		Check:     func(replay string) error { return checkReadCommitted(r, replay) },
		Props:     func(replay string) func(*rapid.T) { return readCommittedProperties(r, replay) },
		PropsName: "properties",
	})
}

// callDeliver runs r.Deliver on a copy of in as a caller hands it over (its
// slices with spare capacity after them), guarded, and returns its answer,
// what the copy reads after the call, and what the call panicked with.
func callDeliver(r ReadCommitted, in fetchInput) ([]int64, fetchInput, any) {
	var got []int64
	c := in.withSpareCapacity()
	p := kit.Guard(func() { got = r.Deliver(c.fetchOffset, c.batches, c.aborted) })
	return got, c.clone(), p
}

// readCommittedCase checks one fetch: the answer against Kafka's consumer,
// naming the first decision that went wrong, then the input.
func readCommittedCase(r readCommittedSubject, in fetchInput) *kit.Failure {
	got, after, p := callDeliver(r.ReadCommitted, in)
	if kit.IsTimeout(p) {
		return kit.Timeout(ruleE4, "Deliver", termination07, describeFetch(in))
	}
	if p != nil {
		return &kit.Failure{Rule: ruleE11, What: fmt.Sprintf("Deliver panicked: %v. A fetch answer a broker sends (a control batch the cleaner emptied, a list in any order) must never crash the consumer.", p),
			Details: []string{describeFetch(in)},
			Hint: func() []kit.Match {
				return r.delivers.PanicsLike(deliverOf(r.ReadCommitted), in, r.agreeInputs(), r.agreeAliases())
			}}
	}
	fates, want := readCommittedModel(in)
	if !slices.Equal(got, want) {
		rule, what, dump := explainDelivered(in, fates, want, got)
		details := []string{describeFetch(in), "want delivered: " + offsetsText(want), "got:            " + offsetsText(got)}
		if dump != "" {
			details = append(details, dump)
		}
		return &kit.Failure{Rule: rule, What: what, Details: details,
			Hint: func() []kit.Match {
				return r.delivers.LooksLike(deliverOf(r.ReadCommitted), in, got, r.agreeInputs(), r.agreeAliases())
			}}
	}
	if !sameFetch(in, after) {
		return &kit.Failure{Rule: ruleE12, What: "Deliver changed the fetch it was given (its batches, their records or the AbortedTransactions list). The fetch response is the caller's: Kafka's consumer keeps the list in a queue of its own (a PriorityQueue by first offset); sort and cut copies.",
			Details: []string{"before the call:\n" + describeFetch(in), "after it:\n" + describeFetch(after)},
			Hint: func() []kit.Match {
				return r.inputs.LooksLike(inputAfterDeliver(r.ReadCommitted), in, after, r.agreeDelivers(), r.agreeAliases())
			}}
	}
	return nil
}

// explainDelivered names the rule the first difference between got and
// want breaks: the smallest offset one has and the other has not, read
// with the model's fate of that record. A list out of order is E10.
func explainDelivered(in fetchInput, fates []fate, want, got []int64) (kit.Rule, string, string) {
	for i := 1; i < len(got); i++ {
		if got[i] <= got[i-1] {
			return ruleE10, fmt.Sprintf("Deliver returned offset %d after %d: a consumer hands records out in the order of their offsets, each once.", got[i], got[i-1]), ""
		}
	}
	o, extra := firstDifference(want, got)
	at := slices.IndexFunc(fates, func(f fate) bool { return f.offset == o })
	if extra {
		if at < 0 {
			return ruleE3, fmt.Sprintf("Deliver returned offset %d, where the fetch holds no record. A record's offset is its batch's baseOffset + its offsetDelta: in a batch the cleaner compacted, the records left keep their deltas and the offsets between are gone.", o), ""
		}
		b := &in.batches[fates[at].batch]
		switch fates[at].fate {
		case fateControl:
			return ruleE1, fmt.Sprintf("Deliver returned offset %d, the record of a control batch (its %s). Control records are never handed to the application; the consumer passes them.", o, controlName(b)),
				batchDump(b, 22, "attributes bit 5 (0x20) set: a control batch")
		case fateBelowFetch:
			return ruleE2, fmt.Sprintf("Deliver returned offset %d, below the fetch offset %d. A fetch answers whole batches, so its first batch may begin before the offset asked for; the records before it were read already.", o, in.fetchOffset), ""
		}
		return ruleE4, fmt.Sprintf("Deliver returned offset %d, a record of producer %d's aborted transaction: its batch is transactional, at or after the first offset of an aborted transaction of that producer in the list (%s), and before that producer's ABORT marker. Its whole batch is skipped.",
			o, b.ProducerID, abortsOf(in, b.ProducerID)), batchDump(b, 43, fmt.Sprintf("producerId %d (bytes 43-50), transactional (attributes bit 4 set)", b.ProducerID))
	}
	if at < 0 {
		return ruleE9, fmt.Sprintf("Deliver left out offset %d.", o), ""
	}
	b := &in.batches[fates[at].batch]
	return missedRule(in, b, o)
}

// missedRule names the rule a consumer broke that left out offset o, a
// record of b that Kafka's consumer hands out.
func missedRule(in fetchInput, b *kafkalog.RecordBatch, o int64) (kit.Rule, string, string) {
	aborts := abortsOf(in, b.ProducerID)
	switch {
	case b.BaseOffset < in.fetchOffset:
		return ruleE2, fmt.Sprintf("Deliver left out offset %d, at or after the fetch offset %d in a batch that begins before it (%d..%d): the consumer hands out every record from the fetch offset on.", o, in.fetchOffset, b.BaseOffset, b.LastOffset()), ""
	case b.ProducerID < 0 || aborts == "":
		if len(in.aborted) > 0 && b.ProducerID >= 0 {
			return ruleE7, fmt.Sprintf("Deliver left out offset %d, a record of producer %d, which has no aborted transaction in the list. An aborted transaction is its producer's alone: another producer's batches between its first offset and its marker are delivered.", o, b.ProducerID), ""
		}
		if len(in.aborted) > 0 {
			return ruleE7, fmt.Sprintf("Deliver left out offset %d, a record of a producer without a producer id, which no transaction concerns: only the aborted producer's transactional batches are skipped.", o), ""
		}
		return ruleE9, fmt.Sprintf("Deliver left out offset %d: no transaction of the list concerns it, so the consumer hands it out.", o), ""
	case !b.Attributes.IsTransactional():
		return ruleE8, fmt.Sprintf("Deliver left out offset %d, a record of producer %d in a batch that is not transactional (attributes bit 4 clear). Only transactional batches of an aborted producer are skipped.", o, b.ProducerID), batchDump(b, 22, "attributes bit 4 (0x10) clear: not transactional")
	case !slices.ContainsFunc(in.aborted, func(a AbortedTransaction) bool {
		return a.ProducerID == b.ProducerID && a.FirstOffset <= b.LastOffset()
	}):
		return ruleE5, fmt.Sprintf("Deliver left out offset %d, in producer %d's batch %d..%d, which ends before the first offset of that producer's aborted transaction (%s): a transaction of the producer before the aborted one (committed) is delivered. A producer joins the aborted set only at a batch whose last offset reaches the aborted transaction's first offset.", o, b.ProducerID, b.BaseOffset, b.LastOffset(), aborts), ""
	}
	return ruleE6, fmt.Sprintf("Deliver left out offset %d, in producer %d's batch %d..%d, after that producer's ABORT marker: the marker ends the aborted transaction (the producer leaves the aborted set), and the producer's next transaction is delivered unless another aborted transaction of it begins (%s).", o, b.ProducerID, b.BaseOffset, b.LastOffset(), aborts), ""
}

// firstDifference returns the smallest offset in exactly one of want and
// got, and whether it is got's (an offset delivered that should not be).
func firstDifference(want, got []int64) (int64, bool) {
	i, j := 0, 0
	for i < len(want) && j < len(got) {
		switch {
		case want[i] == got[j]:
			i, j = i+1, j+1
		case want[i] < got[j]:
			return want[i], false
		default:
			return got[j], true
		}
	}
	if j < len(got) {
		return got[j], true
	}
	return want[i], false
}

// abortsOf lists the aborted transactions of pid in the fetch's list.
func abortsOf(in fetchInput, pid int64) string {
	var offs []int64
	for _, a := range in.aborted {
		if a.ProducerID == pid {
			offs = append(offs, a.FirstOffset)
		}
	}
	if len(offs) == 0 {
		return ""
	}
	return fmt.Sprintf("producer %d's aborted transactions begin at %s", pid, offsetsText(offs))
}

// controlName says what a control batch is.
func controlName(b *kafkalog.RecordBatch) string {
	if t, ok := controlType(b); ok {
		return t.String() + " marker"
	}
	return "control record"
}

// batchDump hexdumps b's bytes with the byte at pos, the one the decision
// should have read, marked and named.
func batchDump(b *kafkalog.RecordBatch, pos int, field string) string {
	dump := kit.Hexdump(b.AppendTo(nil), pos)
	return "the batch's bytes:\n" + strings.Replace(dump, "first wrong byte", "the byte that decides, "+field, 1)
}

// deliveredAliasCase runs p[0] then p[1] and checks that the answer
// returned for p[0] still reads the same.
func deliveredAliasCase(r readCommittedSubject, p [2]fetchInput) *kit.Failure {
	first, _, p0 := callDeliver(r.ReadCommitted, p[0])
	if p0 != nil {
		return nil // the fetch's own check reports it
	}
	kept := slices.Clone(first)
	if _, _, p1 := callDeliver(r.ReadCommitted, p[1]); p1 != nil {
		return nil
	}
	if slices.Equal(first, kept) {
		return nil
	}
	return &kit.Failure{Rule: ruleE13,
		What:    fmt.Sprintf("Deliver returned %s, and after the next call (another fetch) that slice reads %s. The records handed out are the application's: return a slice of its own, never one you keep and fill again.", offsetsText(kept), offsetsText(first)),
		Details: []string{"the first fetch:\n" + describeFetch(p[0]), "the next fetch:\n" + describeFetch(p[1])},
		Hint: func() []kit.Match {
			return r.aliases.LooksLike(aliasDeliverOf(r.ReadCommitted), p, first, r.agreeDelivers(), r.agreeInputs())
		},
	}
}
