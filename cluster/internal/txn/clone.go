package txn

import (
	"maps"
	"slices"
)

// Clone returns an independent copy of the coordinator, for a snapshot of
// the world: its transactional ids, writes in flight and marker jobs.
// The partition lists and transits are copied too: the coordinator changes
// a transaction's partitions in place as markers land.
func (c *Coordinator) Clone() *Coordinator {
	out := *c
	out.epochs = maps.Clone(c.epochs)
	out.txns = make(map[string]*Metadata, len(c.txns))
	for id, m := range c.txns {
		cp := *m
		cp.Partitions = slices.Clone(m.Partitions)
		out.txns[id] = &cp
	}
	out.appends = make(map[int64]*pendingAppend, len(c.appends))
	for corr, pa := range c.appends {
		cp := *pa
		cp.transit.Partitions = slices.Clone(pa.transit.Partitions)
		cp.partitions = slices.Clone(pa.partitions)
		out.appends[corr] = &cp
	}
	out.jobs = make(map[string]*markerJob, len(c.jobs))
	for id, j := range c.jobs {
		cp := *j
		cp.complete.Partitions = slices.Clone(j.complete.Partitions)
		cp.inflight = make([]markerSend, len(j.inflight))
		for i, s := range j.inflight {
			s.partitions = slices.Clone(s.partitions)
			cp.inflight[i] = s
		}
		out.jobs[id] = &cp
	}
	return &out
}
