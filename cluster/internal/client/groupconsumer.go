package client

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// Group consumer defaults (Kafka's consumer configs).
const (
	DefaultGroupPollIntervalMs  = 100  // how often a group consumer calls poll() in the simulation
	DefaultAutoCommitIntervalMs = 5000 // auto.commit.interval.ms
	DefaultMaxPollRecords       = 500  // max.poll.records
	DefaultAutoOffsetReset      = "latest"
)

// Commit modes of a group consumer ([ConsumerConfig.CommitMode]).
const (
	// CommitAuto is enable.auto.commit=true: inside poll(), every
	// auto.commit.interval.ms, commit the positions (everything earlier polls
	// returned counts as processed); also before revoking and on close.
	CommitAuto = "auto"
	// CommitSync is enable.auto.commit=false with commitSync() of the
	// processed offsets once a poll's records are processed, that is at the
	// start of the next poll (after a busy spell, [Consumer.Stall]).
	// The application keeps those offsets even if its partitions were lost
	// meanwhile, so the commit then fails (CommitFailedException).
	CommitSync = "sync"
	// CommitOff never commits.
	CommitOff = "off"
)

// topicPartition names a partition (group.TopicPartition converts to it).
type topicPartition = kafkalog.TopicPartition

// groupClient is the group side of a consumer: its [group.Member], its
// fetch positions and what it processed.
type groupClient struct {
	member groupMember
	// inc is the consumer process's incarnation (restarts).
	inc int
	// notes is where the member's part assignor records what it decided
	// (nil without [Settings.CooperativeSticky]), and assignors the
	// member's assignors then, the part's among them.
	notes     *assignNotes
	assignors []group.Assignor
	// positions are the fetch positions of the partitions it may fetch and
	// whose start it knows; waiting are assigned partitions whose committed
	// offset it asked for.
	positions map[topicPartition]int64
	waiting   map[topicPartition]bool
	// servedAt numbers, by partition, the last poll that handed out its
	// records (serves counts them): a poll reads the partitions served
	// longest ago first, as Kafka's consumer moves a partition to the end
	// of its fetch order once its records are drained (groupfetch.go).
	servedAt map[topicPartition]int64
	serves   int64
	// processed counts records handed to the application; duplicates those
	// of them the group had processed before (at-least-once redelivery).
	processed, duplicates int
	// done are the offsets processed and not yet committed (CommitSync).
	done         map[topicPartition]int64
	nextCommitMs int64
	// outbox holds requests while no coordinator is known (the client
	// retries FindCoordinator every retry.backoff.ms and keeps its
	// requests in order); noCoordinator remembers that it said so.
	outbox        []group.Request
	noCoordinator bool
	// fetchSentMs is when the committed offsets of the waiting partitions
	// were last asked for; refetch is set when that request failed (the
	// consumer asks again at its next poll, or after request.timeout.ms).
	fetchSentMs int64
	refetch     bool
	// severed are requests lost on a cut link, failed once it heals
	// (groupconn.go).
	severed []severedRequest
	// resetPending are owned partitions without a committed offset whose
	// auto.offset.reset found no leader to ask: the consumer asks again at
	// each poll (the position stays unset until ListOffsets succeeds).
	resetPending map[topicPartition]bool
	// down is set after a crash or a close: the process does nothing.
	// closing is set from close() until the member left (its revocation
	// commit answered, or timed out).
	down, closed, closing bool
	// stalledUntil: the application is busy (no poll()) until then; the
	// heartbeat thread goes on.
	stalledUntil int64
}

// groupDefaults fills a group consumer's zero fields with Kafka's defaults.
func groupDefaults(c ConsumerConfig) ConsumerConfig {
	def := func(v *int64, d int64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.PollIntervalMs, DefaultGroupPollIntervalMs)
	def(&c.AutoCommitIntervalMs, DefaultAutoCommitIntervalMs)
	if c.MaxPollRecords == 0 {
		c.MaxPollRecords = DefaultMaxPollRecords
	}
	if c.AutoOffsetReset == "" {
		c.AutoOffsetReset = DefaultAutoOffsetReset
	}
	if c.CommitMode == "" {
		c.CommitMode = CommitAuto
	}
	if c.GroupProtocol == "" {
		c.GroupProtocol = ProtocolClassic
	}
	if len(c.Assignors) == 0 && c.GroupProtocol == ProtocolClassic {
		c.Assignors = []string{"range", "cooperative-sticky"} // Kafka 3.0+ default
	}
	return c
}

// memberConfig builds the member's group settings.
func (c ConsumerConfig) memberConfig() (group.MemberConfig, error) {
	var as []group.Assignor
	for _, name := range c.Assignors {
		a, ok := group.Assignors()[name]
		if !ok {
			return group.MemberConfig{}, fmt.Errorf("%w: consumer %q: assignor %q", metadata.ErrInvalidConfig, c.Name, name)
		}
		as = append(as, a)
	}
	mc := group.DefaultMemberConfig(c.Group, c.Name, slices.Clone(c.Topics), as...)
	mc.GroupInstanceID = c.GroupInstanceID
	if c.SessionTimeoutMs > 0 {
		mc.SessionTimeoutMs = c.SessionTimeoutMs
	}
	if c.HeartbeatIntervalMs > 0 {
		mc.HeartbeatIntervalMs = c.HeartbeatIntervalMs
	}
	if c.MaxPollIntervalMs > 0 {
		mc.MaxPollIntervalMs = c.MaxPollIntervalMs
	}
	return mc, nil
}

// checkGroupConsumer checks a group consumer's settings.
func checkGroupConsumer(env Env, c ConsumerConfig, taken bool) error {
	c = groupDefaults(c)
	if c.Name == "" || taken || len(c.Topics) == 0 {
		return fmt.Errorf("%w: consumer %q of group %q: name empty or taken, or no topics", metadata.ErrInvalidConfig, c.Name, c.Group)
	}
	for _, t := range c.Topics {
		if _, ok := env.PartitionCount(t); !ok || t == metadata.OffsetsTopic {
			return fmt.Errorf("%w: consumer %q: no topic %q", metadata.ErrInvalidConfig, c.Name, t)
		}
	}
	if c.AutoOffsetReset != "latest" && c.AutoOffsetReset != "earliest" && c.AutoOffsetReset != "none" {
		return fmt.Errorf("%w: consumer %q: auto.offset.reset %q", metadata.ErrInvalidConfig, c.Name, c.AutoOffsetReset)
	}
	if c.CommitMode != CommitAuto && c.CommitMode != CommitSync && c.CommitMode != CommitOff {
		return fmt.Errorf("%w: consumer %q: commit mode %q", metadata.ErrInvalidConfig, c.Name, c.CommitMode)
	}
	return checkGroupProtocol(c)
}

// newGroupConsumer returns a consumer that joins its group at its first
// poll.
func newGroupConsumer(env Env, s Settings, cfg ConsumerConfig) (*Consumer, error) {
	cfg = groupDefaults(cfg)
	if err := env.EnsureOffsetsTopic(); err != nil {
		return nil, err
	}
	c := &Consumer{cfg: cfg, nextPoll: env.Now(), readCommittedPart: s.ReadCommitted}
	if err := c.start(env, s); err != nil {
		return nil, err
	}
	return c, nil
}

// start starts (or restarts) the consumer process: a new member with no
// partitions; a static member keeps its group.instance.id.
func (c *Consumer) start(env Env, s Settings) error {
	var m groupMember
	var notes *assignNotes
	var mc group.MemberConfig
	if c.cfg.GroupProtocol == ProtocolConsumer {
		cm, err := newConsumerProtocolMember(env, c.cfg)
		if err != nil {
			return err
		}
		m = cm
	} else {
		var err error
		if mc, err = c.cfg.memberConfig(); err != nil {
			return err
		}
		if s.CooperativeSticky != nil {
			notes = &assignNotes{}
			mc.Assignors = partAssignors(mc.Assignors, s.CooperativeSticky, notes)
		}
		cm, err := group.NewMember(mc, env.Now())
		if err != nil {
			return err
		}
		m = cm
	}
	m.SetMetadata(topicMetadata(env))
	inc := 1
	processed, dups := 0, 0
	if c.grp != nil {
		inc, processed, dups = c.grp.inc+1, c.grp.processed, c.grp.duplicates
	}
	var assignors []group.Assignor
	if notes != nil {
		assignors = mc.Assignors
	}
	c.grp = &groupClient{member: m, inc: inc, notes: notes, assignors: assignors, positions: map[topicPartition]int64{}, waiting: map[topicPartition]bool{},
		processed: processed, duplicates: dups, nextCommitMs: env.Now() + c.cfg.AutoCommitIntervalMs}
	c.nextPoll = env.Now()
	return nil
}

// topicMetadata is the partition count of every topic, as a metadata
// response gives it.
func topicMetadata(env Env) []group.TopicMetadata {
	var out []group.TopicMetadata
	for _, t := range env.Topics() {
		out = append(out, group.TopicMetadata{Topic: t.Name, Partitions: int32(len(t.Assignment))})
	}
	return out
}

// RefreshMetadata tells a running group member the topics' partition
// counts (a metadata refresh; instant in the simulation).
func (c *Consumer) RefreshMetadata(env Env) {
	if c.grp != nil && !c.grp.down {
		c.grp.member.SetMetadata(topicMetadata(env))
	}
}

// tickGroup runs the heartbeat thread every tick and poll() at the
// consumer's rate unless the application is busy.
func (c *Consumer) tickGroup(env Env) {
	g := c.grp
	if g.down {
		return
	}
	c.healedConnections(env)
	c.flushOutbox(env)
	g.member.Tick(env.Now())
	c.handleMember(env)
	if g.closing {
		return
	}
	if env.Now() >= c.nextPoll && env.Now() >= g.stalledUntil {
		c.nextPoll = env.Now() + c.cfg.PollIntervalMs
		c.groupPoll(env)
	}
}

// groupPoll is one KafkaConsumer.poll(): auto-commit if due, the group
// protocol's work (rejoin, revoke), then fetch up to max.poll.records from
// the partitions it may fetch, and (commit mode sync) commit them.
func (c *Consumer) groupPoll(env Env) {
	g := c.grp
	if c.cfg.CommitMode == CommitAuto && env.Now() >= g.nextCommitMs {
		g.nextCommitMs = env.Now() + c.cfg.AutoCommitIntervalMs
		c.commitPositions(env, g.member.Fetchable())
	}
	if c.cfg.CommitMode == CommitSync && len(g.done) > 0 {
		c.commitDone(env)
	}
	g.member.Poll(env.Now())
	c.handleMember(env)
	c.refetchCommitted(env)
	c.retryResets(env)
	c.fetchRecords(env)
}

// retryResets applies auto.offset.reset again to the owned partitions
// whose reset found no leader earlier.
func (c *Consumer) retryResets(env Env) {
	g := c.grp
	if len(g.resetPending) == 0 {
		return
	}
	owned := map[topicPartition]bool{}
	for _, p := range g.member.Owned() {
		owned[topicPartition(p)] = true
	}
	for _, p := range slices.SortedFunc(maps.Keys(g.resetPending), metadata.ComparePartitions) {
		if !owned[p] {
			delete(g.resetPending, p)
			continue
		}
		if pos, ok := c.resetOffset(env, p); ok {
			delete(g.resetPending, p)
			g.positions[p] = pos
			env.Record(event.Group, 0, &p, "%s: no committed offset, auto.offset.reset=%s: starts at %d", c.cfg.Name, c.cfg.AutoOffsetReset, pos)
		}
	}
}

// refetchCommitted asks again for the committed offsets of the assigned
// partitions still waiting for them, when the request failed or timed out
// (request.timeout.ms): the consumer's refreshCommittedOffsetsIfNeeded
// retries at each poll until it has them.
func (c *Consumer) refetchCommitted(env Env) {
	g := c.grp
	if len(g.waiting) == 0 || !g.refetch && env.Now()-g.fetchSentMs < DefaultRequestTimeoutMs {
		return
	}
	var tps []group.TopicPartition
	for p := range g.waiting {
		tps = append(tps, group.TopicPartition(p))
	}
	tps = group.SortedPartitions(tps)
	g.refetch, g.fetchSentMs = false, env.Now()
	g.member.FetchCommitted(tps)
	c.handleMember(env)
}

// commitDone is commitSync() of the processed offsets.
func (c *Consumer) commitDone(env Env) {
	g := c.grp
	keys := slices.SortedFunc(maps.Keys(g.done), metadata.ComparePartitions)
	offsets := make([]group.PartitionOffset, len(keys))
	for i, p := range keys {
		offsets[i] = group.PartitionOffset{TopicPartition: group.TopicPartition(p), Offset: g.done[p], LeaderEpoch: -1}
	}
	g.done = nil
	g.member.Commit(offsets)
	c.handleMember(env)
}

// commitPositions commits the positions of tps that have one.
func (c *Consumer) commitPositions(env Env, tps []group.TopicPartition) {
	offsets := c.positionsOf(env, tps)
	if len(offsets) == 0 {
		return
	}
	c.grp.member.Commit(offsets)
	c.handleMember(env)
}

func (c *Consumer) positionsOf(env Env, tps []group.TopicPartition) []group.PartitionOffset {
	var out []group.PartitionOffset
	for _, p := range tps {
		if _, ok := env.PartitionCount(p.Topic); !ok {
			continue // deleted: a broker answers UNKNOWN_TOPIC_OR_PARTITION (KafkaApis.handleOffsetCommitRequest)
		}
		if pos, ok := c.grp.positions[topicPartition(p)]; ok {
			out = append(out, group.PartitionOffset{TopicPartition: p, Offset: pos, LeaderEpoch: -1})
		}
	}
	return out
}

// handleMember acts on the member's Ready until it has nothing more, in the
// order the group package asks: requests, lost, revoke (commit first),
// assigned (fetch committed offsets), fetched offsets, errors.
func (c *Consumer) handleMember(env Env) {
	g := c.grp
	for i := 0; g.member.HasReady() && i < 16; i++ {
		rd := g.member.Ready()
		for _, r := range rd.Requests {
			c.sendGroupRequest(env, r)
		}
		for _, p := range rd.Lost {
			delete(g.positions, topicPartition(p))
			delete(g.waiting, topicPartition(p))
		}
		if len(rd.Lost) > 0 {
			env.Record(event.Group, 0, nil, "%s lost %s (no commit possible)", c.cfg.Name, group.FormatPartitions(rd.Lost))
		}
		if len(rd.Revoke) > 0 {
			c.revoke(env, rd.Revoke)
		}
		if len(rd.Assigned) > 0 {
			for _, p := range rd.Assigned {
				g.waiting[topicPartition(p)] = true
			}
			g.fetchSentMs = env.Now()
			g.member.FetchCommitted(rd.Assigned)
		}
		for _, po := range rd.Fetched {
			c.startFetching(env, po)
		}
		for _, err := range rd.Errors {
			env.Record(event.Group, 0, nil, "%s: %v", c.cfg.Name, err)
		}
	}
	c.closedWhenLeft(env)
}

// revoke is onPartitionsRevoked: stop fetching, commit the positions
// (unless commits are off), give the partitions up.
func (c *Consumer) revoke(env Env, tps []group.TopicPartition) {
	g := c.grp
	var commits []group.PartitionOffset
	if c.cfg.CommitMode != CommitOff {
		commits = c.positionsOf(env, tps)
	}
	for _, p := range tps {
		delete(g.positions, topicPartition(p))
		delete(g.waiting, topicPartition(p))
		delete(g.done, topicPartition(p))
	}
	env.Record(event.Group, 0, nil, "%s revokes %s, commits %s", c.cfg.Name, group.FormatPartitions(tps), formatOffsets(commits))
	g.member.Revoked(commits)
}

func formatOffsets(offs []group.PartitionOffset) string {
	if len(offs) == 0 {
		return "nothing"
	}
	parts := make([]string, len(offs))
	for i, o := range offs {
		parts[i] = fmt.Sprintf("%s=%d", o.TopicPartition, o.Offset)
	}
	return strings.Join(parts, " ")
}

// startFetching sets the position of a newly assigned partition: its
// committed offset, or auto.offset.reset when there is none.
func (c *Consumer) startFetching(env Env, po group.PartitionOffset) {
	g := c.grp
	p := topicPartition(po.TopicPartition)
	if !g.waiting[p] {
		return
	}
	delete(g.waiting, p)
	if po.Offset >= 0 {
		g.positions[p] = po.Offset
		env.Record(event.Group, 0, &p, "%s starts at committed offset %d", c.cfg.Name, po.Offset)
		return
	}
	pos, ok := c.resetOffset(env, p)
	if !ok {
		if c.cfg.AutoOffsetReset != "none" {
			if g.resetPending == nil {
				g.resetPending = map[topicPartition]bool{}
			}
			g.resetPending[p] = true
		}
		return
	}
	g.positions[p] = pos
	env.Record(event.Group, 0, &p, "%s: no committed offset, auto.offset.reset=%s: starts at %d", c.cfg.Name, c.cfg.AutoOffsetReset, pos)
}

// resetOffset applies auto.offset.reset against the partition's leader:
// latest = HW, earliest = log start; none (or no leader) gives no position.
func (c *Consumer) resetOffset(env Env, p topicPartition) (int64, bool) {
	l := env.LeaderLog(p)
	if l == nil || c.cfg.AutoOffsetReset == "none" {
		return 0, false
	}
	if c.cfg.AutoOffsetReset == "earliest" {
		return l.LogStartOffset(), true
	}
	return l.HighWatermark(), true
}

// sendGroupRequest sends a request to the group's coordinator, in order
// after any the consumer still holds.
//
// A JoinGroup drops the JoinGroup and SyncGroup still held: the member
// sends one only once it gave up on the last (its answer overdue) or left
// its generation, and Kafka 3.7's client sends no JoinGroup before
// FindCoordinator names a coordinator (AbstractCoordinator.joinGroupIfNeeded
// waits in ensureCoordinatorReady) and has one in flight at most
// (initiateJoinGroup's joinFuture). Sending both when a coordinator
// appears would make a new process two members, each with its own
// MEMBER_ID_REQUIRED answer.
func (c *Consumer) sendGroupRequest(env Env, r group.Request) {
	g := c.grp
	switch r.(type) {
	case group.Heartbeat: // a classic one; a ConsumerGroupHeartbeat is queued: it carries what changed since the last
		if len(g.outbox) > 0 {
			if _, last := g.outbox[len(g.outbox)-1].(group.Heartbeat); last {
				g.outbox[len(g.outbox)-1] = r // a held heartbeat is replaced, not queued
				return
			}
		}
	case group.JoinGroup:
		g.outbox = slices.DeleteFunc(g.outbox, func(h group.Request) bool {
			switch h.(type) {
			case group.JoinGroup, group.SyncGroup:
				return true
			}
			return false
		})
	}
	g.outbox = append(g.outbox, r)
	c.flushOutbox(env)
}

// flushOutbox sends the held requests to the coordinator as the consumer
// finds it now (FindCoordinator); with none it keeps them for the next
// tick.
func (c *Consumer) flushOutbox(env Env) {
	g := c.grp
	if len(g.outbox) == 0 {
		return
	}
	b, ok := env.Coordinator(c.cfg.Group)
	if !ok {
		if !g.noCoordinator {
			env.Record(event.Group, 0, nil, "%s: FindCoordinator(%s): COORDINATOR_NOT_AVAILABLE, retrying", c.cfg.Name, c.cfg.Group)
		}
		g.noCoordinator = true
		return
	}
	g.noCoordinator = false
	for _, r := range g.outbox {
		env.Send(netsim.Envelope{From: netsim.ConsumerNode, To: b, Kind: netsim.KindGroupRequest, Client: c.cfg.Name, ClientInc: g.inc, GroupReq: r})
	}
	g.outbox = g.outbox[:0]
}

// Step hands a coordinator's answer to a group consumer's member.
func (c *Consumer) Step(env Env, e *netsim.Envelope) {
	if c.grp == nil || c.grp.down || c.grp.inc != e.ClientInc {
		return
	}
	if err := c.stepMember(env, e.GroupResp); err != nil {
		env.Record(event.Group, 0, nil, "%s: %v", c.cfg.Name, err)
		return
	}
	c.handleMember(env)
}

// stepMember hands the member an answer; its part assignor, the only one
// that may run then, notes what it decides to env.
func (c *Consumer) stepMember(env Env, r group.Response) error {
	if n := c.grp.notes; n != nil {
		n.rec = env
		defer func() { n.rec = nil }()
	}
	return c.grp.member.Step(r)
}
