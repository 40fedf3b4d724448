package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestShellRunsTheTerminalOnStdin(t *testing.T) {
	in := strings.NewReader("# a comment\nkafka-topics --describe --topic profiles\nkill 2\nfrobnicate\nexit\nkafka-topics --list\n")
	var out, errb bytes.Buffer
	code := runShell([]string{"-q"}, in, &out, &errb)
	want := "Topic: profiles\tTopicId: PnzVtJSSRMmgD1PGp0A6XQ\tPartitionCount: 1\tReplicationFactor: 3\tConfigs: retention.ms=300000,segment.bytes=16384,min.insync.replicas=2\n" +
		"\tTopic: profiles\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3\tElr: \tLastKnownElr: \n" +
		"t=0 b2 kill 2\n" +
		"t=0 b2 killed (page cache survives)\n" +
		"frobnicate: command not found (type help)\n"
	if out.String() != want {
		t.Fatalf("kafkalive shell printed\n%s\nwant\n%s", out.String(), want)
	}
	if code != 1 {
		t.Errorf("kafkalive shell exited %d after a command that failed, want 1", code)
	}
}

func TestServeIsTheDefaultCommand(t *testing.T) {
	if defaultCommand != "serve" {
		t.Fatalf("kafkalive with no arguments runs %q, want serve", defaultCommand)
	}
	var out, errb bytes.Buffer
	if code := runServe([]string{"--addr", "256.0.0.1:1"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "kafkalive:") {
		t.Fatalf("serve on a bad address: exit %d, stderr %q; want exit 1 and the error", code, errb.String())
	}
}

// TestShellReadsLinesOfAnyLength: a 70,000-character line and a 2 MB one
// neither end the shell nor lose the commands after them; each failing
// line is reported on stderr with its number, and the exit status says a
// line failed.
func TestShellReadsLinesOfAnyLength(t *testing.T) {
	long := strings.Repeat("x", 70_000)
	huge := strings.Repeat("y", 2<<20)
	in := strings.NewReader("kill 2 " + long + "\n" + // a usage error: one broker
		"events 1" + strings.Repeat(" ", 70_000) + "\n" + // fine: trailing blanks
		"frobnicate" + huge + "\n" +
		"# " + huge + "\n" +
		"kafka-topics --describe --topic profiles") // the last line, without a newline
	var out, errb bytes.Buffer
	code := runShell([]string{"-q"}, in, &out, &errb)
	if !strings.Contains(out.String(), "Topic: profiles\t") {
		t.Errorf("the command after the long lines did not run; stdout ends %q", tail(out.String()))
	}
	if got, want := failedLines(errb.String()), []int{1, 3}; !cmp.Equal(want, got) {
		t.Errorf("stderr reports lines %v failed, want %v:\n%s", got, want, tail(errb.String()))
	}
	if code != 1 {
		t.Errorf("exit status %d after failed lines, want 1", code)
	}
}

// TestShellExitsZeroWhenEveryLineSucceeds, long lines included.
func TestShellExitsZeroWhenEveryLineSucceeds(t *testing.T) {
	in := strings.NewReader("events 1" + strings.Repeat(" ", 3<<20) + "\n\n# done\nkafka-topics --list\n")
	var out, errb bytes.Buffer
	if code := runShell([]string{"-q"}, in, &out, &errb); code != 0 || errb.Len() > 0 {
		t.Errorf("exit status %d, stderr %q; want 0 and nothing", code, tail(errb.String()))
	}
}

var shellSeed = flag.Uint64("shell-seed", 0, "seed of TestShellScripts (0: from the clock)")

// TestShellScripts feeds random scripts of lines that succeed and lines
// that fail, short and up to 3 MB long, with or without a last newline:
// every line runs (the last one's output is there), stderr names exactly
// the failing lines, and the exit status is 1 exactly when one failed.
func TestShellScripts(t *testing.T) {
	seed := *shellSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	for round := range 3 {
		s := seed + uint64(round)
		rnd := rand.New(rand.NewPCG(s, s))
		var b strings.Builder
		var failing []int
		n := 2 + rnd.IntN(8)
		for i := 1; i < n; i++ {
			pad := []int{0, 10, 70_000, 1 << 20, 3 << 20}[rnd.IntN(5)]
			switch rnd.IntN(4) {
			case 0:
				b.WriteString("events 2" + strings.Repeat(" ", pad))
			case 1:
				b.WriteString("# " + strings.Repeat("c", pad))
			case 2:
				b.WriteString("frobnicate-" + strings.Repeat("f", pad))
				failing = append(failing, i)
			case 3:
				b.WriteString("start 1 " + strings.Repeat("9", pad)) // usage: one broker
				failing = append(failing, i)
			}
			b.WriteString("\n")
		}
		b.WriteString("kafka-topics --describe --topic profiles")
		if rnd.IntN(2) == 0 {
			b.WriteString("\n")
		}
		var out, errb bytes.Buffer
		code := runShell([]string{"-q"}, strings.NewReader(b.String()), &out, &errb)
		replay := fmt.Sprintf("replay: go test ./cmd/kafkalive -run TestShellScripts -shell-seed %d", s)
		if !strings.Contains(out.String(), "Topic: profiles\t") {
			t.Errorf("seed %d: the last line did not run; stdout ends %q\n%s", s, tail(out.String()), replay)
		}
		if got := failedLines(errb.String()); !cmp.Equal(failing, got, cmpopts.EquateEmpty()) {
			t.Errorf("seed %d: stderr reports lines %v failed, want %v\n%s", s, got, failing, replay)
		}
		if want := min(len(failing), 1); code != want {
			t.Errorf("seed %d: exit status %d with %d failed lines, want %d\n%s", s, code, len(failing), want, replay)
		}
	}
}

// failedLines returns the numbers of the lines the shell reported failed.
func failedLines(stderr string) []int {
	var out []int
	for _, l := range strings.Split(stderr, "\n") {
		var n int
		if _, err := fmt.Sscanf(l, "kafkalive shell: line %d", &n); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func tail(s string) string {
	if len(s) > 300 {
		return "..." + s[len(s)-300:]
	}
	return s
}

// TestServeWarnsOffLoopback: listening on every address (or any that is
// not loopback) warns that anyone who can reach it drives the cluster; a
// loopback address does not.
func TestServeWarnsOffLoopback(t *testing.T) {
	for addr, warns := range map[string]bool{"127.0.0.1:0": false, "localhost:0": false, "0.0.0.0:0": true, ":0": true} {
		var errb bytes.Buffer
		ln, err := listen(addr, &errb)
		if err != nil {
			t.Fatalf("listen %s: %v", addr, err)
		}
		ln.Close()
		if got := strings.Contains(errb.String(), "anyone who can reach it can drive the cluster"); got != warns {
			t.Errorf("listen %s: warned %v (%q), want %v", addr, got, errb.String(), warns)
		}
	}
}
