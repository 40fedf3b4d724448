package web

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/internal/kafkatools"
	"github.com/stretchr/testify/require"
)

// TestEveryHelpExampleWorks types every line help offers, each on a fresh
// default world after five simulated seconds: every one parses (no usage
// error) and does what it says (no error).
func TestEveryHelpExampleWorks(t *testing.T) {
	var help bytes.Buffer
	live, err := NewLive()
	require.NoError(t, err)
	require.NoError(t, NewTerminal(live).Exec("help", nil, &help))
	for _, name := range Names() {
		ex := termExamples[name]
		if len(ex) == 0 {
			t.Errorf("help offers no example of %s", name)
		}
		for _, e := range ex {
			if !strings.Contains(help.String(), "e.g. "+e.String()+"\n") && !strings.Contains(help.String(), "  "+e.line+"\n") {
				t.Errorf("help does not show the example %q", e)
			}
			if w, err := kafkatools.SplitLine(e.line); err != nil || w[0] != name {
				t.Errorf("the example %q of %s splits into %q (%v)", e.line, name, w, err)
			}
			live, err := NewLive()
			require.NoError(t, err)
			require.NoError(t, live.Advance(5000))
			term := NewTerminal(live)
			for _, a := range e.after {
				var out bytes.Buffer
				require.NoError(t, term.Exec(a, nil, &out), "%s, before %s:\n%s", a, e.line, out.String())
			}
			var out bytes.Buffer
			err = term.Exec(e.line, nil, &out)
			if errors.Is(err, ErrUsage) {
				t.Errorf("help's example %q is a usage error:\n%s", e, out.String())
			} else if err != nil {
				t.Errorf("help's example %q fails: %v\n%s", e, err, out.String())
			}
		}
	}
	for name := range termExamples {
		if _, ok := termCommands[name]; !ok {
			t.Errorf("examples of %s, which is no command", name)
		}
	}
}

// TestDumpLogReadsTheRootCheckpoints reads the checkpoint files at the
// root of the log directory without --broker: the first running broker's.
func TestDumpLogReadsTheRootCheckpoints(t *testing.T) {
	live, err := NewLive()
	require.NoError(t, err)
	require.NoError(t, live.Advance(5000))
	term := NewTerminal(live)
	var out bytes.Buffer
	require.NoError(t, term.Exec("kafka-dump-log --files /kafka-logs/replication-offset-checkpoint", nil, &out), out.String())
	if got := out.String(); !strings.HasPrefix(got, "(broker 1)\nDumping /kafka-logs/replication-offset-checkpoint\n") || !strings.Contains(got, "topic: orders partition: 0 offset: ") {
		t.Errorf("kafka-dump-log of the HW checkpoint printed:\n%s", got)
	}
	out.Reset()
	err = term.Exec("kafka-dump-log --files /kafka-logs/recovery-point-offset-checkpoint", nil, &out)
	want := "Error: broker 1 has no /kafka-logs/recovery-point-offset-checkpoint (a broker writes it 30 s after it starts and then every log.flush.offset.checkpoint.interval.ms, 60 s, after a truncation, and at a clean shutdown: stop 1 writes it now); /kafka-logs holds: __consumer_offsets-0, __consumer_offsets-1, __consumer_offsets-2, orders-0, orders-1, orders-2, profiles-0, replication-offset-checkpoint\n"
	if err == nil || errors.Is(err, ErrUsage) {
		t.Errorf("a root checkpoint the broker has not written: err %v, want the reason", err)
	}
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("a missing root checkpoint (-want +got):\n%s", diff)
	}
	// after broker 1 stops cleanly, the first running broker is 2; broker
	// 1's own file is there with --broker
	require.NoError(t, term.Exec("stop 1", nil, &bytes.Buffer{}))
	out.Reset()
	require.NoError(t, term.Exec("kafka-dump-log --files /kafka-logs/recovery-point-offset-checkpoint --broker 1", nil, &out), out.String())
	if !strings.HasPrefix(out.String(), "(broker 1)\nDumping /kafka-logs/recovery-point-offset-checkpoint\n") {
		t.Errorf("broker 1's recovery points after a clean stop:\n%s", out.String())
	}
	out.Reset()
	require.NoError(t, term.Exec("kafka-dump-log --files /kafka-logs/replication-offset-checkpoint", nil, &out), out.String())
	if !strings.HasPrefix(out.String(), "(broker 2)\n") {
		t.Errorf("with broker 1 stopped the root checkpoint is read on:\n%s", out.String())
	}
}

// TestThePageDumpsTheRootCheckpoints types kafka-dump-log of a root
// checkpoint file in the page's terminal (over HTTP).
func TestThePageDumpsTheRootCheckpoints(t *testing.T) {
	hs, live := newTestServer(t)
	require.NoError(t, live.Advance(3000))
	code, body := post(t, hs, "/api/exec", map[string]any{"line": "kafka-dump-log --files /kafka-logs/replication-offset-checkpoint"})
	require.Equal(t, http.StatusOK, code, body)
	r := decode[ExecResult](t, body)
	if !r.OK || !strings.Contains(r.Output, "Dumping /kafka-logs/replication-offset-checkpoint\nversion: 0 entries: 7\n") {
		t.Errorf("kafka-dump-log of the HW checkpoint on the page: ok %v\n%s", r.OK, r.Output)
	}
}
