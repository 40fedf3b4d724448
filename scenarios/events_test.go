package scenarios

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
)

func TestEventLinesCondensesRetries(t *testing.T) {
	ev := func(ms int64, text string) cluster.Event {
		return cluster.Event{TimeMs: ms, Step: 3, Kind: cluster.EventProduce, Topic: "t", Text: text}
	}
	o := Outcome{Events: []cluster.Event{
		ev(10, "p: r1 got NOT_ENOUGH_REPLICAS"),
		ev(110, "p: r1 got NOT_ENOUGH_REPLICAS"),
		ev(210, "p: r1 got NOT_ENOUGH_REPLICAS"),
		ev(220, "p: r1 failed"),
		ev(230, "p: r1 got NOT_ENOUGH_REPLICAS"),
	}}
	want := []string{
		o.Events[0].String(),
		"  ... the same 2 more time(s), the last at t=210",
		o.Events[3].String(),
		o.Events[4].String(),
	}
	if diff := cmp.Diff(want, o.EventLines()); diff != "" {
		t.Errorf("EventLines (-want +got):\n%s", diff)
	}
}
