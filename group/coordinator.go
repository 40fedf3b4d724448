package group

import (
	"fmt"
	"slices"
)

// Config holds the coordinator's broker-side group settings, named after
// Kafka's broker config keys.
type Config struct {
	// GroupMinSessionTimeoutMs is group.min.session.timeout.ms (6000).
	GroupMinSessionTimeoutMs int32
	// GroupMaxSessionTimeoutMs is group.max.session.timeout.ms (1800000).
	GroupMaxSessionTimeoutMs int32
	// GroupInitialRebalanceDelayMs is group.initial.rebalance.delay.ms (3000):
	// how long the first rebalance of an Empty group waits for more members.
	GroupInitialRebalanceDelayMs int32
	// GroupMaxSize is group.max.size; 0 means no limit (Kafka's default is
	// Integer.MAX_VALUE).
	GroupMaxSize int
	// MemberIDSeed, when non-zero, makes member ids as Kafka does: the
	// client.id (a static member's group.instance.id), "-", and a random
	// UUID (GroupMetadata.generateMemberId, java.util.UUID.randomUUID),
	// the UUIDs drawn from a stream this seeds, so that the same seed gives
	// the same ids. Zero numbers them per group instead (client.id-1,
	// client.id-2, ...), which reads better in tests.
	MemberIDSeed uint64
}

// DefaultConfig returns Kafka's defaults.
func DefaultConfig() Config {
	return Config{
		GroupMinSessionTimeoutMs:     6000,
		GroupMaxSessionTimeoutMs:     1800000,
		GroupInitialRebalanceDelayMs: 3000,
	}
}

func (c Config) validate() error {
	if c.GroupMinSessionTimeoutMs < 0 || c.GroupMaxSessionTimeoutMs < c.GroupMinSessionTimeoutMs ||
		c.GroupInitialRebalanceDelayMs < 0 || c.GroupMaxSize < 0 {
		return fmt.Errorf("coordinator config %+v: %w", c, ErrInvalidConfig)
	}
	return nil
}

// Outgoing is a response and the address it goes to (the From given to Step).
type Outgoing struct {
	// To is the address the request came from.
	To string
	// Response is the answer.
	Response Response
}

// Ready is the coordinator's output since the last call to Ready.
type Ready struct {
	// Commits are offset records to persist (append to __consumer_offsets /
	// write to the OffsetStore), in order, before Responses are delivered:
	// an OffsetCommit answer promises its offsets are stored.
	Commits []OffsetCommitRecord
	// Groups are group metadata records to append to each group's
	// __consumer_offsets partition, in order, one batch each, acks=all, as
	// Kafka's GroupMetadataManager.storeGroup does; report how each append
	// ended with [Coordinator.GroupStored]. A leader's SyncGroup (and a
	// static member's rejoin under a new id) is answered only then.
	Groups []GroupRecord
	// ConsumerGroups are the records of consumer-protocol groups' changes
	// (KIP-848), to append to each group's __consumer_offsets partition
	// with the Commits, before the Responses are delivered: a heartbeat's
	// answer promises its changes are stored, as Kafka 4's coordinator
	// answers once its records are committed.
	ConsumerGroups []ConsumerGroupRecord
	// Responses are answers to deliver, in order.
	Responses []Outgoing
}

// Coordinator is the group coordinator of one broker: a pure state machine
// over the classic groups it hosts. It is not safe for concurrent use. See the
// package documentation for what the caller must do.
type Coordinator struct {
	cfg    Config
	store  OffsetReader
	nowMs  int64
	groups map[string]*classicGroup
	ready  Ready
	// touched are the groups a request or a deletion may have changed
	// since the last Tick; soonestMs is at or before every other group's
	// next deadline (classicGroup.dueMs): what a Tick looks at (tick.go).
	touched   map[string]bool
	soonestMs int64
	// tickEveryGroup makes every Tick look at every group (tests check
	// that it changes nothing).
	tickEveryGroup bool
	// nextStoreID numbers the group records emitted; stores holds what
	// waits for their appends (store.go).
	nextStoreID int64
	stores      map[int64]storeWait
	// incarnations counts the groups made (classicGroup.incarnation).
	incarnations int64
	// memberIDs is the state of the stream member ids' UUIDs come from
	// (Config.MemberIDSeed; memberid.go).
	memberIDs uint64
}

// NewCoordinator returns a coordinator whose clock starts at nowMs and that
// reads committed offsets from store.
func NewCoordinator(cfg Config, store OffsetReader, nowMs int64) (*Coordinator, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if store == nil {
		return nil, fmt.Errorf("coordinator without an offset store: %w", ErrInvalidConfig)
	}
	return &Coordinator{cfg: cfg, store: store, nowMs: nowMs, groups: map[string]*classicGroup{}, memberIDs: cfg.MemberIDSeed}, nil
}

// Step handles one request that arrived from address from at the current
// time (the last Tick). Answers appear in [Coordinator.Ready], some at once,
// some (JoinGroup, SyncGroup) only when the rebalance gets there. It returns
// an error only for a request type it does not know.
func (c *Coordinator) Step(from string, req Request) error {
	if req == nil {
		return fmt.Errorf("step from %q: nil request: %w", from, ErrUnknownRequest)
	}
	if req.Group() == "" {
		c.respond(from, invalidGroupResponse(req))
		return nil
	}
	c.touch(req.Group())
	switch r := req.(type) {
	case JoinGroup:
		c.join(from, r)
	case SyncGroup:
		c.sync(from, r)
	case Heartbeat:
		c.heartbeat(from, r)
	case LeaveGroup:
		c.leave(from, r)
	case OffsetCommit:
		c.commit(from, r)
	case OffsetFetch:
		c.fetchOffsets(from, r)
	default:
		return fmt.Errorf("step from %q, group %q: %T: %w", from, req.Group(), req, ErrUnknownRequest)
	}
	return nil
}

func invalidGroupResponse(req Request) Response {
	switch req := req.(type) {
	case JoinGroup:
		return JoinGroupResponse{Error: InvalidGroupID}
	case SyncGroup:
		return SyncGroupResponse{Error: InvalidGroupID}
	case Heartbeat:
		return HeartbeatResponse{Error: InvalidGroupID}
	case LeaveGroup:
		return LeaveGroupResponse{Error: InvalidGroupID}
	case OffsetCommit:
		return OffsetCommitResponse{Error: InvalidGroupID, Offsets: req.Offsets, Seq: req.Seq}
	default:
		return OffsetFetchResponse{Error: InvalidGroupID}
	}
}

// NowMs returns the coordinator's clock.
func (c *Coordinator) NowMs() int64 { return c.nowMs }

// HasReady reports whether Ready has anything to hand out.
func (c *Coordinator) HasReady() bool {
	return len(c.ready.Commits) > 0 || len(c.ready.Groups) > 0 || len(c.ready.Responses) > 0
}

// Ready returns the output accumulated since the last call and clears it.
func (c *Coordinator) Ready() Ready {
	rd := c.ready
	c.ready = Ready{}
	return rd
}

// DeleteGroup deletes an Empty group (DeleteGroups API): it becomes Dead and
// tombstones for its committed offsets and for its metadata appear in
// Ready (GroupMetadataManager.cleanupGroupMetadata). It answers
// GROUP_ID_NOT_FOUND (69) for an unknown group and for one already Dead
// (GroupMetadataManager.groupNotExists), and NON_EMPTY_GROUP (68) for one
// with members (Kafka 3.7's GroupCoordinator.handleDeleteGroups).
func (c *Coordinator) DeleteGroup(id string) ErrorCode {
	if code := c.CanDeleteGroup(id); code != None {
		return code
	}
	g, ok := c.groups[id]
	if !ok {
		g = c.newGroup(id)
	}
	c.touch(id)
	c.transition(g, Dead)
	for _, tp := range c.store.CommittedPartitions(id) {
		c.ready.Commits = append(c.ready.Commits, OffsetCommitRecord{
			Group: id, PartitionOffset: PartitionOffset{TopicPartition: tp}, CommitTimestampMs: c.nowMs, Tombstone: true,
		})
	}
	c.storeTombstone(id)
	return None
}

// ForgetEmptyGroup drops an Empty group, its committed offsets kept: the
// consumer protocol (KIP-848) takes the id over (Kafka 4's
// GroupMetadataManager deletes an empty classic group when a
// ConsumerGroupHeartbeat joins it). It reports whether it dropped one.
func (c *Coordinator) ForgetEmptyGroup(id string) bool {
	g, ok := c.groups[id]
	if !ok || g.state != Empty {
		return false
	}
	delete(c.groups, id)
	// Its metadata record gets a tombstone, so that a coordinator that
	// takes the groups over does not load it back (Kafka 4's
	// GroupMetadataManager.maybeDeleteEmptyClassicGroup).
	c.storeTombstone(id)
	return true
}

// CanDeleteGroup answers as DeleteGroup would, and deletes nothing.
func (c *Coordinator) CanDeleteGroup(id string) ErrorCode {
	g, ok := c.groups[id]
	switch {
	case ok && g.state == Dead, !ok && len(c.store.CommittedPartitions(id)) == 0:
		return GroupIDNotFound
	case ok && g.state != Empty:
		return NonEmptyGroup
	}
	return None
}

func (c *Coordinator) respond(to string, r Response) {
	c.ready.Responses = append(c.ready.Responses, Outgoing{To: to, Response: r})
}

func (c *Coordinator) newGroup(id string) *classicGroup {
	c.incarnations++
	g := &classicGroup{id: id, incarnation: c.incarnations, state: Empty, stateSinceMs: c.nowMs, members: map[string]*member{}, pending: map[string]int64{}, static: map[string]string{},
		emptySinceMs: c.nowMs}
	c.groups[id] = g
	return g
}

// transition moves g to state s now (GroupMetadata.transitionTo, which
// stamps currentStateTimestamp).
func (c *Coordinator) transition(g *classicGroup, s State) {
	g.state, g.stateSinceMs = s, c.nowMs
}

func sortedGroupIDs(m map[string]*classicGroup) []string {
	out := make([]string, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}
