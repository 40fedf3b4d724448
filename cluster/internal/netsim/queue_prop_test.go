package netsim

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestQueueKeepsOrderInBoundedSpace drives a network through random
// sends, deliveries, drops and reorderings that may never let it empty,
// against a plain slice: the messages in flight are always the model's, in
// its order, and the queue's storage stays within a small multiple of the
// most messages ever in flight at once (a network that is never empty
// reuses its queue). Replay: go test ./cluster/internal/netsim -run
// TestQueueKeepsOrderInBoundedSpace -rapid.seed=N.
func TestQueueKeepsOrderInBoundedSpace(t *testing.T) {
	type sent struct {
		seq int64
		to  int32
	}
	rapid.Check(t, func(t *rapid.T) {
		var n Network
		var model []sent
		most, seq := 0, int64(0)
		for i := range rapid.IntRange(1, 3000).Draw(t, "ops") {
			switch op := rapid.IntRange(0, 9).Draw(t, "op"); {
			case op < 5 || len(model) == 0:
				seq++
				to := rapid.Int32Range(1, 3).Draw(t, "to")
				n.Push(Envelope{From: 1, To: to, DueMs: seq})
				model = append(model, sent{seq, to})
			case op < 8:
				e, ok := n.Pop()
				if !ok || e.DueMs != model[0].seq {
					t.Fatalf("op %d: popped %d (%v), want %d", i, e.DueMs, ok, model[0].seq)
				}
				model = model[1:]
			case op == 8:
				to := rapid.Int32Range(1, 3).Draw(t, "drop")
				n.Drop(nil, []int32{to})
				model = slices.DeleteFunc(model, func(s sent) bool { return s.to == to })
			default:
				to := rapid.Int32Range(1, 3).Draw(t, "move")
				n.MoveFirst(nil, []int32{to})
				if j := slices.IndexFunc(model, func(s sent) bool { return s.to == to }); j >= 0 {
					s := model[j]
					model = append([]sent{s}, slices.Delete(model, j, j+1)...)
				}
			}
			var got, want []int64
			for _, e := range n.InFlight() {
				got = append(got, e.DueMs)
			}
			for _, s := range model {
				want = append(want, s.seq)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("op %d: in flight %v, want %v", i, got, want)
			}
			most = max(most, len(model))
			if c := cap(n.queue); c > 4*most+8 {
				t.Fatalf("op %d: the queue holds room for %d messages, at most %d were ever in flight", i, c, most)
			}
		}
	})
}
