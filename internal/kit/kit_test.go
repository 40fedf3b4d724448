package kit

import (
	"errors"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestMain(m *testing.M) {
	flag.Parse()
	// TestObserve fails a property on purpose: no fail files.
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

func TestFirstDiff(t *testing.T) {
	tests := []struct {
		name      string
		want, got []byte
		at        int
	}{
		{"equal", []byte{1, 2}, []byte{1, 2}, -1},
		{"both empty", nil, []byte{}, -1},
		{"second byte", []byte{1, 2, 3}, []byte{1, 9, 3}, 1},
		{"got is short", []byte{1, 2, 3}, []byte{1, 2}, 2},
		{"got is long", []byte{1}, []byte{1, 2}, 1},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.at, FirstDiff(tt.want, tt.got)); diff != "" {
			t.Errorf("%s: FirstDiff (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestHexdumpMarksTheByte(t *testing.T) {
	b := []byte("0123456789abcdefGHIJ")
	want := "00000000  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  |0123456789abcdef|\n" +
		"00000010  47 48 49 4a                                       |GHIJ|\n" +
		"                ^^ first wrong byte, position 18"
	if diff := cmp.Diff(want, Hexdump(b, 18)); diff != "" {
		t.Errorf("Hexdump (-want +got):\n%s", diff)
	}
	if got := Hexdump(b, len(b)); !strings.Contains(got, "bytes missing from here, position 20") {
		t.Errorf("a mark at len(b) must say bytes are missing:\n%s", got)
	}
}

func TestHexdumpShowsOnlyLinesNearTheMark(t *testing.T) {
	got := Hexdump(make([]byte, 1000), 500)
	if lines := strings.Count(got, "\n") + 1; lines > 8 {
		t.Errorf("a mark in a 1000-byte dump shows %d lines, want the few around it:\n%s", lines, got)
	}
	if !strings.Contains(got, "000001f0") || !strings.Contains(got, "(1000 bytes in all)") {
		t.Errorf("the dump must show the marked line and say how long the input is:\n%s", got)
	}
}

func TestRuleIn(t *testing.T) {
	f := &Failure{Rule: Rule{ID: "B6", Name: "CRC-32C over [21, end)"}, What: "x"}
	id, name := RuleIn("[rapid] failed: " + f.Error())
	if diff := cmp.Diff([2]string{"B6", "CRC-32C over [21, end)"}, [2]string{id, name}); diff != "" {
		t.Errorf("RuleIn (-want +got):\n%s", diff)
	}
	if id, _ := RuleIn("[rapid] OK, passed 100 tests"); id != "" {
		t.Errorf("RuleIn found rule %q in text without one", id)
	}
}

type marker struct{ started bool }

func (m marker) NotStarted() bool { return !m.started }

func TestProbe(t *testing.T) {
	e := Exercise{Dir: "exercises/ch09/x", File: "x.go", Note: "notes/09.md#x"}
	err := e.Probe(Call{"A", func() {}}, Call{"B", func() { panic(marker{}) }}, Call{"C", func() { panic(marker{}) }})
	want := "not started: read notes/09.md#x, then write B in exercises/ch09/x/x.go"
	if err == nil || err.Error() != want || !errors.Is(err, ErrNotStarted) {
		t.Errorf("Probe = %v, want %q wrapping ErrNotStarted", err, want)
	}
	if err := e.Probe(Call{"A", func() { panic("index out of range") }}, Call{"B", func() { panic(marker{started: true}) }}); err != nil {
		t.Errorf("other panics are the suite's to report, Probe = %v", err)
	}
}

func TestObserveRecordsFailureWithoutFailingTheTest(t *testing.T) {
	rec := Observe("observe-fails", func(t *rapid.T) {
		if v := rapid.IntRange(0, 100).Draw(t, "v"); v > 10 {
			t.Fatalf("[X1 small] %d is too big", v)
		}
	})
	if !rec.Failed() || !strings.Contains(rec.Output(), "[X1 small] 11 is too big") {
		t.Errorf("the recorder must see the shrunk failure (11); it recorded failed=%v:\n%s", rec.Failed(), rec.Output())
	}
	if rec := Observe("observe-passes", func(t *rapid.T) { rapid.Int().Draw(t, "v") }); rec.Failed() {
		t.Errorf("a passing property recorded a failure:\n%s", rec.Output())
	}
}

func TestLooksLike(t *testing.T) {
	ms := []Mistake[int, []byte]{
		{Says: "doubles", Do: func(n int) []byte { return []byte{byte(2 * n)} }},
		{Says: "panics", Do: func(int) []byte { panic("boom") }},
		{Says: "empty", Do: func(int) []byte { return nil }},
	}
	for _, tt := range []struct {
		got  []byte
		want string
	}{{[]byte{6}, "doubles"}, {[]byte{}, "empty"}, {[]byte{7}, ""}} {
		if got := LooksLike(3, tt.got, ms); got != tt.want {
			t.Errorf("LooksLike(3, %v) = %q, want %q", tt.got, got, tt.want)
		}
	}
}

func TestReplay(t *testing.T) {
	want := "go test ./exercises/ch01/varint -run '^TestVarint$/^properties$' -rapid.seed=N (N is the seed rapid prints above)"
	if got := Replay("./exercises/ch01/varint", "TestVarint/properties", true); got != want {
		t.Errorf("Replay = %q, want %q", got, want)
	}
}
