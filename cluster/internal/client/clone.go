package client

import (
	"maps"
	"slices"

	"github.com/kafkalive/kafkalive/group"
)

// Clone returns an independent copy of the producer for a copy of its
// world: its results, records in flight, lingering batches, sequences and
// transaction, and its partitioners' stickiness (drawing from the world
// copy's generator, lent to it as to the original, call by call). A
// result's batch list is shared: it is set when the batch is sent and
// never changed.
func (p *Producer) Clone() *Producer {
	c := *p
	c.rng = &worldRand{}
	if p.sticky != nil {
		c.sticky = p.sticky.Clone(c.rng.rand())
	}
	if p.uniform != nil {
		c.uniform = p.uniform.Clone(c.rng.rand())
	}
	c.results = p.results.Clone()
	c.open = slices.Clone(p.open)
	c.inflight = slices.Clone(p.inflight) // the batches' lists are never changed once sent
	if p.queues != nil {
		c.queues = make([]*deque, len(p.queues))
		for k, d := range p.queues {
			c.queues[k] = &deque{partition: d.partition, waiting: slices.Clone(d.waiting), unsorted: d.unsorted}
		}
	}
	c.nextSeq = maps.Clone(p.nextSeq)
	c.conns = maps.Clone(p.conns)
	if p.lingering != nil {
		c.lingering = make(map[int32]*lingerBatch, len(p.lingering))
		for k, b := range p.lingering {
			nb := *b
			nb.results = slices.Clone(b.results)
			c.lingering[k] = &nb
		}
	}
	if p.txn != nil {
		t := *p.txn
		t.partitions = slices.Clone(p.txn.partitions)
		t.pending = slices.Clone(p.txn.pending)
		t.adding = slices.Clone(p.txn.adding)
		t.held = slices.Clone(p.txn.held)
		if p.txn.req != nil {
			r := *p.txn.req
			t.req = &r
		}
		if p.txn.offsets != nil {
			o := *p.txn.offsets
			t.offsets = &o
		}
		c.txn = &t
	}
	if p.copy != nil {
		cs := *p.copy
		cs.in, _ = p.copy.in.Clone() // a simple consumer's clone never fails
		c.copy = &cs
	}
	return &c
}

// Clone returns an independent copy of the consumer for a copy of its
// world: its position and records (the records' keys and values are
// shared strings), and a group consumer's member machine (group.Member's
// Clone), positions, commits and requests waiting. A learner's assignor
// part notes to the copy's own notes.
func (c *Consumer) Clone() (*Consumer, error) {
	d := *c
	d.records = slices.Clone(c.records)
	d.thrown = maps.Clone(c.thrown)
	if c.grp == nil {
		return &d, nil
	}
	g := *c.grp
	var assignors []group.Assignor
	if c.grp.notes != nil {
		g.notes = &assignNotes{}
		assignors = make([]group.Assignor, len(c.grp.assignors))
		for i, a := range c.grp.assignors {
			if pa, ok := a.(partAssignor); ok {
				pa.notes = g.notes
				a = pa
			}
			assignors[i] = a
		}
		g.assignors = assignors
	}
	m, err := cloneMember(c.grp.member, assignors)
	if err != nil {
		return nil, err
	}
	g.member = m
	g.positions, g.waiting, g.done = maps.Clone(c.grp.positions), maps.Clone(c.grp.waiting), maps.Clone(c.grp.done)
	g.outbox, g.severed = slices.Clone(c.grp.outbox), slices.Clone(c.grp.severed)
	g.resetPending = maps.Clone(c.grp.resetPending)
	g.servedAt = maps.Clone(c.grp.servedAt)
	d.grp = &g
	return &d, nil
}

// Clone returns an independent copy of the groups' progress.
func (p *Progress) Clone() Progress {
	c := Progress{}
	if p.ends != nil {
		c.ends = make(map[string]map[topicPartition]int64, len(p.ends))
		for g, m := range p.ends {
			c.ends[g] = maps.Clone(m)
		}
	}
	return c
}
