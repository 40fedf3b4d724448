package netsim

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// The open requests of networks cloned from one another, opened and closed
// at random on any of them, answer each close as a map of its own per
// network would: the record shared between clones (requests.base) is
// never changed by any of them.
func TestOpenRequestsAreEachNetworksOwn(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nets := []*Network{{}}
		models := []map[requestKey]int{{}}
		for i := range rapid.IntRange(1, 200).Draw(t, "ops") {
			j := rapid.IntRange(0, len(nets)-1).Draw(t, fmt.Sprintf("network %d", i))
			n, m := nets[j], models[j]
			k := requestKey{leader: 1, follower: rapid.Int32Range(2, 3).Draw(t, "follower"),
				tp: kafkalog.TopicPartition{Topic: "t", Partition: rapid.Int32Range(0, 5).Draw(t, "partition")}, corr: rapid.Int64Range(1, 4).Draw(t, "corr")}
			switch rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("op %d", i)) {
			case 0, 1:
				inc := rapid.IntRange(0, 3).Draw(t, "inc")
				n.OpenRequest(k.leader, k.follower, k.tp, k.corr, inc)
				m[k] = inc
			case 2, 3:
				got := n.CloseRequest(k.leader, k.follower, k.tp, k.corr)
				want, ok := m[k]
				delete(m, k)
				if !ok || want == 0 {
					want = -1
				}
				if got != want {
					t.Fatalf("op %d: network %d closed %+v as incarnation %d, want %d", i, j, k, got, want)
				}
			default:
				c := make(map[requestKey]int, len(m))
				for k, v := range m {
					c[k] = v
				}
				nets, models = append(nets, n.Clone()), append(models, c)
			}
		}
		for j, n := range nets {
			for k, inc := range models[j] {
				if got, ok := n.pending.get(k); !ok || got != inc {
					t.Fatalf("network %d holds %+v as %d (%v), want %d", j, k, got, ok, inc)
				}
			}
		}
	})
}
