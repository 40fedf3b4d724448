package cluster

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/replica"
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
	// start of the next poll (after a busy spell, [World.StallConsumer]).
	// The application keeps those offsets even if its partitions were lost
	// meanwhile, so the commit then fails (CommitFailedException).
	CommitSync = "sync"
	// CommitOff never commits.
	CommitOff = "off"
)

// groupClient is the group side of a consumer: its [group.Member], its
// fetch positions and what it processed.
type groupClient struct {
	member *group.Member
	// inc is the consumer process's incarnation (restarts).
	inc int
	// positions are the fetch positions of the partitions it may fetch and
	// whose start it knows; waiting are assigned partitions whose committed
	// offset it asked for.
	positions map[partitionKey]int64
	waiting   map[partitionKey]bool
	// processed counts records handed to the application; duplicates those
	// of them the group had processed before (at-least-once redelivery).
	processed, duplicates int
	// done are the offsets processed and not yet committed (CommitSync).
	done         map[partitionKey]int64
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
	resetPending map[partitionKey]bool
	// down is set after a crash or a close: the process does nothing.
	// closing is set from close() until the member left (its revocation
	// commit answered, or timed out).
	down, closed, closing bool
	// stalledUntil: the application is busy (no poll()) until then; the
	// heartbeat thread goes on.
	stalledUntil int64
}

func (c ConsumerConfig) isGroup() bool { return c.Group != "" }

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
	if len(c.Assignors) == 0 {
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
			return group.MemberConfig{}, fmt.Errorf("%w: consumer %q: assignor %q", ErrInvalidConfig, c.Name, name)
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

// validateGroupConsumer checks a group consumer's settings.
func (w *World) validateGroupConsumer(c ConsumerConfig) error {
	c = groupDefaults(c)
	if c.Name == "" || w.consumer(c.Name) != nil || len(c.Topics) == 0 {
		return fmt.Errorf("%w: consumer %q of group %q: name empty or taken, or no topics", ErrInvalidConfig, c.Name, c.Group)
	}
	for _, t := range c.Topics {
		if w.topic(t) == nil || t == OffsetsTopic {
			return fmt.Errorf("%w: consumer %q: no topic %q", ErrInvalidConfig, c.Name, t)
		}
	}
	if c.AutoOffsetReset != "latest" && c.AutoOffsetReset != "earliest" && c.AutoOffsetReset != "none" {
		return fmt.Errorf("%w: consumer %q: auto.offset.reset %q", ErrInvalidConfig, c.Name, c.AutoOffsetReset)
	}
	if c.CommitMode != CommitAuto && c.CommitMode != CommitSync && c.CommitMode != CommitOff {
		return fmt.Errorf("%w: consumer %q: commit mode %q", ErrInvalidConfig, c.Name, c.CommitMode)
	}
	_, err := c.memberConfig()
	return err
}

// addGroupConsumer adds a consumer that joins its group at its first poll.
func (w *World) addGroupConsumer(cfg ConsumerConfig) error {
	if err := w.validateGroupConsumer(cfg); err != nil {
		return err
	}
	cfg = groupDefaults(cfg)
	if err := w.ensureOffsetsTopic(); err != nil {
		return err
	}
	c := &Consumer{cfg: cfg, nextPoll: w.now}
	if err := w.startGroupClient(c); err != nil {
		return err
	}
	w.consumers = append(w.consumers, c)
	return nil
}

// startGroupClient starts (or restarts) the consumer process: a new member
// with no partitions; a static member keeps its group.instance.id.
func (w *World) startGroupClient(c *Consumer) error {
	mc, err := c.cfg.memberConfig()
	if err != nil {
		return err
	}
	mc.Assignors = w.partAssignors(mc.Assignors)
	m, err := group.NewMember(mc, w.now)
	if err != nil {
		return err
	}
	m.SetMetadata(w.topicMetadata())
	inc := 1
	processed, dups := 0, 0
	if c.grp != nil {
		inc, processed, dups = c.grp.inc+1, c.grp.processed, c.grp.duplicates
	}
	c.grp = &groupClient{member: m, inc: inc, positions: map[partitionKey]int64{}, waiting: map[partitionKey]bool{},
		processed: processed, duplicates: dups, nextCommitMs: w.now + c.cfg.AutoCommitIntervalMs}
	c.nextPoll = w.now
	return nil
}

// topicMetadata is the partition count of every topic, as a metadata
// response gives it.
func (w *World) topicMetadata() []group.TopicMetadata {
	var out []group.TopicMetadata
	for _, t := range w.ctl.Topics() {
		out = append(out, group.TopicMetadata{Topic: t.Name, Partitions: int32(len(t.Assignment))})
	}
	return out
}

// refreshGroupMetadata tells every group member the partition counts (a
// metadata refresh; instant in the simulation).
func (w *World) refreshGroupMetadata() {
	md := w.topicMetadata()
	for _, c := range w.consumers {
		if c.grp != nil && !c.grp.down {
			c.grp.member.SetMetadata(md)
		}
	}
}

// tickGroupConsumer runs the heartbeat thread every tick and poll() at the
// consumer's rate unless the application is busy.
func (w *World) tickGroupConsumer(c *Consumer) {
	g := c.grp
	if g.down {
		return
	}
	w.healedConnections(c)
	w.flushOutbox(c)
	g.member.Tick(w.now)
	w.handleMember(c)
	if g.closing {
		return
	}
	if w.now >= c.nextPoll && w.now >= g.stalledUntil {
		c.nextPoll = w.now + c.cfg.PollIntervalMs
		w.groupPoll(c)
	}
}

// groupPoll is one KafkaConsumer.poll(): auto-commit if due, the group
// protocol's work (rejoin, revoke), then fetch up to max.poll.records from
// the partitions it may fetch, and (commit mode sync) commit them.
func (w *World) groupPoll(c *Consumer) {
	g := c.grp
	if c.cfg.CommitMode == CommitAuto && w.now >= g.nextCommitMs {
		g.nextCommitMs = w.now + c.cfg.AutoCommitIntervalMs
		w.commitPositions(c, g.member.Fetchable())
	}
	if c.cfg.CommitMode == CommitSync && len(g.done) > 0 {
		w.commitDone(c)
	}
	g.member.Poll(w.now)
	w.handleMember(c)
	w.refetchCommitted(c)
	w.retryResets(c)
	w.fetchRecords(c)
}

// retryResets applies auto.offset.reset again to the owned partitions
// whose reset found no leader earlier.
func (w *World) retryResets(c *Consumer) {
	g := c.grp
	if len(g.resetPending) == 0 {
		return
	}
	owned := map[partitionKey]bool{}
	for _, tp := range g.member.Owned() {
		owned[partitionKey(tp)] = true
	}
	for _, tp := range slices.SortedFunc(maps.Keys(g.resetPending), metadata.ComparePartitions) {
		if !owned[tp] {
			delete(g.resetPending, tp)
			continue
		}
		if pos, ok := w.resetOffset(c, tp); ok {
			delete(g.resetPending, tp)
			g.positions[tp] = pos
			w.record(EventGroup, 0, &tp, "%s: no committed offset, auto.offset.reset=%s: starts at %d", c.cfg.Name, c.cfg.AutoOffsetReset, pos)
		}
	}
}

// refetchCommitted asks again for the committed offsets of the assigned
// partitions still waiting for them, when the request failed or timed out
// (request.timeout.ms): the consumer's refreshCommittedOffsetsIfNeeded
// retries at each poll until it has them.
func (w *World) refetchCommitted(c *Consumer) {
	g := c.grp
	if len(g.waiting) == 0 || !g.refetch && w.now-g.fetchSentMs < DefaultRequestTimeoutMs {
		return
	}
	var tps []group.TopicPartition
	for tp := range g.waiting {
		tps = append(tps, group.TopicPartition(tp))
	}
	tps = group.SortedPartitions(tps)
	g.refetch, g.fetchSentMs = false, w.now
	g.member.FetchCommitted(tps)
	w.handleMember(c)
}

// commitDone is commitSync() of the processed offsets.
func (w *World) commitDone(c *Consumer) {
	g := c.grp
	keys := make([]partitionKey, 0, len(g.done))
	for tp := range g.done {
		keys = append(keys, tp)
	}
	slices.SortFunc(keys, metadata.ComparePartitions)
	offsets := make([]group.PartitionOffset, len(keys))
	for i, tp := range keys {
		offsets[i] = group.PartitionOffset{TopicPartition: group.TopicPartition(tp), Offset: g.done[tp], LeaderEpoch: -1}
	}
	g.done = nil
	g.member.Commit(offsets)
	w.handleMember(c)
}

// commitPositions commits the positions of tps that have one.
func (w *World) commitPositions(c *Consumer, tps []group.TopicPartition) {
	offsets := w.positionsOf(c, tps)
	if len(offsets) == 0 {
		return
	}
	c.grp.member.Commit(offsets)
	w.handleMember(c)
}

func (w *World) positionsOf(c *Consumer, tps []group.TopicPartition) []group.PartitionOffset {
	var out []group.PartitionOffset
	for _, tp := range tps {
		if w.topic(tp.Topic) == nil {
			continue // deleted: a broker answers UNKNOWN_TOPIC_OR_PARTITION (KafkaApis.handleOffsetCommitRequest)
		}
		if pos, ok := c.grp.positions[partitionKey(tp)]; ok {
			out = append(out, group.PartitionOffset{TopicPartition: tp, Offset: pos, LeaderEpoch: -1})
		}
	}
	return out
}

// handleMember acts on the member's Ready until it has nothing more, in the
// order the group package asks: requests, lost, revoke (commit first),
// assigned (fetch committed offsets), fetched offsets, errors.
func (w *World) handleMember(c *Consumer) {
	g := c.grp
	for i := 0; g.member.HasReady() && i < 16; i++ {
		rd := g.member.Ready()
		for _, r := range rd.Requests {
			w.sendGroupRequest(c, r)
		}
		for _, tp := range rd.Lost {
			delete(g.positions, partitionKey(tp))
			delete(g.waiting, partitionKey(tp))
		}
		if len(rd.Lost) > 0 {
			w.record(EventGroup, 0, nil, "%s lost %s (no commit possible)", c.cfg.Name, group.FormatPartitions(rd.Lost))
		}
		if len(rd.Revoke) > 0 {
			w.revoke(c, rd.Revoke)
		}
		if len(rd.Assigned) > 0 {
			for _, tp := range rd.Assigned {
				g.waiting[partitionKey(tp)] = true
			}
			g.fetchSentMs = w.now
			g.member.FetchCommitted(rd.Assigned)
		}
		for _, po := range rd.Fetched {
			w.startFetching(c, po)
		}
		for _, err := range rd.Errors {
			w.record(EventGroup, 0, nil, "%s: %v", c.cfg.Name, err)
		}
	}
	w.closedWhenLeft(c)
}

// revoke is onPartitionsRevoked: stop fetching, commit the positions
// (unless commits are off), give the partitions up.
func (w *World) revoke(c *Consumer, tps []group.TopicPartition) {
	g := c.grp
	var commits []group.PartitionOffset
	if c.cfg.CommitMode != CommitOff {
		commits = w.positionsOf(c, tps)
	}
	for _, tp := range tps {
		delete(g.positions, partitionKey(tp))
		delete(g.waiting, partitionKey(tp))
		delete(g.done, partitionKey(tp))
	}
	w.record(EventGroup, 0, nil, "%s revokes %s, commits %s", c.cfg.Name, group.FormatPartitions(tps), formatOffsets(commits))
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
func (w *World) startFetching(c *Consumer, po group.PartitionOffset) {
	g := c.grp
	tp := partitionKey(po.TopicPartition)
	if !g.waiting[tp] {
		return
	}
	delete(g.waiting, tp)
	if po.Offset >= 0 {
		g.positions[tp] = po.Offset
		w.record(EventGroup, 0, &tp, "%s starts at committed offset %d", c.cfg.Name, po.Offset)
		return
	}
	pos, ok := w.resetOffset(c, tp)
	if !ok {
		if c.cfg.AutoOffsetReset != "none" {
			if g.resetPending == nil {
				g.resetPending = map[partitionKey]bool{}
			}
			g.resetPending[tp] = true
		}
		return
	}
	g.positions[tp] = pos
	w.record(EventGroup, 0, &tp, "%s: no committed offset, auto.offset.reset=%s: starts at %d", c.cfg.Name, c.cfg.AutoOffsetReset, pos)
}

// resetOffset applies auto.offset.reset against the partition's leader:
// latest = HW, earliest = log start; none (or no leader) gives no position.
func (w *World) resetOffset(c *Consumer, tp partitionKey) (int64, bool) {
	s := w.leaderSlot(tp)
	if s == nil || c.cfg.AutoOffsetReset == "none" {
		return 0, false
	}
	if c.cfg.AutoOffsetReset == "earliest" {
		return s.Log.LogStartOffset(), true
	}
	return s.Node.Status().HighWatermark, true
}

// leaderSlot returns the running leader replica of tp, or nil.
func (w *World) leaderSlot(tp partitionKey) *broker.Partition {
	leader := w.PartitionLeader(tp.Topic, tp.Partition)
	if leader == replica.NoLeader || w.net.Cut(leader, netsim.ConsumerNode) {
		return nil
	}
	b := w.brokers[leader-1]
	s := b.Partition(tp)
	if b.State() != BrokerRunning || s == nil || s.Node.Status().Role != replica.RoleLeader {
		return nil
	}
	return s
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
func (w *World) sendGroupRequest(c *Consumer, r group.Request) {
	g := c.grp
	switch r.(type) {
	case group.Heartbeat:
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
	w.flushOutbox(c)
}

// flushOutbox sends the held requests to the coordinator as the consumer
// finds it now (FindCoordinator); with none it keeps them for the next
// tick.
func (w *World) flushOutbox(c *Consumer) {
	g := c.grp
	if len(g.outbox) == 0 {
		return
	}
	b := w.coordinatorOf(c.cfg.Group)
	if b == nil {
		if !g.noCoordinator {
			w.record(EventGroup, 0, nil, "%s: FindCoordinator(%s): COORDINATOR_NOT_AVAILABLE, retrying", c.cfg.Name, c.cfg.Group)
		}
		g.noCoordinator = true
		return
	}
	g.noCoordinator = false
	for _, r := range g.outbox {
		w.send(netsim.Envelope{From: netsim.ConsumerNode, To: b.ID(), Kind: netsim.KindGroupRequest, Client: c.cfg.Name, ClientInc: g.inc, GroupReq: r})
	}
	g.outbox = g.outbox[:0]
}

// deliverToConsumer hands a coordinator's answer to the consumer it is for.
func (w *World) deliverToConsumer(e *netsim.Envelope) {
	c := w.consumer(e.Client)
	if c == nil || c.grp == nil || c.grp.down || c.grp.inc != e.ClientInc {
		return
	}
	if err := c.grp.member.Step(e.GroupResp); err != nil {
		w.record(EventGroup, 0, nil, "%s: %v", c.cfg.Name, err)
		return
	}
	w.handleMember(c)
}

// validateGroupAction checks close/crash/restart/stall of a group consumer.
func (w *World) validateGroupAction(a Action) error {
	c := w.consumer(a.Name)
	switch {
	case c == nil || c.grp == nil:
		return fmt.Errorf("%w: %s: no group consumer %q", ErrInvalidConfig, a.Kind, a.Name)
	case a.Kind == ActRestartConsumer && !c.grp.down:
		return fmt.Errorf("%w: restart-consumer: %q is running", ErrInvalidConfig, a.Name)
	case a.Kind != ActRestartConsumer && c.grp.down:
		return fmt.Errorf("%w: %s: %q is not running", ErrInvalidConfig, a.Kind, a.Name)
	case a.Ms < 0:
		return fmt.Errorf("%w: %s: negative time", ErrInvalidConfig, a.Kind)
	}
	return nil
}

// consumerString prints a group consumer's add-consumer action.
func consumerString(c ConsumerConfig) string {
	s := fmt.Sprintf("add-consumer %s group=%s topics=%s assignors=%s", c.Name, c.Group, strings.Join(c.Topics, ","), strings.Join(c.Assignors, ","))
	if c.GroupInstanceID != "" {
		s += " instance=" + c.GroupInstanceID
	}
	if c.CommitMode != "" {
		s += " commit=" + c.CommitMode
	}
	return s
}
