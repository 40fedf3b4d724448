package main

import (
	"bytes"
	"strings"
	"testing"

	kitlive "github.com/kafkalive/kafkalive/internal/kit/live"
	"github.com/kafkalive/kafkalive/web"
)

// --list prints one line per part, each saying what runs it.
func TestList(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"--list"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(kitlive.Parts) {
		t.Fatalf("%d lines, want one per part (%d):\n%s", len(lines), len(kitlive.Parts), out.String())
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, kitlive.Parts[i]) || !strings.Contains(l, kitlive.YourCode) && !strings.Contains(l, kitlive.Reference) {
			t.Errorf("line %d: %q", i, l)
		}
	}
}

// The live world on the exercises runs, whatever they hold, and its view
// says what runs each part.
func TestTheWorldRunsOnYourCode(t *testing.T) {
	live, err := web.NewLearnerLive(yourCode())
	if err != nil {
		t.Fatal(err)
	}
	if err := live.Advance(20_000); err != nil {
		t.Fatal(err)
	}
	v, err := live.View(web.Focus{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Learner == nil || len(v.Learner.Parts) != len(kitlive.Parts) {
		t.Fatalf("the view's learner part: %+v", v.Learner)
	}
	if ie := live.InternalError(); ie != nil {
		t.Fatalf("internal error: %+v", ie)
	}
	for _, f := range v.Learner.Faults {
		t.Errorf("fault: %s", f)
	}
	if v.TimeMs < 20_000 {
		t.Errorf("the world stopped at %d ms", v.TimeMs)
	}
}
