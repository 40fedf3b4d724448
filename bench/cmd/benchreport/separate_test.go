package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMain lets this test binary stand in for a bench binary: with
// BENCHREPORT_FAKE set it prints one result line for each of the
// implementations a, b and c that its -bench.impl selects (every one
// when BENCHREPORT_FAKE is "ignore", as a benchmark deaf to the flag
// would), and exits.
func TestMain(m *testing.M) {
	if mode := os.Getenv("BENCHREPORT_FAKE"); mode != "" {
		only := regexp.MustCompile("")
		for i, a := range os.Args {
			if a == "-bench.impl" && i+1 < len(os.Args) && mode != "ignore" {
				only = regexp.MustCompile(os.Args[i+1])
			}
		}
		for _, impl := range []string{"a", "b", "c"} {
			if only.MatchString(impl) {
				fmt.Printf("BenchmarkKgoProduce/w/impl=%s-2 \t 10 \t 100 ns/op\n", impl)
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestSeparateRotates: with -separate each implementation runs in a
// process of its own, and round i starts with the implementation i-1
// places in, so that each goes first as often as the others.
func TestSeparateRotates(t *testing.T) {
	t.Setenv("BENCHREPORT_FAKE", "1")
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	o := options{bench: ".", benchtime: "1x", dir: ".", separate: []string{"a", "b", "c"}}
	for round, want := range map[int][]string{1: {"a", "b", "c"}, 2: {"b", "c", "a"}, 3: {"c", "a", "b"}, 4: {"a", "b", "c"}} {
		out, err := runRound(bin, o, round)
		if err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, out)
		}
		rs, err := parseOutput(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rs {
			got = append(got, r.impl)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("round %d's order (-want +got):\n%s", round, diff)
		}
	}
}

// TestSeparateRefusesDeafBenchmark: a benchmark that runs every
// implementation whatever -bench.impl says makes -separate fail, naming
// the flag, rather than report each implementation several times a round.
func TestSeparateRefusesDeafBenchmark(t *testing.T) {
	t.Setenv("BENCHREPORT_FAKE", "ignore")
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	_, err = runRound(bin, options{bench: ".", benchtime: "1x", dir: ".", separate: []string{"a", "b"}}, 1)
	if err == nil || !strings.Contains(err.Error(), "-bench.impl") {
		t.Fatalf("runRound with a benchmark deaf to -bench.impl: %v, want an error naming -bench.impl", err)
	}
}

func TestSeparateFlag(t *testing.T) {
	o, err := parseFlags([]string{"-separate", "kafkalive, kfake", "--", "-throughput.warm"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"kafkalive", "kfake"}, o.separate); diff != "" {
		t.Errorf("-separate (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"-throughput.warm"}, o.extra); diff != "" {
		t.Errorf("arguments for the test binary (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"a,,b", "a,a", ","} {
		if _, err := parseFlags([]string{"-separate", bad}, &bytes.Buffer{}); err == nil {
			t.Errorf("-separate %q: no error", bad)
		}
	}
}

// TestKgoProducePair: KgoProduce's ratios are kafkalive's against kfake's,
// and its goal is checked on them.
func TestKgoProducePair(t *testing.T) {
	rounds := [][]result{
		{res("KgoProduce", "w", "kafkalive", 90), res("KgoProduce", "w", "kfake", 100)},
		{res("KgoProduce", "w", "kafkalive", 120), res("KgoProduce", "w", "kfake", 100)},
		{res("KgoProduce", "w", "kafkalive", 95), res("KgoProduce", "w", "kfake", 100)},
	}
	tb := aggregate(rounds)
	if diff := cmp.Diff(0.95, median(tb.byKey["KgoProduce/w"].by["kafkalive"].xPeer)); diff != "" {
		t.Errorf("kafkalive x kfake (-want +got):\n%s", diff)
	}
	var out bytes.Buffer
	render(&out, tb)
	if !strings.Contains(out.String(), "kafkalive x kfake") {
		t.Errorf("the table has no kafkalive x kfake column:\n%s", out.String())
	}
	out.Reset()
	if missed := checkGoals(&out, tb); missed != 0 || !strings.Contains(out.String(), "[met] kgo produces") {
		t.Errorf("%d missed, want the kgo goal met at 0.95:\n%s", missed, out.String())
	}
}
