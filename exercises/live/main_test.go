package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// watchParts finds the exercises from the repository's root and from
// inside them, and names a part whose source file changed, not the others.
func TestWatchPartsNamesAChangedPart(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"exercises/live", "exercises/ch01/varint", "exercises/ch02/index"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(root, "exercises/ch02/index/index.go")
	for _, f := range []string{file, filepath.Join(root, "exercises/ch01/varint/varint.go")} {
		if err := os.WriteFile(f, []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, from := range []string{root, filepath.Join(root, "exercises", "live")} {
		changed := watchParts(from, []string{"ch01/varint", "ch02/index"})
		if got := changed(); len(got) != 0 {
			t.Fatalf("from %s: %v changed before anything did", from, got)
		}
		later := time.Now().Add(time.Duration(len(from)) * time.Second)
		if err := os.Chtimes(file, later, later); err != nil {
			t.Fatal(err)
		}
		if got := changed(); len(got) != 1 || got[0] != "ch02/index" {
			t.Fatalf("from %s: after editing ch02/index, changed says %v", from, got)
		}
	}
	if got := watchParts(t.TempDir(), []string{"ch01/varint"})(); got != nil {
		t.Fatalf("without exercises: %v", got)
	}
}
