package web

import (
	"fmt"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkawire"
)

// Kafka clients connect with client ids drawn from a pool, send requests,
// close their connections, are cut from brokers and healed, while the
// world's clock runs for random spans (up to two hours) and the backend
// sweeps its client ids. At every step a client.id keeps its number while
// it is remembered and a new one never gets a number given before; every
// client with a connection that has sent a request is remembered; the cut
// links looked at are those of connected clients; and after a sweep the
// backend remembers no client.id but those connected, remembered by the
// world or with a link cut — so the client ids held return to a bound
// once their clients are gone and the world has forgotten them.
//
// Replay a failure with go test ./web -run TestClientIDsForgotten -rapid.seed=SEED.
func TestClientIDsForgotten(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w, err := cluster.New(cluster.Config{Seed: 1})
		require.NoError(t, err)
		l := NewLiveWorld(w)
		k, term := NewKafka(l), NewTerminal(l)
		given := map[string]int32{} // the number each client.id was last given
		highest := int32(0)
		conns := map[uint64]string{} // open connections and the client.id of their latest request
		nextConn := uint64(0)
		pool := rapid.IntRange(1, 30).Draw(t, "client ids")
		for step := range rapid.IntRange(1, 40).Draw(t, "steps") {
			sweep := false
			switch rapid.IntRange(0, 6).Draw(t, "action") {
			case 0:
				nextConn++
				conns[nextConn] = ""
				k.ConnOpened(kafkawire.ConnInfo{ID: nextConn, Broker: 1})
			case 1, 2:
				if len(conns) == 0 {
					continue
				}
				id := rapid.SampledFrom(sortedKeys(conns)).Draw(t, "connection")
				cid := fmt.Sprintf("client-%d", rapid.IntRange(1, pool).Draw(t, "client.id"))
				conns[id] = cid
				req := kmsg.NewPtrMetadataRequest()
				k.Submit(1, kafkawire.ConnInfo{ID: id, Broker: 1, ClientID: cid}, req, req.AppendTo(nil))
			case 3:
				if len(conns) == 0 {
					continue
				}
				id := rapid.SampledFrom(sortedKeys(conns)).Draw(t, "connection")
				k.ConnClosed(kafkawire.ConnInfo{ID: id, Broker: 1, ClientID: conns[id]}, "closed")
				delete(conns, id)
			case 4:
				if highest == 0 {
					continue
				}
				n := rapid.Int32Range(1, highest).Draw(t, "cut client")
				if rapid.Bool().Draw(t, "heal instead") {
					require.NoError(t, term.Exec("heal", nil, io.Discard))
				} else {
					require.NoError(t, term.Exec(fmt.Sprintf("cut client %d", n), nil, io.Discard))
				}
			case 5:
				ms := rapid.Int64Range(0, 2*cluster.ExternalClientExpiryMs).Draw(t, "run ms")
				l.mu.Lock()
				err := l.w.RunFor(ms)
				l.mu.Unlock()
				require.NoError(t, err)
			default:
				sweep = true
				k.mu.Lock()
				k.swept = time.Time{}
				k.mu.Unlock()
			}
			k.pump()
			checkClientIDs(t, k, l, step, sweep, conns, given, &highest)
		}
	})
}

// checkClientIDs checks what k remembers of the client ids after a pump
// (a sweep if sweep) against the open connections.
func checkClientIDs(t *rapid.T, k *Kafka, l *Live, step int, sweep bool, conns map[uint64]string, given map[string]int32, highest *int32) {
	k.mu.Lock()
	defer k.mu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.w
	connected := map[string]bool{}
	for _, cid := range conns {
		if cid != "" {
			connected[cid] = true
			if _, ok := k.clients[cid]; !ok {
				t.Fatalf("step %d: client.id %q has a connection and sent a request, and has no number", step, cid)
			}
		}
	}
	known := map[int32]bool{}
	for _, c := range w.ExternalClients() {
		known[c.Number] = true
	}
	numbers := map[int32]string{}
	for cid, n := range k.clients {
		if other, ok := numbers[n]; ok {
			t.Fatalf("step %d: client ids %q and %q both have number %d", step, cid, other, n)
		}
		numbers[n] = cid
		switch before, ok := given[cid]; {
		case ok && before != n && n <= *highest:
			t.Fatalf("step %d: client.id %q had number %d and now has %d, given before", step, cid, before, n)
		case !ok && n <= *highest:
			t.Fatalf("step %d: new client.id %q got number %d, given before (highest %d)", step, cid, n, *highest)
		}
	}
	for cid, n := range k.clients {
		given[cid] = n
		*highest = max(*highest, n)
	}
	for key := range k.cuts {
		if !connected[numbers[key[1]-cluster.ExternalNodeBase]] {
			t.Fatalf("step %d: the cut link %v of a client with no connection is looked at", step, key)
		}
	}
	if !sweep {
		return
	}
	for cid, n := range k.clients {
		cut := false
		for b := int32(1); b <= int32(w.Config().Brokers); b++ {
			cut = cut || w.LinkCut(b, cluster.ExternalNode(n))
		}
		if !connected[cid] && !known[n] && !cut {
			t.Fatalf("step %d: after a sweep client.id %q (number %d) is remembered with no connection, no cut link, and the world has forgotten it", step, cid, n)
		}
	}
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[uint64]string) []uint64 {
	out := make([]uint64, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}
