package client

import (
	"fmt"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/group"
)

// A group consumer's process: closed, crashed, restarted, busy.

// CheckGroupAction checks an action on group consumer c (nil: none of
// that name) named kind: restart needs a process that is down (restart is
// set), the others one that runs; ms (a stall's) may not be negative.
func CheckGroupAction(c *Consumer, name, kind string, restart bool, ms int64) error {
	switch {
	case c == nil || c.grp == nil:
		return fmt.Errorf("%w: %s: no group consumer %q", metadata.ErrInvalidConfig, kind, name)
	case restart && !c.grp.down:
		return fmt.Errorf("%w: restart-consumer: %q is running", metadata.ErrInvalidConfig, name)
	case !restart && c.grp.down:
		return fmt.Errorf("%w: %s: %q is not running", metadata.ErrInvalidConfig, kind, name)
	case ms < 0:
		return fmt.Errorf("%w: %s: negative time", metadata.ErrInvalidConfig, kind)
	}
	return nil
}

// Close is KafkaConsumer.close(): commit and revoke everything, wait for
// the commit's answer (ConsumerCoordinator.close commits synchronously),
// then (dynamic members) LeaveGroup. Until the member is done the process
// only runs its heartbeat thread and takes answers; it polls no more.
func (c *Consumer) Close(env Env) {
	g := c.grp
	if g.closing {
		return
	}
	g.closing = true
	g.member.Close()
	c.handleMember(env)
}

// closedWhenLeft ends a closing consumer's process once its member left.
func (c *Consumer) closedWhenLeft(env Env) {
	g := c.grp
	if g.closing && !g.down && g.member.State() == group.Left {
		g.down, g.closed = true, true
		env.Record(event.Group, 0, nil, "%s closed", c.cfg.Name)
	}
}

// Crash kills the consumer process: no commit, no LeaveGroup; the
// coordinator notices only when its session expires.
func (c *Consumer) Crash(env Env) {
	c.grp.down = true
	c.grp.positions, c.grp.waiting = map[topicPartition]int64{}, map[topicPartition]bool{}
	env.Record(event.Group, 0, nil, "%s crashed (no commit, no LeaveGroup)", c.cfg.Name)
}

// Restart starts a closed or crashed consumer's process again: a new
// member with no partitions (a static member keeps its
// group.instance.id), which joins at its first poll.
func (c *Consumer) Restart(env Env, s Settings) error {
	env.Record(event.Group, 0, nil, "%s restarts", c.cfg.Name)
	return c.start(env, s)
}

// Stall makes the application busy for ms (no poll()); the heartbeat
// thread goes on.
func (c *Consumer) Stall(env Env, ms int64) {
	c.grp.stalledUntil = env.Now() + ms
	env.Record(event.Group, 0, nil, "%s is busy processing for %d ms (no poll)", c.cfg.Name, ms)
}

// Running reports whether the consumer is a group member whose process
// runs (not crashed, not closed).
func (c *Consumer) Running() bool { return c.grp != nil && !c.grp.down }

// MemberID returns a group consumer's member id ("" before its first
// JoinGroup answer, or for a simple consumer).
func (c *Consumer) MemberID() string {
	if c.grp == nil {
		return ""
	}
	return c.grp.member.MemberID()
}

// MemberState returns a group consumer's member state.
func (c *Consumer) MemberState() group.MemberState { return c.grp.member.State() }

// Protocol returns the rebalance protocol a group consumer's member uses.
func (c *Consumer) Protocol() group.RebalanceProtocol { return c.grp.member.Protocol() }

// MemberStatus returns a group consumer's member snapshot: what it may
// fetch, and why it reads nothing when it does not.
func (c *Consumer) MemberStatus() group.ConsumerStatus { return c.grp.member.Status() }

// StalledUntil returns until when the application is busy (no poll()).
func (c *Consumer) StalledUntil() int64 {
	if c.grp == nil {
		return 0
	}
	return c.grp.stalledUntil
}

// Processed returns how many records a group consumer handed to the
// application, and how many of them its group had processed before
// (duplicates).
func (c *Consumer) Processed() (processed, duplicates int) {
	if c.grp == nil {
		return 0, 0
	}
	return c.grp.processed, c.grp.duplicates
}

// Status is a group consumer's process: "running", "closed" or "crashed".
func (c *Consumer) Status() string {
	switch {
	case c.grp == nil || !c.grp.down:
		return "running"
	case c.grp.closed:
		return "closed"
	}
	return "crashed"
}
