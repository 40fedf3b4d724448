package group

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
)

// ConsumerGroupConfig holds the broker's settings of consumer-protocol
// groups, named after Kafka 4's group.consumer.* broker configs.
type ConsumerGroupConfig struct {
	// SessionTimeoutMs is group.consumer.session.timeout.ms (45000): a
	// member that sends no heartbeat for this long is removed.
	SessionTimeoutMs int32
	// HeartbeatIntervalMs is group.consumer.heartbeat.interval.ms (5000),
	// the interval the coordinator tells its members.
	HeartbeatIntervalMs int32
	// MaxSize is group.consumer.max.size; 0 means no limit (Kafka's
	// default is Integer.MAX_VALUE).
	MaxSize int
	// Assignors is group.consumer.assignors: the server-side assignors
	// members may name, the first the default ([uniform range]).
	Assignors []string
}

// DefaultConsumerGroupConfig returns Kafka 4's defaults
// (GroupCoordinatorConfig).
func DefaultConsumerGroupConfig() ConsumerGroupConfig {
	return ConsumerGroupConfig{SessionTimeoutMs: 45000, HeartbeatIntervalMs: 5000, Assignors: []string{"uniform", "range"}}
}

func (c ConsumerGroupConfig) validate() error {
	known := ServerAssignors()
	ok := c.SessionTimeoutMs > 0 && c.HeartbeatIntervalMs > 0 && c.HeartbeatIntervalMs < c.SessionTimeoutMs && c.MaxSize >= 0 && len(c.Assignors) > 0
	for _, a := range c.Assignors {
		ok = ok && known[a] != nil
	}
	if !ok {
		return fmt.Errorf("consumer group config %+v: %w", c, ErrInvalidConfig)
	}
	return nil
}

// ConsumerGroupCoordinator is the group coordinator of one broker for its
// consumer-protocol groups (KIP-848; Kafka 4's GroupMetadataManager for
// ConsumerGroups): a pure state machine beside the classic [Coordinator],
// fed ConsumerGroupHeartbeat, OffsetCommit and OffsetFetch requests. The
// members send their subscriptions and what they own; the coordinator
// computes the target assignment with a server-side assignor and moves
// each member to it on its own heartbeats (revoke first, assign once
// released). It is not safe for concurrent use.
//
// Its caller keeps a group id to one coordinator: a classic group's id is
// refused here, a consumer group's by the classic one (the broker decides,
// see [ConsumerGroupCoordinator.Hosts]).
type ConsumerGroupCoordinator struct {
	cfg    ConsumerGroupConfig
	store  OffsetReader
	nowMs  int64
	topics map[string]TopicMetadata
	groups map[string]*consumerGroup
	// nextID numbers the member ids the coordinator makes for v0 joins.
	nextID uint64
	ready  Ready
}

// NewConsumerGroupCoordinator returns a coordinator whose clock starts at
// nowMs and that reads committed offsets from store.
func NewConsumerGroupCoordinator(cfg ConsumerGroupConfig, store OffsetReader, nowMs int64) (*ConsumerGroupCoordinator, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if store == nil {
		return nil, fmt.Errorf("consumer group coordinator without an offset store: %w", ErrInvalidConfig)
	}
	return &ConsumerGroupCoordinator{cfg: cfg, store: store, nowMs: nowMs, topics: map[string]TopicMetadata{}, groups: map[string]*consumerGroup{}}, nil
}

// SetTopics tells the coordinator the cluster's topics (the metadata
// image): their ids and partition counts. A group whose subscribed topics
// changed sees it at its next heartbeat, which bumps its epoch (Kafka's
// onNewMetadataImage asks those groups to refresh their subscription
// metadata at their next heartbeat).
func (c *ConsumerGroupCoordinator) SetTopics(topics []TopicMetadata) {
	c.topics = make(map[string]TopicMetadata, len(topics))
	for _, t := range topics {
		c.topics[t.Topic] = t
	}
}

// Step handles one request from address from at the current time (the
// last Tick): a [ConsumerGroupHeartbeat], or an [OffsetCommit] or
// [OffsetFetch] of a group this coordinator hosts. The answer is in
// [ConsumerGroupCoordinator.Ready] at once (a commit's after its offsets
// in Ready.Commits). It returns an error only for a request type it does
// not serve.
func (c *ConsumerGroupCoordinator) Step(from string, req Request) error {
	switch r := req.(type) {
	case ConsumerGroupHeartbeat:
		before := imageOf(c.groups[r.GroupID])
		resp := c.heartbeat(r)
		c.persist(r.GroupID, before)
		c.respond(from, resp)
	case OffsetCommit:
		c.commit(from, r)
	case OffsetFetch:
		c.fetchOffsets(from, r)
	default:
		return fmt.Errorf("consumer group coordinator, step from %q: %T: %w", from, req, ErrUnknownRequest)
	}
	return nil
}

// Tick moves the clock to nowMs (never back) and fires what is due, in
// deadline order (group, then member id, on a tie): a member whose session
// expired, or that did not revoke within its rebalance timeout at the
// epoch it was asked to leave, is fenced: removed, and the group epoch
// bumped.
func (c *ConsumerGroupCoordinator) Tick(nowMs int64) {
	c.nowMs = max(c.nowMs, nowMs)
	type due struct {
		at            int64
		group, member string
	}
	var fire []due
	for _, gid := range slices.Sorted(maps.Keys(c.groups)) {
		g := c.groups[gid]
		if g.dead {
			delete(c.groups, gid)
			continue
		}
		for _, mid := range g.sortedMemberIDs() {
			t := g.timers[mid]
			if t.sessionMs <= c.nowMs {
				fire = append(fire, due{t.sessionMs, gid, mid})
			} else if t.rebalanceMs != 0 && t.rebalanceMs <= c.nowMs && g.members[mid].epoch == t.rebalanceEpoch {
				fire = append(fire, due{t.rebalanceMs, gid, mid})
			}
		}
	}
	slices.SortStableFunc(fire, func(a, b due) int { return cmp.Compare(a.at, b.at) })
	for _, d := range fire {
		if g := c.groups[d.group]; g != nil && g.members[d.member] != nil {
			before := imageOf(g)
			c.fence(g, d.member)
			c.persist(d.group, before)
		}
	}
}

// HasGroups reports whether the coordinator holds any group (its callers
// skip the work of an idle one, such as telling it the topics each tick).
func (c *ConsumerGroupCoordinator) HasGroups() bool { return len(c.groups) > 0 }

// NowMs returns the coordinator's clock.
func (c *ConsumerGroupCoordinator) NowMs() int64 { return c.nowMs }

// HasReady reports whether Ready has anything to hand out.
func (c *ConsumerGroupCoordinator) HasReady() bool {
	return len(c.ready.Commits) > 0 || len(c.ready.Responses) > 0 || len(c.ready.ConsumerGroups) > 0
}

// Ready returns the output accumulated since the last call and clears it.
func (c *ConsumerGroupCoordinator) Ready() Ready {
	rd := c.ready
	c.ready = Ready{}
	return rd
}

// Hosts reports whether the coordinator has a group id (that is not
// deleted), and whether it has no members.
func (c *ConsumerGroupCoordinator) Hosts(id string) (ok, empty bool) {
	g := c.groups[id]
	if g == nil || g.dead {
		return false, false
	}
	return true, len(g.members) == 0
}

// ForgetEmptyGroup drops an Empty group, its committed offsets kept: the
// classic protocol takes the id over (GroupMetadataManager's
// classicGroupJoinToClassicGroup replaces an empty consumer group). It
// reports whether it dropped one.
func (c *ConsumerGroupCoordinator) ForgetEmptyGroup(id string) bool {
	if ok, empty := c.Hosts(id); !ok || !empty {
		return false
	}
	before := imageOf(c.groups[id])
	delete(c.groups, id)
	c.persist(id, before) // its tombstones (maybeDeleteEmptyConsumerGroup)
	return true
}

// DeleteGroup deletes an Empty group (DeleteGroups): it becomes Dead and
// tombstones for its committed offsets appear in Ready. It answers
// GROUP_ID_NOT_FOUND for a group it does not host and NON_EMPTY_GROUP for
// one with members (ConsumerGroup.validateDeleteGroup).
func (c *ConsumerGroupCoordinator) DeleteGroup(id string) ErrorCode {
	ok, empty := c.Hosts(id)
	switch {
	case !ok:
		return GroupIDNotFound
	case !empty:
		return NonEmptyGroup
	}
	before := imageOf(c.groups[id])
	c.groups[id].dead = true
	c.persist(id, before)
	for _, tp := range c.store.CommittedPartitions(id) {
		c.ready.Commits = append(c.ready.Commits, OffsetCommitRecord{
			Group: id, PartitionOffset: PartitionOffset{TopicPartition: tp}, CommitTimestampMs: c.nowMs, Tombstone: true,
		})
	}
	return None
}

func (c *ConsumerGroupCoordinator) respond(to string, r Response) {
	c.ready.Responses = append(c.ready.Responses, Outgoing{To: to, Response: r})
}
