package group

import (
	"fmt"
	"maps"
	"slices"
)

// Clone returns an independent copy of the coordinator reading committed
// offsets from store, which must be the owner's copy of the store the
// coordinator reads (in the same state): its clock, every group with its
// members, generation, leader, protocol, rebalance deadlines, handed-out
// member ids and static members, and the output not yet taken from
// [Coordinator.Ready]. From then on the two change apart, and alike
// under the same calls.
//
// What it shares, and why that is safe: a member's protocols, assignment and
// assignment bytes, which the coordinator replaces and never changes in
// place; the answers, offset and group records not yet taken, whose
// contents are never changed once emitted; the assignments and protocols
// held for the stores in flight, never changed either. Everything else is copied: a clone costs a
// copy of each group and member, not of the committed offsets (the store's).
func (c *Coordinator) Clone(store OffsetReader) *Coordinator {
	out := &Coordinator{cfg: c.cfg, store: store, nowMs: c.nowMs, groups: make(map[string]*classicGroup, len(c.groups)),
		ready:   Ready{Commits: slices.Clone(c.ready.Commits), Groups: slices.Clone(c.ready.Groups), Responses: slices.Clone(c.ready.Responses)},
		touched: maps.Clone(c.touched), soonestMs: c.soonestMs, tickEveryGroup: c.tickEveryGroup,
		nextStoreID: c.nextStoreID, stores: maps.Clone(c.stores), incarnations: c.incarnations, memberIDs: c.memberIDs}
	for id, g := range c.groups {
		out.groups[id] = g.clone()
	}
	return out
}

// clone returns a copy of the group (see [Coordinator.Clone]).
func (g *classicGroup) clone() *classicGroup {
	c := *g
	c.members = make(map[string]*member, len(g.members))
	for id, m := range g.members {
		copied := *m
		c.members[id] = &copied
	}
	c.table.putSeq = maps.Clone(g.table.putSeq)
	c.pending = maps.Clone(g.pending)
	c.static = maps.Clone(g.static)
	return &c
}

// Clone returns an independent copy of the member: its state, member id,
// generation, leader, what it owns, revokes and was last assigned, the
// topics' metadata, the commit it waits for and the output not yet taken
// from [Member.Ready]. From then on the two change apart, and alike under the
// same calls.
//
// assignors replaces the member's partition.assignment.strategy for the
// clone: the same assignors, by name and protocol and in the same order, as
// its owner's copy of an assignor that reaches its owner's state; nil shares
// the member's own, as this package's assignors (pure functions) can be.
// What else it shares: the subscribed topics, which it never changes, and
// the contents of the requests not yet taken, never changed once sent.
func (m *Member) Clone(assignors []Assignor) (*Member, error) {
	c := *m
	if assignors != nil {
		if err := sameAssignors(m.cfg.Assignors, assignors); err != nil {
			return nil, fmt.Errorf("clone member %q of group %q: %w", m.cfg.ClientID, m.cfg.GroupID, err)
		}
		c.cfg.Assignors = slices.Clone(assignors)
	}
	c.owned, c.lastAssignment, c.revoking = slices.Clone(m.owned), slices.Clone(m.lastAssignment), slices.Clone(m.revoking)
	c.metadata, c.assignedWith = slices.Clone(m.metadata), maps.Clone(m.assignedWith)
	if m.awaiting != nil {
		a := *m.awaiting
		a.offsets = slices.Clone(m.awaiting.offsets)
		c.awaiting = &a
	}
	c.ready = MemberReady{Requests: slices.Clone(m.ready.Requests), Revoke: slices.Clone(m.ready.Revoke), Assigned: slices.Clone(m.ready.Assigned),
		Lost: slices.Clone(m.ready.Lost), Fetched: slices.Clone(m.ready.Fetched), Errors: slices.Clone(m.ready.Errors)}
	return &c, nil
}

// sameAssignors fails unless b lists assignors of a's names and protocols,
// in a's order.
func sameAssignors(a, b []Assignor) error {
	if len(a) != len(b) {
		return fmt.Errorf("%w: %d assignors for %d", ErrInvalidConfig, len(b), len(a))
	}
	for i := range a {
		if a[i].Name() != b[i].Name() || a[i].Protocol() != b[i].Protocol() {
			return fmt.Errorf("%w: assignor %d is %s (%s), was %s (%s)", ErrInvalidConfig, i, b[i].Name(), b[i].Protocol(), a[i].Name(), a[i].Protocol())
		}
	}
	return nil
}

// Clone returns an independent copy of the store.
func (s *MemoryOffsetStore) Clone() *MemoryOffsetStore {
	c := &MemoryOffsetStore{}
	if s.offsets != nil {
		c.offsets = make(map[string]map[TopicPartition]PartitionOffset, len(s.offsets))
		for g, offsets := range s.offsets {
			c.offsets[g] = maps.Clone(offsets)
		}
	}
	return c
}

// Clone returns an independent copy of the consumer group coordinator
// reading committed offsets from store, the owner's copy of the store it
// reads (in the same state): its clock, topics, every group with its
// epochs, members, target assignment, partition owners and timers, and
// the output not yet taken from [ConsumerGroupCoordinator.Ready].
//
// What it shares, and why that is safe: the members, which the
// coordinator replaces and never changes in place (their topic and
// partition lists with them); a group's target assignment lists, replaced
// whole; the topics' metadata, replaced whole by SetTopics; and the
// contents of the answers and offset records not yet taken.
func (c *ConsumerGroupCoordinator) Clone(store OffsetReader) *ConsumerGroupCoordinator {
	out := *c
	out.store = store
	out.topics = maps.Clone(c.topics)
	out.groups = make(map[string]*consumerGroup, len(c.groups))
	for id, g := range c.groups {
		cg := *g
		cg.members, cg.static, cg.target = maps.Clone(g.members), maps.Clone(g.static), maps.Clone(g.target)
		cg.owners, cg.subscription, cg.timers = maps.Clone(g.owners), maps.Clone(g.subscription), maps.Clone(g.timers)
		out.groups[id] = &cg
	}
	out.ready = Ready{Commits: slices.Clone(c.ready.Commits), Responses: slices.Clone(c.ready.Responses),
		ConsumerGroups: slices.Clone(c.ready.ConsumerGroups)}
	return &out
}
