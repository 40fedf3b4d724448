package web

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/require"
)

// TestTerminal runs the terminal's commands on the default world and
// compares what they print with testdata/terminal.txt (rewrite with
// go test ./web/ -run TestTerminal -rewrite). Commands:
//
//	exec [at=MS]      each input line is typed; the output is what it prints
//	view              the partition table of the world shown now
func TestTerminal(t *testing.T) {
	live, err := NewLive()
	require.NoError(t, err)
	term := NewTerminal(live)
	datadriven.RunTest(t, "testdata/terminal.txt", func(t *testing.T, d *datadriven.TestData) string {
		switch d.Cmd {
		case "exec":
			var at *int64
			if d.HasArg("at") {
				var s string
				d.ScanArgs(t, "at", &s)
				ms, err := strconv.ParseInt(s, 10, 64)
				require.NoError(t, err)
				at = &ms
			}
			var out bytes.Buffer
			for _, line := range splitLines(d.Input) {
				out.WriteString("$ " + line + "\n")
				_ = term.Exec(line, at, &out)
			}
			return out.String()
		case "view":
			v, err := live.View(Focus{Topic: "orders"}, nil)
			require.NoError(t, err)
			var out bytes.Buffer
			for _, p := range v.Partitions {
				out.WriteString(p.Topic + "-" + strconv.Itoa(int(p.Partition)) + " leader=" + strconv.Itoa(int(p.Leader)) +
					" epoch=" + strconv.Itoa(int(p.Epoch)) + " isr=" + joinIDs(p.ISR) + "\n")
			}
			return out.String()
		}
		t.Fatalf("unknown command %q", d.Cmd)
		return ""
	})
}

func splitLines(s string) []string {
	var out []string
	for _, l := range bytes.Split([]byte(s), []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			out = append(out, string(l))
		}
	}
	return out
}

// FuzzTerminal types arbitrary lines: no input may panic. Lines that move
// the clock are left out (a fuzzer would ask for hours).
func FuzzTerminal(f *testing.F) {
	for _, s := range []string{"kafka-topics --describe --topic orders", "kill 2", "power-cut 1 --torn", "produce checkout v --key k --partition 9",
		"add-consumer x --group g --topics orders,nope", "cut 1,2 0", "kafka-consumer-groups --describe --group billing --members", "events -1", "start b3",
		"kafka-topics --create --topic t --partitions 2 --replication-factor 3 --config retention.ms=1 --config=segment.bytes=20000",
		"kafka-configs --alter --topic orders --add-config retention.ms=1000,cleanup.policy=[compact,delete] --delete-config segment.bytes",
		"kafka-configs --alter --entity-type topics --entity-name profiles --add-config 'k1 = [v1,v2], =x'", "kafka-configs --describe --entity-type topics --all",
		"kafka-configs --describe --entity-type brokers --entity-default --bootstrap-server=localhost:9092"} {
		f.Add(s)
	}
	live, err := NewLive()
	require.NoError(f, err)
	term := NewTerminal(live)
	f.Fuzz(func(t *testing.T, line string) {
		if fields := strings.Fields(line); len(fields) > 0 && fields[0] == "run" {
			return
		}
		var out bytes.Buffer
		_ = term.Exec(line, nil, &out)
	})
}

func TestSetProducerShowsOnThePage(t *testing.T) {
	live, err := NewLive()
	require.NoError(t, err)
	term := NewTerminal(live)
	var out bytes.Buffer
	require.NoError(t, term.Exec("set-producer profile-svc --rate 2.5 --keys none", nil, &out), out.String())
	v, err := live.View(Focus{Topic: "orders"}, nil)
	require.NoError(t, err)
	for _, p := range v.Producers {
		if p.Name == "profile-svc" && (p.Rate != 2.5 || len(p.Keys) != 0 || p.Acks != "all") {
			t.Fatalf("after set-producer profile-svc --rate 2.5 --keys none the page shows rate %g, keys %v, acks %s", p.Rate, p.Keys, p.Acks)
		}
	}
}

func joinIDs(ids []int32) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(int(id))
	}
	return strings.Join(s, ",")
}

// state prints a long value as its first bytes and its whole size, on
// every replica and in its producer's results, and a short one whole.
func TestStatePrintsLongValuesCut(t *testing.T) {
	live, err := NewLive()
	require.NoError(t, err)
	term := NewTerminal(live)
	long := strings.Repeat("x", 5000)
	var out bytes.Buffer
	require.NoError(t, term.Exec("produce checkout "+long+" --partition 0", nil, &out), out.String())
	require.NoError(t, term.Exec("produce checkout short-one --partition 0", nil, &out), out.String())
	require.NoError(t, live.Advance(2000))
	out.Reset()
	require.NoError(t, term.Exec("state", nil, &out))
	got := out.String()
	require.NotContains(t, got, strings.Repeat("x", 65))
	require.Equal(t, 4, strings.Count(got, "x… (5000 bytes)"), got)
	require.Equal(t, 4, strings.Count(got, "short-one"), got)
}
