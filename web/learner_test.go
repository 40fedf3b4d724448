package web

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	kitlive "github.com/kafkalive/kafkalive/internal/kit/live"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/ch02/index"
)

// A guided scenario on the learner's code plays to its end and the view
// then carries its verdict.
func TestLearnerScenarioVerdict(t *testing.T) {
	live, err := NewLearnerLive(kitlive.Code{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := live.StartScenario("your-lookup", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if s, err = live.PlayStep(StepRequest{Session: s.ID}); err != nil {
			t.Fatal(err)
		}
	}
	v, err := live.View(Focus{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Learner == nil || v.Learner.Verdict == nil || !v.Learner.Verdict.Matches {
		t.Fatalf("verdict %+v", v.Learner)
	}
}

// TestLearnerPartsSayWhatTheirTestsSay: a part runs the learner's code,
// and the page says whether its chapter's tests pass on it, with the
// command that runs them and the scenarios that play it; a part whose
// tests fail is not simply "your code". A first divergence found by a
// scenario stays with its part after the scenario is left, and a part
// whose files changed says so.
func TestLearnerPartsSayWhatTheirTestsSay(t *testing.T) {
	wrong := kafkalogkit.IndexLookup{
		LookupIndex: func(index []byte, entries int, base, target int64) (int64, int32) { return base, 0 }, // never uses the index
		FindBatch:   index.FindBatch,
	}
	for _, tc := range []struct {
		name  string
		code  kitlive.Code
		tests string
	}{
		{"the solution", kitlive.Code{Index: kafkalogkit.IndexLookup{LookupIndex: index.LookupIndex, FindBatch: index.FindBatch}}, "pass"},
		{"a lookup that never uses the index", kitlive.Code{Index: wrong}, "fail"},
	} {
		live, err := NewLearnerLive(tc.code)
		require.NoError(t, err)
		live.WatchLearnerCode(func() []string { return []string{kitlive.PartIndex} })
		var p LearnerPart
		require.Eventually(t, func() bool {
			v, err := live.View(Focus{}, nil)
			require.NoError(t, err)
			for _, q := range v.Learner.Parts {
				if q.Part == kitlive.PartIndex {
					p = q
				}
			}
			return p.Tests != "running"
		}, TestTimeout+5*time.Second, 50*time.Millisecond)
		require.Equal(t, kitlive.YourCode, p.Runs, tc.name)
		require.True(t, strings.HasPrefix(p.Tests, tc.tests), "%s: tests %q", tc.name, p.Tests)
		require.Equal(t, "go test ./exercises/ch02/index/", p.Command)
		require.Contains(t, p.Scenarios, "your-lookup")
		require.True(t, p.Changed, "the part's files changed: the page says to restart")
	}
}

// TestLearnerScenariosNameTheirParts: on the learner's page every guided
// scenario on their code names the part it plays, and every part names
// the scenarios that play it: the same pairs both ways, every part played.
func TestLearnerScenariosNameTheirParts(t *testing.T) {
	live, err := NewLearnerLive(kitlive.Code{})
	require.NoError(t, err)
	list, err := live.learnerScenarios()
	require.NoError(t, err)
	fromCards := map[string][]string{}
	for _, s := range list {
		require.Contains(t, kitlive.Parts, s.Part, "%s names no part", s.Name)
		fromCards[s.Part] = append(fromCards[s.Part], s.Name)
	}
	v, err := live.View(Focus{}, nil)
	require.NoError(t, err)
	fromParts := map[string][]string{}
	for _, p := range v.Learner.Parts {
		require.NotEmpty(t, p.Scenarios, "part %s names no scenario that plays it", p.Part)
		fromParts[p.Part] = p.Scenarios
	}
	require.Equal(t, fromCards, fromParts)
	require.Len(t, fromParts, len(kitlive.Parts))
}

// TestLearnerMarksCollapseRepeats: a run of the same decision of the
// learner's code is one mark with its count; the first fault of each part
// is kept, the later ones counted.
func TestLearnerMarksCollapseRepeats(t *testing.T) {
	ev := func(ms int64, text string) cluster.Event {
		return cluster.Event{TimeMs: ms, Kind: cluster.EventConsume, Text: text, Impl: cluster.PartLookup}
	}
	evs := []cluster.Event{ev(1, "g fetched 7"), ev(2, "g fetched 3"), ev(3, "g fetched 3"), ev(4, "g fetched 3"), ev(5, "g fetched 7")}
	got := collapseMarks(evs, func(cluster.Event) string { return kitlive.PartIndex })
	require.Len(t, got, 3)
	require.Equal(t, 3, got[1].Count)
	require.Equal(t, int64(4), got[1].LastMs)
	require.True(t, strings.HasPrefix(got[1].Event, "t=2 "), got[1].Event)

	faults := firstFaults([]kitlive.Fault{{Part: "ch01/batch", Value: "a"}, {Part: "ch02/index", Value: "b"}, {Part: "ch01/batch", Value: "c"}})
	require.Len(t, faults, 2)
	require.Equal(t, "a", faults[0].Value)
	require.Equal(t, 1, faults[0].More)
	require.Equal(t, "go test ./exercises/ch01/batch/", faults[0].Command)
}
