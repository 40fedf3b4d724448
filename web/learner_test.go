package web

import (
	"testing"

	kitlive "github.com/kafkalive/kafkalive/internal/kit/live"
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
