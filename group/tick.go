package group

import (
	"math"
	"slices"
)

// Removed is a member a Tick removed from its group: its session expired,
// or (never synced, or new and never answered) its rebalance or join
// timeout passed.
type Removed struct {
	GroupID, MemberID string
}

// Tick moves the clock to nowMs (it never goes back) and fires what is due,
// group by group in name order: expired sessions (member removed, rebalance),
// the end of a join phase (initial delay or rebalance timeout), members that
// never sent SyncGroup within the rebalance timeout, and unclaimed member ids.
//
// It looks only at the groups a request or a deletion changed since the
// last Tick and at those with a deadline passed: a coordinator of many
// quiet groups ticks at the cost of what is due, as Kafka's purgatories
// (heartbeat, join, sync) fire only the operations whose timers expire.
func (c *Coordinator) Tick(nowMs int64) { c.tick(nowMs, nil) }

// TickRemoved is [Coordinator.Tick] that also returns the members it
// removed, group by group in name order, each group's by member id.
func (c *Coordinator) TickRemoved(nowMs int64) []Removed {
	var out []Removed
	c.tick(nowMs, &out)
	return out
}

func (c *Coordinator) tick(nowMs int64, removed *[]Removed) {
	c.nowMs = max(c.nowMs, nowMs)
	for _, id := range c.dueGroups() {
		g := c.groups[id]
		if g.state == Dead {
			delete(c.groups, id)
			continue
		}
		var before []string
		if removed != nil {
			before = g.sortedMemberIDs()
		}
		c.expire(g)
		g.dueMs = g.nextDeadline()
		c.soonestMs = min(c.soonestMs, g.dueMs)
		for _, m := range before {
			if _, ok := g.members[m]; !ok {
				*removed = append(*removed, Removed{GroupID: id, MemberID: m})
			}
		}
	}
}

// dueGroups returns, sorted, the ids of the groups a Tick at the current
// time must look at: those touched since the last Tick and those whose
// deadline passed (all of them with tickEveryGroup), and forgets the
// touched ones. soonestMs is never after the soonest deadline of a group
// not touched: while the clock is before it and nothing was touched, a
// Tick looks at nothing; once it passes, every group is looked at once to
// find the due ones and the next soonest.
func (c *Coordinator) dueGroups() []string {
	if len(c.touched) == 0 && c.nowMs < c.soonestMs && !c.tickEveryGroup {
		return nil
	}
	var ids []string
	if c.nowMs >= c.soonestMs || c.tickEveryGroup {
		c.soonestMs = math.MaxInt64
		for id, g := range c.groups {
			if c.nowMs >= g.dueMs || c.touched[id] || c.tickEveryGroup {
				ids = append(ids, id)
			} else {
				c.soonestMs = min(c.soonestMs, g.dueMs)
			}
		}
	} else {
		for id := range c.touched {
			if c.groups[id] != nil {
				ids = append(ids, id)
			}
		}
	}
	clear(c.touched)
	slices.Sort(ids)
	return ids
}

// touch notes that a request or a deletion may have changed group id, so
// that the next Tick looks at it.
func (c *Coordinator) touch(id string) {
	if c.touched == nil {
		c.touched = map[string]bool{}
	}
	c.touched[id] = true
}

// nextDeadline is the earliest time at which expire would change the
// group if nothing else did: a pending member id's expiry, a session, a
// new member's join timeout, the end of the join phase, the sync
// deadline while a member has not synced; MinInt64 for a Dead group (to
// delete), MaxInt64 if none.
func (g *classicGroup) nextDeadline() int64 {
	if g.state == Dead {
		return math.MinInt64
	}
	d := int64(math.MaxInt64)
	for _, ms := range g.pending {
		d = min(d, ms)
	}
	syncing := false
	for _, m := range g.members {
		switch {
		case !m.awaitingJoin && !m.awaitingSync:
			d = min(d, m.heartbeatDeadlineMs)
		case m.awaitingJoin && m.newJoinDeadlineMs > 0:
			d = min(d, m.newJoinDeadlineMs)
		}
		syncing = syncing || m.pendingSync
	}
	switch {
	case g.state == PreparingRebalance:
		d = min(d, g.joinDeadlineMs)
	case (g.state == CompletingRebalance || g.state == Stable) && syncing:
		d = min(d, g.syncDeadlineMs)
	}
	return d
}
