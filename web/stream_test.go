package web

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// readEvent reads one Server-Sent Event and returns its name and data.
func readEvent(t *testing.T, r *bufio.Reader) (string, string) {
	t.Helper()
	var name, data string
	for {
		line, err := r.ReadString('\n')
		require.NoError(t, err)
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "":
			return name, data
		case strings.HasPrefix(line, "event: "):
			name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			data = line[len("data: "):]
		}
	}
}

// stream is a page's end of the update stream: the frames read and the
// store they make.
type stream struct {
	r     *bufio.Reader
	store Store
	// frames counts the frames read, bytes their bytes.
	frames, bytes int
}

// openStream opens the update stream at path (/api/stream...) of hs for
// at most timeout, closed when the test ends.
func openStream(t *testing.T, hs *httptest.Server, path string, timeout time.Duration) *stream {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", hs.URL+path, nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	return &stream{r: bufio.NewReader(resp.Body)}
}

// frame reads the next frame, applies it to the store and returns it.
func (s *stream) frame(t *testing.T) Frame {
	t.Helper()
	name, data := readEvent(t, s.r)
	require.Equal(t, "frame", name)
	require.NoError(t, s.store.Apply([]byte(data)), "frame %d: %s", s.frames+1, data)
	s.frames++
	s.bytes += len(data)
	var f Frame
	require.NoError(t, json.Unmarshal([]byte(data), &f))
	return f
}

// next reads the next frame and returns the update the page then holds.
func (s *stream) next(t *testing.T) Update {
	t.Helper()
	s.frame(t)
	var u Update
	require.NoError(t, json.Unmarshal(s.store.JSON(), &u))
	return u
}

func TestStreamSendsAViewPerChange(t *testing.T) {
	hs, live := newTestServer(t)
	r := openStream(t, hs, "/api/stream?topic=profiles&partition=0", 10*time.Second)

	v := r.next(t)
	if v.TimeMs != 0 || v.Detail == nil || v.Detail.Topic != "profiles" {
		t.Fatalf("the first update is at t=%d showing %+v; want t=0 with profiles-0 in detail", v.TimeMs, v.Detail)
	}
	for _, want := range []int64{700, 1400} {
		require.NoError(t, live.Advance(700))
		v = r.next(t)
		if v.TimeMs != want {
			t.Fatalf("after the world advanced to %d ms the stream sent t=%d", want, v.TimeMs)
		}
	}
}

// TestUpdatesStaySmall runs the default world for five simulated minutes
// and checks that an update stays a few kilobytes: the page gets the tail
// of the log, not its history.
func TestUpdatesStaySmall(t *testing.T) {
	live, err := NewLive()
	require.NoError(t, err)
	require.NoError(t, live.Advance(300_000))
	v, err := live.View(Focus{Topic: "orders"}, nil)
	require.NoError(t, err)
	b, err := json.Marshal(v)
	require.NoError(t, err)
	if len(b) > 16<<10 {
		t.Fatalf("an update after five simulated minutes is %d bytes; it must stay under 16 KiB", len(b))
	}
	for _, l := range v.Detail.Logs {
		if len(l.Records) > RecordWindow {
			t.Fatalf("broker %d's log carries %d records, more than the window of %d", l.Broker, len(l.Records), RecordWindow)
		}
	}
	t.Logf("one update after 5 simulated minutes: %d bytes", len(b))
}

func TestViewJSONIsSharedUntilTheWorldChanges(t *testing.T) {
	live, err := NewLive()
	require.NoError(t, err)
	f := Focus{Topic: "orders", Partition: 2}
	a, va, err := live.ViewJSON(f)
	require.NoError(t, err)
	b, vb, err := live.ViewJSON(f)
	require.NoError(t, err)
	if va != vb || &a[0] != &b[0] {
		t.Fatalf("two pages showing orders-2 at version %d got two encodings", va)
	}
	require.NoError(t, live.Advance(500))
	c, vc, err := live.ViewJSON(f)
	require.NoError(t, err)
	if vc == va || string(c) == string(a) {
		t.Fatalf("after the world advanced the update is still version %d", va)
	}
	var v View
	require.NoError(t, json.Unmarshal(c, &v))
	if v.TimeMs != 500 || v.Detail.Partition != 2 {
		t.Fatalf("the update after 500 ms shows t=%d partition %d", v.TimeMs, v.Detail.Partition)
	}
}

func TestTimelineMarksTheActions(t *testing.T) {
	live, err := NewLive()
	require.NoError(t, err)
	term := NewTerminal(live)
	require.NoError(t, live.Advance(1000))
	var out strings.Builder
	require.NoError(t, term.Exec("kill 2", nil, &out))
	require.NoError(t, live.Advance(500))
	require.NoError(t, term.Exec("start 2", nil, &out))
	v, err := live.View(Focus{Topic: "orders"}, nil)
	require.NoError(t, err)
	var got []Mark
	for _, m := range v.Marks {
		if !strings.HasPrefix(m.Text, "create-topic") && !strings.HasPrefix(m.Text, "add-") {
			got = append(got, m)
		}
	}
	want := []Mark{{TimeMs: 1000, Text: "kill 2"}, {TimeMs: 1500, Text: "start 2"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("timeline marks (-want +got):\n%s", diff)
	}
}

// A world that changes without pause (a client's flood) gets a frame at
// most every update interval, and still gets them: the stream sends the
// newest state at its own pace, not one frame per change.
func TestStreamPacesAWorldThatNeverStops(t *testing.T) {
	hs, live := newTestServer(t)
	r := openStream(t, hs, "/api/stream", 10*time.Second)
	r.frame(t) // the whole update, at once

	const span = time.Second
	stop := make(chan struct{})
	changes := make(chan int)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				changes <- n
				return
			default:
			}
			if err := live.Advance(1); err != nil {
				changes <- -1
				return
			}
			n++
		}
	}()
	began, views := time.Now(), 0
	for time.Since(began) < span {
		r.frame(t)
		views++
	}
	elapsed := time.Since(began)
	close(stop)
	n := <-changes
	require.Positive(t, n, "the world did not change")
	most := int(elapsed/UpdateInterval) + 2
	if views > most || views < 2 {
		t.Fatalf("in %v the world changed %d times and the stream sent %d frames; want 2 to %d (one every %v at most)", elapsed, n, views, most, UpdateInterval)
	}
	t.Logf("%v: %d changes, %d views", elapsed, n, views)
}
