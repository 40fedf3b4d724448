package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// exploreCmd runs "kafkalive explore args..." and returns the exit code and
// both outputs.
func exploreCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"explore"}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

// exploreJSON runs explore --json and decodes its report.
func exploreJSON(t *testing.T, args ...string) (int, exploreReport) {
	t.Helper()
	code, out, errOut := exploreCmd(t, append(args, "--json")...)
	var rep exploreReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("explore %v --json: %v\nstdout: %s\nstderr: %s", args, err, out, errOut)
	}
	return code, rep
}

func TestExploreUsage(t *testing.T) {
	code, out, _ := exploreCmd(t, "--help")
	if code != 0 || !strings.HasPrefix(out, "Usage: kafkalive explore [--rules R] [--schedules N] [--seed S] [--ops K] [--mode replication|users] [--json]") ||
		!strings.Contains(out, "Exit status") {
		t.Fatalf("explore --help: exit %d, output:\n%s", code, out)
	}
	for _, args := range [][]string{
		{"--mode", "chaos"},
		{"--rules", "v9"},
		{"--schedules", "0"},
		{"--schedules", "-3"},
		{"--ops", "0"},
		{"--seed", "0"},
		{"--seed", "banana"},
		{"extra"},
	} {
		code, out, errOut := exploreCmd(t, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "Usage: kafkalive explore") {
			t.Errorf("explore %v: exit %d (want 2), stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// summaryLine is the one line every run ends its counts with.
var summaryLine = regexp.MustCompile(`^schedules \d+, acknowledged \d+, lost \d+, diverged \d+, violations \d+, \d+ schedules/min$`)

// TestExploreV010FindsKIP101: under 0.10's rules the replication explorer
// finds KIP-101's loss by itself, from any seed base, and exits 0 for it.
func TestExploreV010FindsKIP101(t *testing.T) {
	for _, base := range []string{"1", "424242", "9000000001"} {
		code, rep := exploreJSON(t, "--rules", "v0.10", "--schedules", "1500", "--seed", base)
		if code != 0 || rep.Lost+rep.Diverged == 0 || len(rep.Failures) == 0 {
			t.Fatalf("seed base %s: exit %d, %d lost, %d diverged: want the loss found", base, code, rep.Lost, rep.Diverged)
		}
		f := rep.Failures[0]
		if len(f.Shrunk) == 0 || len(f.Shrunk) > f.Ops || !strings.Contains(f.Replay, "--rules v0.10") || !strings.HasSuffix(f.Replay, "--schedules 1") {
			t.Fatalf("seed base %s: first failure %+v", base, f)
		}
	}
}

// TestExploreModernReplication: the modern rules lose nothing under the
// restricted fault model, and the text output is the summary line.
func TestExploreModernReplication(t *testing.T) {
	code, out, _ := exploreCmd(t, "--schedules", "100", "--seed", "5000")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !summaryLine.MatchString(lines[0]) {
		t.Fatalf("first line %q is not the summary", lines[0])
	}
	if code != 0 || !strings.Contains(lines[0], "lost 0, diverged 0, violations 0") {
		t.Fatalf("modern rules: exit %d:\n%s", code, out)
	}
}

// TestExploreReplayReproduces: every failure's replay command, run, finds
// the same failure (users mode, where the open bugs are; none is fine).
func TestExploreReplayReproduces(t *testing.T) {
	code, rep := exploreJSON(t, "--mode", "users", "--schedules", "4", "--ops", "8", "--seed", "21")
	if rep.Schedules != 4 || (code == 1) != (len(rep.FailedSeeds) > 0) {
		t.Fatalf("exit %d with %d schedules and failing seeds %v", code, rep.Schedules, rep.FailedSeeds)
	}
	for _, f := range rep.Failures[:min(len(rep.Failures), 2)] {
		args := strings.Fields(strings.TrimPrefix(f.Replay, "kafkalive explore "))
		_, again := exploreJSON(t, args...)
		if len(again.Failures) != 1 {
			t.Fatalf("%s: %d failures, want 1", f.Replay, len(again.Failures))
		}
		if diff := cmp.Diff(f, again.Failures[0]); diff != "" {
			t.Errorf("%s does not reproduce (-want +got):\n%s", f.Replay, diff)
		}
	}
}

// TestExploreFlagsOfTheOtherMode: a flag of one explorer's configuration
// given to the other is a usage error, and so are values out of range.
func TestExploreFlagsOfTheOtherMode(t *testing.T) {
	for _, args := range [][]string{
		{"--mode", "users", "--min-isr", "1"},
		{"--mode", "users", "--unclean"},
		{"--mode", "users", "--restrict-power-cuts=false"},
		{"--mode", "users", "--tick", "10"},
		{"--max-value-bytes", "100"},
		{"--min-isr", "0"},
		{"--min-isr", "4"},
		{"--tick", "0"},
		{"--mode", "users", "--max-value-bytes", "-1"},
		{"--events", "--json"},
	} {
		code, out, errOut := exploreCmd(t, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "Usage: kafkalive explore") {
			t.Errorf("explore %v: exit %d (want 2), stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// TestExploreReplayLineReplays: a failure's replay line carries the
// flags of its configuration, and run with --events it prints the same
// failure with the events of its shrunk run and the state it ended in.
func TestExploreReplayLineReplays(t *testing.T) {
	_, rep := exploreJSON(t, "--rules", "v0.10", "--min-isr", "1", "--unclean", "--schedules", "40", "--seed", "100")
	if len(rep.Failures) == 0 {
		t.Fatalf("no failure under 0.10's rules with min.insync.replicas 1 and unclean elections, seeds 100..139: the test checks nothing")
	}
	f := rep.Failures[0]
	if !strings.Contains(f.Replay, " --min-isr 1 --unclean ") {
		t.Fatalf("replay %q lacks the configuration's flags", f.Replay)
	}
	args := strings.Fields(strings.TrimPrefix(f.Replay, "kafkalive explore "))
	_, out, _ := exploreCmd(t, append(args, "--events")...)
	for _, want := range []string{fmt.Sprintf("seed %d: %s\n", f.Seed, f.Outcome), "replay: " + f.Replay + "\n", "events:\n", "state:\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("%s --events does not print %q:\n%s", f.Replay, want, out)
		}
	}
}
