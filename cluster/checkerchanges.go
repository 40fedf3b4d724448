package cluster

import (
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
)

// The checker looks at what changed: after every step it takes the
// partitions whose replicas the brokers changed (a message, a decision, a
// tick with work, a change of their logs, a replica opened or gone) and
// those whose leader, ISR or existence the controller changed, and checks
// those alone. A broker whose registration or fencing changed concerns
// every partition: the next check looks at all of them.

// takeChanged adds what the brokers and the controller changed since the
// last step to the checker's pending partitions.
func (w *World) takeChanged() {
	c := &w.check
	for _, b := range w.brokers {
		c.pending = append(c.pending, b.TakeChanged()...)
	}
	parts, all := w.ctl.TakeChanged()
	c.pending = append(c.pending, parts...)
	c.pendingAll = c.pendingAll || all
	if len(c.pending) > max(1024, 2*c.compacted) {
		c.takePending() // steps without events: keep each once
	}
}

// takePending sorts the pending partitions in the controller's order, each
// once, and returns them.
func (c *checker) takePending() []partitionKey {
	slices.SortFunc(c.pending, metadata.ComparePartitions)
	c.pending = slices.Compact(c.pending)
	c.compacted = len(c.pending)
	return c.pending
}
