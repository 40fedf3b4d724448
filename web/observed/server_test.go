package observed_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/observe"
	"github.com/kafkalive/kafkalive/web"
	"github.com/kafkalive/kafkalive/web/observed"
)

// observedWorld starts the default world behind Kafka listeners and an
// observer of it that has polled twice.
func observedWorld(t *testing.T) (*web.Live, *observe.Observer) {
	t.Helper()
	live, err := web.NewLive()
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ks, err := web.StartKafka(ctx, live, kafkawire.LoopbackListeners(1, 2, 3), nil)
	require.NoError(t, err)
	o, err := observe.New(observe.Config{Bootstrap: []string{ks.Addr(1).String()}, Interval: time.Second})
	require.NoError(t, err)
	t.Cleanup(o.Close)
	o.Poll(ctx)
	o.Poll(ctx)
	return live, o
}

// get answers a GET of path, its status and body.
func get(t *testing.T, hs *httptest.Server, path string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(hs.URL + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, b
}

// TestServerOnlyLooks: the observed cluster's page is the shared page
// (index.html marked observed; the old address redirects to it), its
// /api/view answers the same update the simulated page draws for any
// sample of the timeline, its terminal runs the read-only tools; a
// tool's command that would act, and every route of the simulated page
// that acts, are refused with 403, and the world is untouched.
func TestServerOnlyLooks(t *testing.T) {
	live, o := observedWorld(t)
	srv := observed.NewServer(o)
	hs := httptest.NewServer(srv)
	defer hs.Close()

	code, page := get(t, hs, "/")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, string(page), observed.Marker)
	require.Contains(t, string(page), `<script type="module" src="js/main.js">`)
	code, _ = get(t, hs, "/observe.html")
	require.Equal(t, http.StatusOK, code, "the old page's address leads to the shared page")
	code, b := get(t, hs, "/api/notes")
	require.Equal(t, http.StatusOK, code)
	require.JSONEq(t, "[]", string(b), "a server without notes lists none")
	code, _ = get(t, hs, "/api/note?name=00-why-a-log")
	require.Equal(t, http.StatusNotFound, code)
	srv.Notes = fstest.MapFS{"00-why-a-log.md": {Data: []byte("# Why a log\n\nAppend only.\n")}}
	code, b = get(t, hs, "/api/notes")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, string(b), "00-why-a-log", "the notes are the simulated page's")
	code, b = get(t, hs, "/api/note?name=00-why-a-log")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, string(b), "Append only.")

	code, b = get(t, hs, "/api/view?at=0&topic=orders&partition=1")
	require.Equal(t, http.StatusOK, code, string(b))
	var u web.Update
	require.NoError(t, json.Unmarshal(b, &u))
	require.Equal(t, web.ModeObserved, u.Mode)
	require.NotNil(t, u.Observed)
	require.Equal(t, uint64(1), u.Observed.Seq, "at=0 is the first sample")
	require.True(t, u.Past)
	require.Equal(t, [2]uint64{1, 2}, [2]uint64{u.Observed.First, u.Observed.Last})
	require.Equal(t, observed.ReadOnly, u.Observed.ReadOnly)
	require.NotNil(t, u.Detail)
	require.Equal(t, [2]any{"orders", int32(1)}, [2]any{u.Detail.Topic, u.Detail.Partition})
	code, b = get(t, hs, "/api/view")
	require.Equal(t, http.StatusOK, code, string(b))
	u = web.Update{}
	require.NoError(t, json.Unmarshal(b, &u))
	require.Equal(t, uint64(2), u.Observed.Seq)
	require.False(t, u.Past)

	post := func(path, body string) (int, string) {
		resp, err := http.Post(hs.URL+path, "application/json", strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(b)
	}
	code, body := post("/api/exec", `{"line": "kafka-topics --describe --topic orders"}`)
	require.Equal(t, http.StatusOK, code, body)
	require.Contains(t, body, `"ok":true`)
	require.Contains(t, body, `Topic: orders\tPartition: 0\tLeader: `)
	code, body = post("/api/exec", `{"line": "kafka-topics --delete --topic orders", "at": 0}`)
	require.Equal(t, http.StatusForbidden, code, body)
	require.Contains(t, body, "would change the cluster")
	require.Contains(t, body, `"ok":false`)
	code, body = post("/api/exec", `{"line": "kill 1"}`)
	require.Equal(t, http.StatusOK, code, body)
	require.Contains(t, body, `"ok":false`)
	for _, path := range []string{"/api/reset", "/api/pause", "/api/speed", "/api/scenario/start", "/api/scenario/step", "/api/scenario/leave"} {
		code, body = post(path, `{}`)
		require.Equal(t, http.StatusForbidden, code, "%s: %s", path, body)
		require.Contains(t, body, "only looks")
	}
	for _, path := range []string{"/api/view?at=x", "/api/view?at=-1", "/api/view?parts_status=sideways"} {
		code, b = get(t, hs, path)
		require.Equal(t, http.StatusBadRequest, code, "%s: %s", path, b)
	}
	require.NoError(t, live.Do(nil, func(w *cluster.World) error {
		require.NotEmpty(t, w.TopicPartitions("orders"))
		st, _ := w.BrokerState(1)
		require.Equal(t, cluster.BrokerRunning, st)
		return nil
	}))
}

// TestStreamIsTheSharedPagesStream: the observed page's /api/stream is the
// simulated page's update stream (web.Frame): the whole update first,
// then a patch a sample, which a page's store applies to the update
// /api/view answers for the same sample.
func TestStreamIsTheSharedPagesStream(t *testing.T) {
	_, o := observedWorld(t)
	src := observed.NewSource(o)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	frames := make(chan []byte, 4)
	go web.Watch(ctx, src, web.Focus{Topic: "orders"}, func() time.Duration { return 0 }, func(b []byte) error {
		frames <- append([]byte(nil), b...)
		return nil
	})
	var st web.Store
	require.NoError(t, st.Apply(<-frames))
	first, _, err := src.Present(web.Focus{Topic: "orders"})
	require.NoError(t, err)
	require.JSONEq(t, string(first.Bytes()), string(st.JSON()))
	o.Poll(ctx)
	var f web.Frame
	b := <-frames
	require.NoError(t, json.Unmarshal(b, &f))
	require.Nil(t, f.Full, "a sample after the first is a patch")
	require.NoError(t, st.Apply(b))
	now, _, err := src.Present(web.Focus{Topic: "orders"})
	require.NoError(t, err)
	require.JSONEq(t, string(now.Bytes()), string(st.JSON()))
}

// TestSharedPageRendersObservedUpdates renders every panel of an observed
// cluster's real updates with the shared page's own modules (under node,
// as web's TestPageRendersRealUpdates does the simulation's): the default
// world's groups with their lag over time, a broker killed, a past
// sample. A field the modules read that the server does not send shows
// as "undefined" and fails it.
func TestSharedPageRendersObservedUpdates(t *testing.T) {
	bin, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("KAFKALIVE_REQUIRE_NODE") != "" {
			t.Fatal("node is not installed (KAFKALIVE_REQUIRE_NODE is set)")
		}
		t.Skip("node is not installed: the page's modules are not run")
	}
	live, o := observedWorld(t)
	src := observed.NewSource(o)
	ctx := context.Background()
	var updates []web.Update
	add := func(f web.Focus, at *int64) {
		u, err := src.Update(f, at)
		require.NoError(t, err)
		updates = append(updates, u)
	}
	for i := 0; i < 3; i++ {
		require.NoError(t, live.Advance(1000))
		o.Poll(ctx)
		add(web.Focus{Topic: "orders"}, nil)
	}
	require.NoError(t, live.Do(nil, func(w *cluster.World) error { return w.Kill(2) }))
	require.NoError(t, live.Advance(10000))
	o.Poll(ctx)
	add(web.Focus{Topic: "orders", Partition: 1}, nil)
	past := int64(0)
	add(web.Focus{Topic: "orders"}, &past)
	for i, u := range updates {
		t.Logf("update %d: %d groups, unanswered %q", i, len(u.Groups), u.Observed.Unanswered)
	}
	g := updates[len(updates)-2].Groups
	require.NotEmpty(t, g, "the default world's groups are observed")
	require.Len(t, g[0].LagTimes, 6, "a group's lag is drawn over every sample kept up to the one shown")
	require.Len(t, g[0].Lags, 6)
	b, err := json.Marshal(updates)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "updates.json")
	require.NoError(t, os.WriteFile(file, b, 0o644))
	out, err := exec.Command(bin, "../jstest/realviews.mjs", file).CombinedOutput()
	require.NoError(t, err, "the page's modules on the observed updates:\n%s", out)
}

// TestViewWaitsForTheFirstPoll: a page opened before the observer's first
// poll ended gets its update when the poll ends, not a refusal.
func TestViewWaitsForTheFirstPoll(t *testing.T) {
	_, polled := observedWorld(t)
	o, err := observe.New(observe.Config{Bootstrap: []string{polled.Latest().Brokers[0].Host + ":" + strconv.Itoa(int(polled.Latest().Brokers[0].Port))}})
	require.NoError(t, err)
	defer o.Close()
	hs := httptest.NewServer(observed.NewServer(o))
	defer hs.Close()
	answered := make(chan int, 1)
	go func() {
		resp, err := http.Get(hs.URL + "/api/view")
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	select {
	case code := <-answered:
		t.Fatalf("answered %d before any poll", code)
	case <-time.After(100 * time.Millisecond):
	}
	o.Poll(context.Background())
	require.Equal(t, http.StatusOK, <-answered)
}
