package observed_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkawire"
	"github.com/kafkalive/kafkalive/observe"
	"github.com/kafkalive/kafkalive/web"
	"github.com/kafkalive/kafkalive/web/observed"
)

// TestServerOnlyLooks: the observed cluster's page answers its
// samples and its read-only tools; a tool's command that would act, and
// every route of the simulated page that acts, are refused with 403, and
// the world is untouched.
func TestServerOnlyLooks(t *testing.T) {
	live, err := web.NewLive()
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ks, err := web.StartKafka(ctx, live, kafkawire.LoopbackListeners(1, 2, 3), nil)
	require.NoError(t, err)
	o, err := observe.New(observe.Config{Bootstrap: []string{ks.Addr(1).String()}, Interval: time.Second})
	require.NoError(t, err)
	defer o.Close()
	o.Poll(ctx)
	o.Poll(ctx)
	hs := httptest.NewServer(observed.NewServer(o))
	defer hs.Close()

	resp, err := http.Get(hs.URL + "/api/observed?seq=1")
	require.NoError(t, err)
	var v observed.View
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&v))
	resp.Body.Close()
	require.Equal(t, uint64(1), v.Sample.Seq)
	require.False(t, v.Live)
	require.Equal(t, [2]uint64{1, 2}, [2]uint64{v.First, v.Last})
	require.NotNil(t, v.Sample.Partition("orders", 0))

	post := func(path, body string) (int, string) {
		resp, err := http.Post(hs.URL+path, "application/json", strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(b)
	}
	code, body := post("/api/observed/exec", `{"line": "kafka-consumer-groups --list"}`)
	require.Equal(t, http.StatusOK, code, body)
	code, body = post("/api/observed/exec", `{"line": "kafka-topics --delete --topic orders"}`)
	require.Equal(t, http.StatusForbidden, code, body)
	require.Contains(t, body, "would change the cluster")
	for _, path := range []string{"/api/exec", "/api/reset", "/api/pause", "/api/scenario/start"} {
		code, body = post(path, `{"line": "kill 1"}`)
		require.Equal(t, http.StatusForbidden, code, "%s: %s", path, body)
	}
	resp, err = http.Get(hs.URL + "/api/observed?seq=x")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusBadRequest, resp.StatusCode)
	require.NoError(t, live.Do(nil, func(w *cluster.World) error {
		require.NotEmpty(t, w.TopicPartitions("orders"))
		st, _ := w.BrokerState(1)
		require.Equal(t, cluster.BrokerRunning, st)
		return nil
	}))
}
