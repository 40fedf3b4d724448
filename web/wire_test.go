//go:build !js

package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/kafkawire"
)

// TestWireRecordsOnlyWhatIsWatched: random exchanges of random clients,
// views of the wire asking for random clients and APIs, and time passing:
// a client's exchanges are kept only within WireWatchFor of a view asking
// for it (or for every client), at most MaxWireExchanges in all, and a
// view answers the kept exchanges after its Since that match it, in
// order, with Next the newest.
func TestWireRecordsOnlyWhatIsWatched(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		now := time.Unix(1_700_000_000, 0)
		w := NewWire()
		w.now = func() time.Time { return now }
		clients := []string{"", "a", "b", "c"}
		apis := []kafkawire.RequestHeader{{APIKey: 0}, {APIKey: 1}, {APIKey: 3}}
		lastAsked := map[string]time.Time{}
		var seq uint64
		for range rapid.IntRange(1, 300).Draw(rt, "ops") {
			switch rapid.IntRange(0, 3).Draw(rt, "op") {
			case 0, 1:
				c := rapid.SampledFrom(clients[1:]).Draw(rt, "client")
				asked, ok := lastAsked[c]
				all, okAll := lastAsked[""]
				want := ok && now.Before(asked.Add(WireWatchFor)) || okAll && now.Before(all.Add(WireWatchFor))
				ci := kafkawire.ConnInfo{ClientID: c}
				if got := w.Tapping(ci); got != want {
					rt.Fatalf("client %s tapped %v, want %v", c, got, want)
				}
				if want {
					h := rapid.SampledFrom(apis).Draw(rt, "api")
					h.ClientID = c
					w.Exchanged(kafkawire.Exchange{Conn: ci, Header: h, Received: now, Answered: now})
					seq++
				}
			case 2:
				now = now.Add(time.Duration(rapid.IntRange(0, 3000).Draw(rt, "ms")) * time.Millisecond)
			case 3:
				q := WireQuery{Client: rapid.SampledFrom(clients).Draw(rt, "watch"), Since: uint64(rapid.IntRange(0, int(seq)+1).Draw(rt, "since"))}
				if rapid.Bool().Draw(rt, "by api") {
					q.API = "Fetch"
				}
				if rapid.Bool().Draw(rt, "from") { // a journey's link
					q.From = uint64(rapid.IntRange(1, int(seq)+1).Draw(rt, "from seq"))
				}
				q.Limit = rapid.IntRange(0, 5).Draw(rt, "limit")
				v := w.View(q)
				lastAsked[q.Client] = now
				all := w.View(WireQuery{Client: q.Client, API: q.API, Since: max(q.Since, q.From-min(q.From, 1))})
				lastAsked[q.Client] = now
				cut := q.Limit > 0 && len(all.Exchanges) > q.Limit
				switch {
				case cut && q.From > 0:
					if v.Next != v.Exchanges[len(v.Exchanges)-1].Seq || !sameSeqs(v.Exchanges, all.Exchanges[:q.Limit]) {
						rt.Fatalf("view %+v: next %d, %d exchanges; want the oldest %d of %d", q, v.Next, len(v.Exchanges), q.Limit, len(all.Exchanges))
					}
				case v.Next != seq:
					rt.Fatalf("next %d, %d exchanges kept", v.Next, seq)
				case cut && !sameSeqs(v.Exchanges, all.Exchanges[len(all.Exchanges)-q.Limit:]):
					rt.Fatalf("view %+v: want the newest %d of %d", q, q.Limit, len(all.Exchanges))
				}
				for i, x := range v.Exchanges {
					if x.Seq <= q.Since || x.Seq < q.From || i > 0 && x.Seq <= v.Exchanges[i-1].Seq || q.Client != "" && x.Client != q.Client || q.API != "" && x.API != q.API {
						rt.Fatalf("view %+v answered exchange %d of %s %s", q, x.Seq, x.Client, x.API)
					}
				}
			}
			if len(w.kept) > MaxWireExchanges {
				rt.Fatalf("%d exchanges kept", len(w.kept))
			}
		}
	})
}

// sameSeqs reports whether a and b are the same exchanges.
func sameSeqs(a, b []WireExchange) bool {
	return slices.EqualFunc(a, b, func(x, y WireExchange) bool { return x.Seq == y.Seq })
}

// TestWireShowsAWatchedClientsRequests: GET /api/wire?client=C watches C;
// its next requests are answered decoded (API, version, what matters, the
// errors), another client's are not recorded at all.
func TestWireShowsAWatchedClientsRequests(t *testing.T) {
	live, err := NewLive()
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ks, err := StartKafka(ctx, live, kafkawire.LoopbackListeners(1, 2, 3), nil)
	require.NoError(t, err)
	hs := httptest.NewServer(NewServer(live, NewTerminal(live), nil))
	defer hs.Close()
	get := func(query string) WireView {
		resp, err := http.Get(hs.URL + "/api/wire?" + query)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		var v WireView
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&v))
		return v
	}
	first := get("client=watched")
	admin := func(id string) *kadm.Client {
		cl, err := kgo.NewClient(kgo.SeedBrokers(ks.Addr(1).String()), kgo.ClientID(id))
		require.NoError(t, err)
		t.Cleanup(cl.Close)
		return kadm.NewClient(cl)
	}
	watched, other := admin("watched"), admin("other")
	_, err = other.ListEndOffsets(ctx, "orders")
	require.NoError(t, err)
	_, err = watched.ListEndOffsets(ctx, "orders", "no-such-topic")
	require.NoError(t, err)
	var v WireView
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		v = get(fmt.Sprintf("since=%d", first.Next))
		if slices.ContainsFunc(v.Exchanges, func(x WireExchange) bool { return x.API == "ListOffsets" }) {
			break
		}
	}
	var apis []string
	for _, x := range v.Exchanges {
		require.Equal(t, "watched", x.Client, "an exchange of a client not watched was recorded")
		apis = append(apis, x.API)
		if x.API == "ListOffsets" {
			require.Regexp(t, `^replica -1 isolation 0 orders-\d at LATEST`, x.Request) // one request a leader
			require.Regexp(t, `^orders-\d offset \d+`, x.Response)
		}
		if x.API == "Metadata" && len(x.Errors) > 0 {
			require.Contains(t, x.Errors, "UNKNOWN_TOPIC_OR_PARTITION")
		}
	}
	require.Contains(t, apis, "ApiVersions")
	require.Contains(t, apis, "Metadata")
	require.Contains(t, apis, "ListOffsets")
}
