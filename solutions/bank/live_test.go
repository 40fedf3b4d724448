package bank

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	kitlive "github.com/kafkalive/kafkalive/internal/kit/live"
)

// With the solutions plugged into the live cluster, every guided scenario of
// their chapter ends as it does on the reference; with each mutant of the bank,
// at least one shows another outcome, and the comparison points at the first
// difference. "go test -v -run TestLiveMatrix ./solutions/bank" prints the matrix:
// mutant x scenario x differs, with the first difference.
func TestLiveMatrix(t *testing.T) {
	all, err := kitlive.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	byPart := map[string][]kitlive.Guided{}
	refs := map[string][]kitlive.StepOutcome{}
	for _, g := range all {
		byPart[g.Part] = append(byPart[g.Part], g)
		if refs[g.Name], err = kitlive.ReferenceOutcome(g); err != nil {
			t.Fatal(err)
		}
	}
	type row struct {
		part, mutant, scenario string
		c                      kitlive.Comparison
		err                    error
	}
	var jobs []func() row
	for _, e := range exercises() {
		gs := byPart[e.name]
		if len(gs) == 0 {
			t.Errorf("%s: no guided scenario", e.name)
		}
		for _, g := range gs {
			for _, m := range append([]subject{e.solution}, e.mutants...) {
				jobs = append(jobs, func() row {
					c, err := kitlive.CompareAgainst(g, refs[g.Name], m.live)
					return row{e.name, m.name, g.Name, c, err}
				})
			}
		}
	}
	rows := make([]row, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, job := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			rows[i] = job()
		}()
	}
	wg.Wait()
	differs := map[string]bool{}
	var b strings.Builder
	fmt.Fprintf(&b, "%-18s %-26s %-16s %-8s %s\n", "part", "mutant", "scenario", "differs", "first difference")
	for _, r := range rows {
		if r.err != nil {
			t.Errorf("%s %s on %s: %v", r.part, r.mutant, r.scenario, r.err)
			continue
		}
		if r.c.Runs != kitlive.YourCode {
			t.Errorf("%s %s on %s: the reference ran (%v)", r.part, r.mutant, r.scenario, r.c.Faults)
		}
		first := ""
		if d := r.c.Difference; d != nil {
			first = d.String()
		}
		fmt.Fprintf(&b, "%-18s %-26s %-16s %-8v %.160s\n", r.part, r.mutant, r.scenario, !r.c.Matches, first)
		key := r.part + " " + r.mutant
		if !r.c.Matches {
			differs[key] = true
		}
		if r.mutant == "solution" && !r.c.Matches {
			t.Errorf("the solution of %s on %s differs from the reference: %s", r.part, r.scenario, first)
		}
	}
	t.Logf("live matrix:\n%s", b.String())
	for _, e := range exercises() {
		for _, m := range e.mutants {
			key := e.name + " " + m.name
			switch {
			case !differs[key] && liveUndetected[key] == "":
				t.Errorf("mutant %s of %s: every scenario of the chapter ends as on the reference", m.name, e.name)
			case differs[key] && liveUndetected[key] != "":
				t.Errorf("mutant %s of %s now shows a difference: remove it from liveUndetected", m.name, e.name)
			}
		}
	}
	t.Logf("%d mutants no scenario shows (liveUndetected, each with why)", len(liveUndetected))
}

// liveUndetected are the mutants whose mistake the chapter's scenarios do not
// show, each with why: most cannot show in any outcome a cluster can reach (the
// world's producers, logs and fetchers never give the input that tells the
// mistake from the rule). The test fails when one of them starts to show a
// difference, so the list only shrinks.
var liveUndetected = map[string]string{
	"ch01/varint inplacenoroom":             "the live boundary hands AppendVarint the batch being built clipped to its length (slices.Clip in internal/kit/live): dst never has spare capacity, so the in-place path never runs",
	"ch01/varint inplaceshort":              "as for inplacenoroom: dst never has spare capacity in the world, so the in-place path never runs",
	"ch01/varint scratchresult":             "the world appends every varint to the batch being built, never to an empty dst, so the scratch buffer is never handed out",
	"ch01/batch emptybatchnothing":          "producers never send a batch without records; the empty batches the cleaner keeps are written by the log cleaner, not by the producers' encoder",
	"ch01/batch headernullasempty":          "the chapter's producers send no record headers",
	"ch01/batch recordscratch":              "the world calls AppendRecord only through AppendBatch, which appends every record to the batch being built, never to an empty dst",
	"ch02/index relativetarget":             "no segment of the world holds offsets 2^31 past its base (a segment of a few kilobytes), and a fetch asks for an offset inside the log: no target reaches 2^31 past a base offset",
	"ch02/index searchplusone":              "a fetch asks for an offset inside the log, never Long.MaxValue",
	"ch03/retention byteszeroisoff":         "no topic of the chapter's scenarios sets retention.bytes 0",
	"ch03/retention mszeroisoff":            "no topic of the chapter's scenarios sets retention.ms 0",
	"ch03/retention msminusone":             "no topic of the chapter's scenarios sets retention.ms -1 with records old enough for another limit to tell",
	"ch03/retention deadlineoverflow":       "no topic of the chapter's scenarios sets retention.ms near Long.MaxValue",
	"ch04/recovery int32length":             "a power cut in the world tears writes, zero-fills and flips bits in the tail, but never leaves a length field near MaxInt32",
	"ch04/recovery intervalzero":            "every topic of the chapter's scenarios keeps an index.interval.bytes above 0",
	"ch04/recovery indexscratch":            "the broker writes each recovered segment's index before it recovers the next, so the index a call returned is used before the next call",
	"ch05/truncation emptycacheasks":        "replica.Node truncates a follower with no epochs to its high watermark itself, as Kafka 2.2+ does, without calling Truncate: the world never asks Truncate about an empty cache",
	"ch05/truncation emptycachekeepslog":    "as for emptycacheasks: the world never calls Truncate for a follower with an empty cache",
	"ch05/truncation noepochasundefined":    "every leader of the world answers with an epoch (it caches its own at election, 2.1+): an end offset without an epoch, a pre-2.0 leader's answer, never comes",
	"ch05/truncation epochsscratch":         "the replica applies the follower Truncate returns (it cuts its log and its epoch cache to match) before it truncates again, so a later call writing over the returned epochs changes nothing it reads",
	"ch06/cooperative keepsinplace":         "the live boundary hands the assignor a fresh copy of the members for every rebalance, and the coordinator never reads it again",
	"ch06/cooperative reusesmap":            "the live boundary copies the assignment the assignor returns (sortedAssignment) before the next rebalance",
	"ch07/readcommitted belowfetchoffset":   "a fetch of the world hands the consumer the records from its position on, and a fetch that begins inside a batch (its first batch's bytes not fetched) is filtered by the reference: the batches Deliver gets never begin below the fetch offset",
	"ch07/readcommitted dropsfirstbatch":    "as for belowfetchoffset: no batch Deliver gets begins below the fetch offset",
	"ch07/readcommitted emptycontrolpanics": "no control batch of the world loses its record: the cleaner does not run on the chapter's topic (cleanup.policy delete), and a marker is written with its one record",
	"ch07/readcommitted ignorestxnbit":      "a transactional producer of the world writes only transactional batches, and no idempotent producer shares its producer id",
	"ch07/readcommitted offsetbyindex":      "the chapter's topic is not compacted: every batch of the world holds its records at consecutive offset deltas",
	"ch07/readcommitted pidzeroisnone":      "the world hands out producer ids from 10000 (broker.ProducerIDBase): no producer of the world has id 0",
	"ch07/readcommitted reusesresult":       "the live boundary copies the offsets Deliver returns (slices.Clone) before the consumer fetches again",
	"ch07/readcommitted sortsinplace":       "the live boundary hands Deliver a fresh list for every fetch, built from the leader's .txnindex entries, which nothing reads again",
	"ch05/truncation undefinedtohw":         "with truncation on fetch a 3.7 leader never sends an undefined DivergingEpoch (Partition.readRecords answers OFFSET_OUT_OF_RANGE); in OffsetsForLeaderEpoch rounds (2.0 to 3.7 below inter.broker.protocol.version 2.7) Kafka itself cuts an undefined first answer at the HW, the mutant's rule (ReplicaManager.initialFetchOffset is the LEO only if MetadataVersion.isTruncationOnFetchSupported, 3.7.0), so the world answers it with the reference; a later round's fetch offset is the last cut, and 2.1's leader, caching its epoch at election (Partition.makeLeader), answers every epoch the follower still holds",
	"ch05/truncation neweranotherround":     "an answer's epoch is at most the epoch asked about, the follower's latest, which it holds (LeaderEpochFileCache.endOffsetFor: the largest epoch at or below it), as a DivergingEpoch's is at most the last fetched epoch; a round that is not done keeps the epoch it cuts at the end of, and a follower without epochs asks nothing and truncates to its HW (AbstractFetcherThread.truncateToHighWatermark, 2.1.0 to 3.7.0): the follower's own lookup always finds the answer's epoch or an older one",
	"ch05/truncation newerkeepslog":         "as for neweranotherround: an answer's epoch is at most the follower's latest, which it holds (LeaderEpochFileCache.endOffsetFor), in OffsetsForLeaderEpoch rounds and DivergingEpochs alike, and a follower without epochs asks nothing (AbstractFetcherThread.truncateToHighWatermark): its own lookup never finds nothing",
}
