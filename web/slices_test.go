package web

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
)

// getView reads /api/view.
func getView(t *testing.T, url string) View {
	t.Helper()
	resp, err := http.Get(url + "/api/view")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var v View
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&v))
	return v
}

// waitFor polls cond until it holds; a world that stopped fails the test
// after a minute instead of hanging it.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("gave up waiting: %s", what)
		}
	}
}

// TestViewsFlowDuringALongRun types run 3600000 (an hour of the default
// world, about a minute of work) and reads views and the stream while it
// runs: they show moments inside the run, so the run does not hold the
// lock from its start to its end. Reset then stops the run and gives a
// fresh world.
func TestViewsFlowDuringALongRun(t *testing.T) {
	hs, _ := newTestServer(t)
	events := openStream(t, hs, "/api/stream", time.Minute)
	events.frame(t) // the first update, at t=0

	done := make(chan ExecResult, 1)
	go func() {
		code, out := post(t, hs, "/api/exec", map[string]any{"line": "run 3600000"})
		var res ExecResult
		if code == http.StatusOK {
			json.Unmarshal([]byte(out), &res)
		} else {
			res.Output = fmt.Sprintf("status %d: %s", code, out)
		}
		done <- res
	}()
	var mid View
	waitFor(t, "a view inside the run", func() bool {
		mid = getView(t, hs.URL)
		return mid.TimeMs > 0
	})
	if mid.TimeMs >= 3_600_000 {
		t.Fatalf("the first view after the run started is at t=%d: the run held every view until its end", mid.TimeMs)
	}
	var streamed Update
	for streamed.TimeMs <= mid.TimeMs {
		streamed = events.next(t)
	}
	if streamed.TimeMs >= 3_600_000 {
		t.Fatalf("the stream sent nothing between t=%d and the run's end", mid.TimeMs)
	}
	t.Logf("views during the run at t=%d, stream at t=%d", mid.TimeMs, streamed.TimeMs)

	code, body := post(t, hs, "/api/reset", nil)
	require.Equal(t, http.StatusNoContent, code, body)
	res := <-done
	if res.OK || !strings.Contains(res.Output, ErrRunInterrupted.Error()) {
		t.Errorf("the run Reset interrupted printed %q (ok %v), want it to say %q", res.Output, res.OK, ErrRunInterrupted)
	}
	if v := getView(t, hs.URL); v.TimeMs >= mid.TimeMs {
		t.Errorf("after Reset the world is at t=%d, not a fresh one", v.TimeMs)
	}
}

// TestBigValuesGoAsAPreview produces a 10 KB value (under the default
// world's segment.bytes) and then a 9 MB one, pending: a view and a stream
// update stay small, and carry the values' first bytes and sizes.
func TestBigValuesGoAsAPreview(t *testing.T) {
	hs, live := newTestServer(t)
	term := NewTerminal(live)
	big := strings.Repeat("a", 10_000)
	huge := "h" + strings.Repeat("u", 9<<20)
	for _, line := range []string{"set-producer checkout --rate 0", "produce checkout " + big + " --partition 1", "run 1000", "produce checkout " + huge + " --partition 1"} {
		_ = term.Exec(line, nil, io.Discard) // the 9 MB one may be refused (RECORD_TOO_LARGE)
	}
	for _, focus := range []string{"/api/view?topic=orders&partition=1", "/api/stream?topic=orders&partition=1"} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		req, err := http.NewRequestWithContext(ctx, "GET", hs.URL+focus, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		var data []byte
		if strings.Contains(focus, "stream") {
			name, s := readEvent(t, bufio.NewReader(resp.Body))
			require.Equal(t, "frame", name)
			var f Frame
			require.NoError(t, json.Unmarshal([]byte(s), &f))
			require.NotNil(t, f.Full, "the first frame is the whole update: %s", s)
			data = f.Full
		} else {
			data, err = io.ReadAll(resp.Body)
			require.NoError(t, err)
		}
		resp.Body.Close()
		cancel()
		if len(data) > 64<<10 {
			t.Errorf("%s is %d bytes with a 9 MB value pending: it must stay under 64 KiB", focus, len(data))
		}
		var v View
		require.NoError(t, json.Unmarshal(data, &v))
		var sizes []int
		for _, l := range v.Detail.Logs {
			for _, r := range l.Records {
				if r.Size > 0 {
					sizes = append(sizes, r.Size)
					if !strings.HasPrefix(r.Value, "aaaa") || len(r.Value) > PreviewBytes+30 {
						t.Errorf("%s: broker %d's record %d carries %d bytes %.20q..., want a preview of at most %d bytes and the size", focus, l.Broker, r.Offset, len(r.Value), r.Value, PreviewBytes)
					}
				}
			}
		}
		if len(sizes) == 0 || sizes[0] != len(big) {
			t.Errorf("%s: the records of orders-1 carry sizes %v, want %d for the 10 KB value", focus, sizes, len(big))
		}
		for _, p := range v.Producers {
			for _, r := range p.Last {
				if len(r.Value) > PreviewBytes+30 {
					t.Errorf("%s: producer %s's result carries a value of %d bytes", focus, p.Name, len(r.Value))
				}
			}
		}
		t.Logf("%s with a 9 MB value pending: %d bytes", focus, len(data))
	}
}

func TestPreviewCutsAtACharacter(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"abcdefghijk", 10, "abcdefghij… (11 bytes)"},
		{"aaaaaaaaaé", 10, "aaaaaaaaa… (11 bytes)"}, // é is two bytes: the cut does not split it
	} {
		if got := preview(c.in, c.n); got != c.want {
			t.Errorf("preview(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// TestAnInternalErrorShowsAndResetRuns injects a world whose runs fail:
// the server's clock goes on, the view shows the error and the commands
// that replay what led to it, the world stops there, and Reset gives a
// world that runs.
func TestAnInternalErrorShowsAndResetRuns(t *testing.T) {
	hs, live := newTestServer(t)
	injected := errors.New("injected: the replica's log lost its clock")
	bad := live.w
	live.step = func(w *cluster.World, ms int64) error {
		if w == bad && w.NowMs() >= 300 {
			return injected
		}
		return w.RunFor(ms)
	}
	code, body := post(t, hs, "/api/exec", map[string]any{"line": "kill  2"})
	require.Equal(t, http.StatusOK, code, body)
	srv := NewServer(live, NewTerminal(live), nil)
	srv.Interval = 10 * time.Millisecond
	var log strings.Builder
	srv.Log = &log
	ctx, stop := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- srv.Run(ctx) }()
	defer func() {
		stop()
		<-ran
	}()

	var v View
	waitFor(t, "the view to show the internal error", func() bool {
		v = getView(t, hs.URL)
		return v.Internal != nil
	})
	if !strings.Contains(v.Internal.Error, injected.Error()) {
		t.Errorf("the view's internal error is %q, want the injected one", v.Internal.Error)
	}
	if want := "echo 'kill 2'; "; !strings.HasPrefix(v.Internal.Replay, "{ "+want) || !strings.HasSuffix(v.Internal.Replay, "| go run ./cmd/kafkalive shell -q") {
		t.Errorf("the replay is %q, want the lines typed (first %q) piped to kafkalive shell", v.Internal.Replay, want)
	}
	stoppedAt := v.TimeMs
	code, out := post(t, hs, "/api/exec", map[string]any{"line": "run 1000"})
	require.Equal(t, http.StatusOK, code)
	if strings.Contains(out, `"ok":true`) {
		t.Errorf("run 1000 on the stopped world printed %s, want an error", out)
	}
	if v := getView(t, hs.URL); v.TimeMs != stoppedAt {
		t.Errorf("the stopped world moved from t=%d to t=%d", stoppedAt, v.TimeMs)
	}

	code, body = post(t, hs, "/api/reset", nil)
	require.Equal(t, http.StatusNoContent, code, body)
	waitFor(t, "the world after Reset to run", func() bool {
		v = getView(t, hs.URL)
		return v.TimeMs > 0 && v.Internal == nil
	})
	if !strings.Contains(log.String(), injected.Error()) {
		t.Errorf("the server's log says %q, want the internal error", log.String())
	}
}

var replaySeed = flag.Uint64("replay-seed", 0, "seed of TestReplayRebuildsTheWorld (0: from the clock)")

// TestReplayRebuildsTheWorld drives the page's world as a user does (the
// clock at several speeds, commands typed, long runs, acting from the
// past) and replays the script the internal-error banner would give on a
// fresh world, through the terminal as kafkalive shell does: the two
// worlds' states are equal.
func TestReplayRebuildsTheWorld(t *testing.T) {
	seed := *replaySeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	for round := range 3 {
		s := seed + uint64(round)
		t.Run(fmt.Sprint(s), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("replay: go test ./web -run TestReplayRebuildsTheWorld -replay-seed %d", s)
				}
			}()
			rnd := rand.New(rand.NewPCG(s, s))
			live, err := NewLive()
			require.NoError(t, err)
			term := NewTerminal(live)
			lines := []string{"kill 2", "start 2", "stop 3", "start 3", "power-cut 1", "start 1", "produce checkout typed --key alice",
				"run 2500", "run 730", "writeback 2", "cut 1 2,3", "heal", "set-producer clicks --rate 4", "frobnicate", "kafka-topics --list",
				"kafka-topics --create --topic audit --partitions 2 --replication-factor 3 --config retention.ms=60000", "kafka-topics --create --topic solo",
				"kafka-topics --delete --topic audit", "kafka-topics --create --topic audit --if-not-exists --config cleanup.policy=compact"}
			for range 40 {
				switch rnd.IntN(4) {
				case 0, 1:
					live.SetSpeed(int64(1 + rnd.IntN(3)))
					for range rnd.IntN(20) {
						require.NoError(t, live.Advance(100))
					}
				case 2:
					_ = live.Exec(context.Background(), term, lines[rnd.IntN(len(lines))], nil, io.Discard)
				case 3:
					now := live.w.NowMs()
					at := now - rnd.Int64N(now/2+1)
					_ = live.Exec(context.Background(), term, lines[rnd.IntN(len(lines))], &at, io.Discard)
				}
			}
			live.mu.Lock()
			script, ok := live.script, live.scripted
			live.mu.Unlock()
			require.True(t, ok, "the script of a world driven by the page is complete")
			again, err := NewLive()
			require.NoError(t, err)
			shell := NewTerminal(again)
			for _, e := range script {
				for range e.Count {
					_ = shell.Exec(e.Line, nil, io.Discard)
				}
			}
			want, err := live.w.State().JSON()
			require.NoError(t, err)
			got, err := again.w.State().JSON()
			require.NoError(t, err)
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Fatalf("the replayed world differs at t=%d (-page +replay):\n%s", live.w.NowMs(), diff)
			}
		})
	}
}

// TestALongRunStopsWhenThePageGoesAway: the request's context ends the run
// between two steps, and the script keeps the run as far as it went.
func TestALongRunStopsWhenThePageGoesAway(t *testing.T) {
	live, err := NewLive()
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- live.Exec(ctx, NewTerminal(live), "run 3600000", nil, io.Discard) }()
	waitFor(t, "the run to start", func() bool {
		v, err := live.View(Focus{}, nil)
		require.NoError(t, err)
		return v.TimeMs > 0
	})
	cancel()
	err = <-done
	if !errors.Is(err, ErrRunInterrupted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("the run after its page went away returned %v, want %v (%v)", err, ErrRunInterrupted, context.Canceled)
	}
	live.mu.Lock()
	now, script := live.w.NowMs(), live.script
	live.mu.Unlock()
	if now >= 3_600_000 {
		t.Fatalf("the run went on to t=%d", now)
	}
	want := []scriptLine{{Line: fmt.Sprintf("run %d", now), StartMs: 0, RunMs: now, Count: 1}}
	if diff := cmp.Diff(want, script); diff != "" {
		t.Errorf("the script after the interrupted run (-want +got):\n%s", diff)
	}
}
