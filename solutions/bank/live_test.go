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
	"ch05/truncation undefinedtohw":     "with truncation on fetch a 3.7 leader never sends an undefined DivergingEpoch (Partition.readRecords answers OFFSET_OUT_OF_RANGE); in OffsetsForLeaderEpoch rounds (2.0 to 3.7 below inter.broker.protocol.version 2.7) Kafka itself cuts an undefined first answer at the HW, the mutant's rule (ReplicaManager.initialFetchOffset is the LEO only if MetadataVersion.isTruncationOnFetchSupported, 3.7.0), so the world answers it with the reference; a later round's fetch offset is the last cut, and 2.1's leader, caching its epoch at election (Partition.makeLeader), answers every epoch the follower still holds",
	"ch05/truncation neweranotherround": "an answer's epoch is at most the epoch asked about, the follower's latest, which it holds (LeaderEpochFileCache.endOffsetFor: the largest epoch at or below it), as a DivergingEpoch's is at most the last fetched epoch; a round that is not done keeps the epoch it cuts at the end of, and a follower without epochs asks nothing and truncates to its HW (AbstractFetcherThread.truncateToHighWatermark, 2.1.0 to 3.7.0): the follower's own lookup always finds the answer's epoch or an older one",
	"ch05/truncation newerkeepslog":     "as for neweranotherround: an answer's epoch is at most the follower's latest, which it holds (LeaderEpochFileCache.endOffsetFor), in OffsetsForLeaderEpoch rounds and DivergingEpochs alike, and a follower without epochs asks nothing (AbstractFetcherThread.truncateToHighWatermark): its own lookup never finds nothing",
}
