package controller

import (
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
)

// Clone returns an independent copy of the controller: registrations,
// partitions, topics and the quorum. It shares only what is never changed
// in place: a partition's replica, ISR, ELR and last known leader
// lists (a change replaces them),
// a topic's per-partition replica lists and its configs (an alteration
// replaces them).
func (c *Controller) Clone() *Controller {
	d := *c
	d.brokers = slices.Clone(c.brokers)
	d.parts = make(map[tp]*partition, len(c.parts))
	for k, p := range c.parts {
		q := *p
		d.parts[k] = &q
	}
	d.order = slices.Clone(c.order)
	d.topics = make([]metadata.Topic, len(c.topics))
	for i, t := range c.topics {
		t.Assignment = slices.Clone(t.Assignment) // grows by append: the clone's own
		d.topics[i] = t
	}
	d.quorum.voters = slices.Clone(c.quorum.voters)
	d.changes.parts = slices.Clone(c.changes.parts)
	return &d
}
