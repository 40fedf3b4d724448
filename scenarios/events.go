package scenarios

import (
	"fmt"

	"github.com/kafkalive/kafkalive/cluster"
)

// EventLines prints the step's events one a line, a run of events that
// differ only in time (a producer retrying every retry.backoff.ms) as its
// first line and a count.
func (o Outcome) EventLines() []string {
	var out []string
	evs := o.Events
	for i := 0; i < len(evs); {
		j := i + 1
		for j < len(evs) && sameEvent(evs[i], evs[j]) {
			j++
		}
		out = append(out, evs[i].String())
		if n := j - i - 1; n > 0 {
			out = append(out, fmt.Sprintf("  ... the same %d more time(s), the last at t=%d", n, evs[j-1].TimeMs))
		}
		i = j
	}
	return out
}

func sameEvent(a, b cluster.Event) bool {
	return a.Kind == b.Kind && a.Broker == b.Broker && a.Topic == b.Topic && a.Partition == b.Partition && a.Text == b.Text
}
