package controller

import (
	"maps"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
)

// Clone returns an independent copy of the controller: registrations,
// partitions, topics and the quorum. It shares only what is never changed
// in place: a partition's record, which whichever of the two changes it
// first copies (own), and its replica, ISR, ELR and last known leader
// lists (a change replaces them), a topic's per-partition replica lists
// and its configs (an alteration replaces them). So a timeline snapshot of
// a controller of thousands of partitions copies their map, not each.
func (c *Controller) Clone() *Controller {
	c.gen++ // every partition now shared: copied before it changes
	d := *c
	d.brokers = slices.Clone(c.brokers)
	d.parts = maps.Clone(c.parts)
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

// own returns partition k's record p to change in place: p itself if no
// clone shares it, else a copy of it, which the controller holds from now
// on. It is kept out of line (the WebAssembly world a first visit
// downloads weighs every inlined copy of the record's copy).
//
//go:noinline
func (c *Controller) own(k tp, p *partition) *partition {
	if p.gen == c.gen {
		return p
	}
	q := *p
	q.gen = c.gen
	c.parts[k] = &q
	return &q
}
