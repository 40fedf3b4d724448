package group

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// ErrCommitTimedOut reports in [MemberReady.Errors] a revocation commit
// whose answer did not come within request.timeout.ms: the member stopped
// waiting and rejoined or left (Kafka 3.7 logs "Asynchronous auto-commit of
// offsets failed: joinPrepare timeout. Will continue to join group").
var ErrCommitTimedOut = errors.New("group: commit timed out")

// MemberConfig is a consumer's group settings, named after the consumer
// config keys.
type MemberConfig struct {
	// GroupID is group.id.
	GroupID string
	// ClientID is client.id; the coordinator builds the member id from it.
	ClientID string
	// GroupInstanceID is group.instance.id (KIP-345); "" for a dynamic member.
	GroupInstanceID string
	// Topics are the subscribed topics.
	Topics []string
	// Assignors is partition.assignment.strategy, most preferred first. The
	// member is cooperative only if every one of them is
	// (ConsumerCoordinator picks the protocol all assignors support).
	Assignors []Assignor
	// SessionTimeoutMs is session.timeout.ms (45000; 10000 before 3.0, KIP-735).
	SessionTimeoutMs int32
	// HeartbeatIntervalMs is heartbeat.interval.ms (3000).
	HeartbeatIntervalMs int32
	// MaxPollIntervalMs is max.poll.interval.ms (300000), also sent as the
	// rebalance timeout.
	MaxPollIntervalMs int32
	// RequestTimeoutMs is request.timeout.ms (30000): a SyncGroup unanswered
	// this long is given up and the member rejoins. A JoinGroup waits
	// max(RequestTimeoutMs, MaxPollIntervalMs+5000), as the Java client does.
	// 0 means 30000. It also bounds how long a member waits for the answer
	// to the commit it sent on revocation before it rejoins or leaves
	// ([Member.Revoked]).
	RequestTimeoutMs int32
	// RetryBackoffMs is retry.backoff.ms (100): how long a member waits
	// before sending again a revocation commit refused with a retriable
	// error. 0 means 100.
	RetryBackoffMs int32
}

// DefaultMemberConfig returns Kafka 3.0+ defaults for a member of groupID
// with client id clientID subscribed to topics, using assignors.
func DefaultMemberConfig(groupID, clientID string, topics []string, assignors ...Assignor) MemberConfig {
	return MemberConfig{
		GroupID: groupID, ClientID: clientID, Topics: topics, Assignors: assignors,
		SessionTimeoutMs: 45000, HeartbeatIntervalMs: 3000, MaxPollIntervalMs: 300000,
	}
}

func (c MemberConfig) validate() error {
	if c.GroupID == "" || len(c.Assignors) == 0 || c.SessionTimeoutMs <= 0 || c.HeartbeatIntervalMs <= 0 || c.MaxPollIntervalMs <= 0 {
		return fmt.Errorf("member config of %q in group %q: %w", c.ClientID, c.GroupID, ErrInvalidConfig)
	}
	return nil
}

// MemberState is where a consumer is in the group protocol
// (AbstractCoordinator.MemberState, refined).
type MemberState int8

const (
	// Unjoined: not in the group; the next Poll joins.
	Unjoined MemberState = iota
	// Revoking: waiting for the caller to finish revoking ([Member.Revoked]),
	// then for the answer to the commit it sent with them.
	Revoking
	// Joining: a JoinGroup is in flight.
	Joining
	// Syncing: a SyncGroup is in flight.
	Syncing
	// MemberStable: assignment received; heartbeating.
	MemberStable
	// Left: closed, or fenced by another instance with the same
	// group.instance.id; the member does nothing more.
	Left
)

var memberStateNames = [...]string{"Unjoined", "Revoking", "Joining", "Syncing", "Stable", "Left"}

// String names the state.
func (s MemberState) String() string {
	if int(s) < len(memberStateNames) && s >= 0 {
		return memberStateNames[s]
	}
	return "Unknown"
}

// MemberReady is a member's output since the last call to Ready.
type MemberReady struct {
	// Requests go to the group's coordinator, in order, over one FIFO link.
	Requests []Request
	// Revoke: stop fetching these now; commit their positions and call
	// [Member.Revoked] (onPartitionsRevoked).
	Revoke []TopicPartition
	// Assigned: newly owned; look up their committed offsets and start
	// fetching (onPartitionsAssigned).
	Assigned []TopicPartition
	// Lost: taken away with no chance to commit (onPartitionsLost): the member
	// was removed or fenced, or its generation is stale.
	Lost []TopicPartition
	// Fetched are the committed offsets an OffsetFetch ([Member.FetchCommitted])
	// returned; Offset -1 means none (apply auto.offset.reset).
	Fetched []PartitionOffset
	// Errors are failures the application would see, e.g. a commit refused
	// (CommitFailedException) or FENCED_INSTANCE_ID.
	Errors []error
}

// Member is one consumer's side of the group protocol: what it owns, what it
// must give up, and when it may fetch. It is a pure state machine like
// [Coordinator]; see the package documentation for what the caller must do.
type Member struct {
	cfg        MemberConfig
	protocol   RebalanceProtocol
	state      MemberState
	memberID   string
	generation int32
	leader     string
	owned      []TopicPartition
	// lastAssignment is the last SyncGroup answer in the leader's order
	// (eager sticky's user data: StickyAssignor.onAssignment keeps
	// assignment.partitions() as it came).
	lastAssignment []TopicPartition
	revoking       []TopicPartition
	leaving        bool
	needsRejoin    bool
	metadata       []TopicMetadata
	// assignedWith is, on the leader, the partition counts of the subscribed
	// topics its last assignment used (Kafka's assignmentSnapshot).
	assignedWith map[string]int32
	lastPollMs   int64
	lastBeatMs   int64
	// sentMs is when the JoinGroup or SyncGroup in flight was sent.
	sentMs int64
	nowMs  int64
	// commitsSent numbers the OffsetCommits sent (OffsetCommit.Seq): an
	// answer is the commit's whose number it echoes, as a Kafka client
	// matches an answer to its request by correlation id. (A coordinator
	// that holds a commit's answer until the offsets are stored may answer
	// a later request first.)
	commitsSent int64
	// awaiting is the revocation commit the member waits for before it
	// rejoins or leaves; nil when it waits for none.
	awaiting *awaitedCommit
	ready    MemberReady
}

// awaitedCommit is a commit sent on revocation whose answer the member
// waits for (ConsumerCoordinator.onJoinPrepare's autoCommitOffsetRequestFuture).
type awaitedCommit struct {
	// seq is the number of the attempt in flight (its OffsetCommit.Seq).
	seq     int64
	offsets []PartitionOffset
	// deadlineMs is when the member stops waiting and goes on:
	// request.timeout.ms after the first attempt, never past the rebalance
	// timeout.
	deadlineMs int64
	// retryAtMs is when to send the commit again after a retriable error;
	// 0 while an attempt is in flight.
	retryAtMs int64
}

// NewMember returns an unjoined member whose clock starts at nowMs. It joins
// on its first [Member.Poll].
func NewMember(cfg MemberConfig, nowMs int64) (*Member, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	p := Cooperative
	for _, a := range cfg.Assignors {
		if a.Protocol() != Cooperative {
			p = Eager
		}
	}
	return &Member{cfg: cfg, protocol: p, generation: -1, needsRejoin: true, lastPollMs: nowMs, nowMs: nowMs}, nil
}

// Protocol is the member's rebalance protocol.
func (m *Member) Protocol() RebalanceProtocol { return m.protocol }

// State is the member's protocol state.
func (m *Member) State() MemberState { return m.state }

// MemberID is the coordinator-given id, "" before the first join.
func (m *Member) MemberID() string { return m.memberID }

// Generation is the generation of the current assignment, -1 if none.
func (m *Member) Generation() int32 { return m.generation }

// Owned returns the partitions the member owns, sorted.
func (m *Member) Owned() []TopicPartition { return SortedPartitions(m.owned) }

// Fetchable returns the partitions the member may fetch from now: what it
// owns, minus what it is revoking. An eager member owns nothing from the
// moment it starts rejoining until its SyncGroup answer; a cooperative
// member keeps fetching what it keeps.
func (m *Member) Fetchable() []TopicPartition {
	if m.state == Left {
		return []TopicPartition{}
	}
	return Difference(m.owned, m.revoking)
}

// SetMetadata tells the member the partition counts of its topics; the
// leader needs them to assign. When the leader sees a subscribed topic's
// partition count differ from what its last assignment used (partitions
// added), it rejoins at its next Poll, which rebalances the group.
func (m *Member) SetMetadata(topics []TopicMetadata) {
	m.metadata = slices.Clone(topics)
	if m.assignedWith != nil && m.state == MemberStable && !maps.Equal(m.assignedWith, m.subscribedCounts()) {
		m.needsRejoin = true
	}
}

// subscribedCounts returns the partition counts of the subscribed topics.
func (m *Member) subscribedCounts() map[string]int32 {
	counts := partitionCounts(m.metadata)
	out := map[string]int32{}
	for _, t := range m.cfg.Topics {
		out[t] = counts[t]
	}
	return out
}

// HasReady reports whether Ready has anything to hand out.
func (m *Member) HasReady() bool {
	r := m.ready
	return len(r.Requests)+len(r.Revoke)+len(r.Assigned)+len(r.Lost)+len(r.Fetched)+len(r.Errors) > 0
}

// Ready returns the output accumulated since the last call and clears it.
func (m *Member) Ready() MemberReady {
	r := m.ready
	m.ready = MemberReady{}
	return r
}

func (m *Member) send(r Request) { m.ready.Requests = append(m.ready.Requests, r) }

// Poll records a call to poll() at nowMs. It is where a pending rebalance
// starts: an eager member revokes everything first; a cooperative one
// rejoins keeping its partitions.
func (m *Member) Poll(nowMs int64) {
	m.nowMs = max(m.nowMs, nowMs)
	m.lastPollMs = m.nowMs
	if m.state == Left || m.state == Revoking || m.state == Joining || m.state == Syncing || !m.needsRejoin {
		return
	}
	if m.protocol == Eager && len(m.owned) > 0 {
		m.startRevoke(m.owned)
		return
	}
	m.sendJoin()
}

// startRevoke asks the caller to revoke tps.
func (m *Member) startRevoke(tps []TopicPartition) {
	m.revoking = SortedPartitions(tps)
	m.state = Revoking
	m.ready.Revoke = append(m.ready.Revoke, m.revoking...)
}

// Revoked tells the member the caller finished revoking: commits holds the
// positions to commit for the revoked partitions (none with auto-commit off).
// The member gives the partitions up and commits them; then it goes on: it
// rejoins (eager before its join, cooperative after a SyncGroup that took
// partitions away: the second rebalance), or leaves after Close.
//
// It goes on only once the commit is answered, as Kafka 3.7's consumer
// does: ConsumerCoordinator.onJoinPrepare sends the commit and returns false
// (no JoinGroup yet) until it completed, retrying a retriable failure
// (COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS)
// after retry.backoff.ms; a commit refused otherwise is reported in
// Ready.Errors and the join goes on. ConsumerCoordinator.close commits
// synchronously (maybeAutoCommitOffsetsSync, commitOffsetsSync) before the
// LeaveGroup. Kafka bounds the wait by the rebalance timeout
// (joinPrepareTimer), retrying a request that timed out; the simulated
// client does not learn that an answer was lost, so here the wait ends
// request.timeout.ms after the revocation (never past the rebalance
// timeout): the member reports the commit timed out ([ErrCommitTimedOut])
// and goes on. With no commits to send it goes on at once.
func (m *Member) Revoked(commits []PartitionOffset) {
	if m.state != Revoking || m.awaiting != nil {
		return
	}
	m.owned = Difference(m.owned, m.revoking)
	m.revoking = nil
	if m.commit(commits) {
		m.awaiting = &awaitedCommit{seq: m.commitsSent, offsets: slices.Clone(commits), deadlineMs: m.nowMs + m.commitWaitMs()}
		return
	}
	m.revokeDone()
}

// commitWaitMs is how long a member waits for its revocation commit:
// request.timeout.ms, at most the rebalance timeout (max.poll.interval.ms).
func (m *Member) commitWaitMs() int64 {
	return min(m.requestTimeoutMs(), int64(m.cfg.MaxPollIntervalMs))
}

func (m *Member) requestTimeoutMs() int64 {
	if m.cfg.RequestTimeoutMs <= 0 {
		return 30000
	}
	return int64(m.cfg.RequestTimeoutMs)
}

func (m *Member) retryBackoffMs() int64 {
	if m.cfg.RetryBackoffMs <= 0 {
		return 100
	}
	return int64(m.cfg.RetryBackoffMs)
}

// revokeDone ends a revocation: the member rejoins, or after Close revokes
// what it still owns (a cooperative member closed while it waited) and
// then leaves.
func (m *Member) revokeDone() {
	m.awaiting = nil
	m.state = MemberStable
	if m.leaving {
		if len(m.owned) > 0 {
			m.startRevoke(m.owned)
			return
		}
		m.leave()
		return
	}
	m.sendJoin()
}

// onCommitAnswer takes an OffsetCommit answer: when it answers the
// attempt of the revocation commit the member waits for (its Seq), it ends
// the wait: on success or a non-retriable error the member goes on, on a
// retriable error it sends the commit again after retry.backoff.ms.
func (m *Member) onCommitAnswer(r OffsetCommitResponse) {
	a := m.awaiting
	if a == nil || m.state != Revoking || r.Seq != a.seq {
		// Not the answer to the attempt in flight: an auto-commit's, or
		// an earlier attempt's that came late.
		return
	}
	if retriableCommitError(r.Error) && m.nowMs+m.retryBackoffMs() < a.deadlineMs {
		a.retryAtMs = m.nowMs + m.retryBackoffMs()
		return
	}
	m.revokeDone()
}

// retriableCommitError: the errors OffsetCommitResponseHandler (Kafka 3.7)
// raises as retriable, after which the commit is sent again.
func retriableCommitError(code ErrorCode) bool {
	return code == CoordinatorNotAvailable || code == NotCoordinator || code == CoordinatorLoadInProgress
}

// awaitCommit moves the wait for the revocation commit on at Tick: sends it
// again when a retry is due, and gives up at the deadline.
func (m *Member) awaitCommit() {
	a := m.awaiting
	if a == nil {
		return
	}
	if m.nowMs >= a.deadlineMs {
		// The request timed out: Kafka's client fails it (an answer
		// that comes later finds no attempt waiting).
		m.ready.Errors = append(m.ready.Errors, fmt.Errorf("commit of %d offsets on revocation by %q: no answer in %d ms: %w",
			len(a.offsets), m.memberID, m.commitWaitMs(), ErrCommitTimedOut))
		m.revokeDone()
		return
	}
	if a.retryAtMs != 0 && m.nowMs >= a.retryAtMs {
		a.retryAtMs = 0
		if !m.commit(a.offsets) {
			m.revokeDone()
			return
		}
		a.seq = m.commitsSent
	}
}

// Commit sends an OffsetCommit for offsets under the current generation.
// It does nothing with no offsets; without a generation (removed, or never
// joined) it reports [ErrCommitFailed] in Ready instead, as the Java consumer
// throws CommitFailedException.
func (m *Member) Commit(offsets []PartitionOffset) { m.commit(offsets) }

// commit is [Member.Commit]; it reports whether an OffsetCommit was sent.
func (m *Member) commit(offsets []PartitionOffset) bool {
	if len(offsets) == 0 {
		return false
	}
	if m.memberID == "" || m.generation < 0 {
		m.ready.Errors = append(m.ready.Errors, fmt.Errorf("commit of %d offsets by client %q: %w", len(offsets), m.cfg.ClientID, ErrCommitFailed))
		return false
	}
	m.commitsSent++
	m.send(OffsetCommit{
		GroupID: m.cfg.GroupID, GenerationID: m.generation, MemberID: m.memberID,
		GroupInstanceID: m.cfg.GroupInstanceID, Offsets: slices.Clone(offsets), Seq: m.commitsSent,
	})
	return true
}

// FetchCommitted sends an OffsetFetch for tps (typically the Assigned ones).
func (m *Member) FetchCommitted(tps []TopicPartition) {
	m.send(OffsetFetch{GroupID: m.cfg.GroupID, Partitions: SortedPartitions(tps), MemberEpoch: -1})
}

// Tick moves the member's clock: a heartbeat every heartbeat.interval.ms
// while it has a generation, and the max.poll.interval.ms check: past it the
// member gives up its generation and partitions (lost); a dynamic one also
// sends LeaveGroup, a static one just falls silent and its session expires
// unless it polls and rejoins first.
func (m *Member) Tick(nowMs int64) {
	m.nowMs = max(m.nowMs, nowMs)
	m.expireRequest()
	m.awaitCommit()
	active := m.state == MemberStable || m.state == Syncing || m.state == Revoking
	if !active || m.memberID == "" {
		return
	}
	if m.nowMs-m.lastPollMs > int64(m.cfg.MaxPollIntervalMs) {
		m.pollTimeout()
		return
	}
	if m.generation >= 0 && m.nowMs-m.lastBeatMs >= int64(m.cfg.HeartbeatIntervalMs) {
		m.lastBeatMs = m.nowMs
		m.send(Heartbeat{GroupID: m.cfg.GroupID, GenerationID: m.generation, MemberID: m.memberID, GroupInstanceID: m.cfg.GroupInstanceID})
	}
}

// expireRequest gives up a JoinGroup or SyncGroup whose answer is overdue
// (lost on the way): the member is unjoined and rejoins at its next Poll,
// keeping its member id.
func (m *Member) expireRequest() {
	timeout := m.requestTimeoutMs()
	if m.state == Joining {
		timeout = max(timeout, int64(m.cfg.MaxPollIntervalMs)+5000)
	}
	if (m.state == Joining || m.state == Syncing) && m.nowMs-m.sentMs > timeout {
		m.state = Unjoined
		m.needsRejoin = true
	}
}

// pollTimeout: the application has not called poll() for
// max.poll.interval.ms. Like the Java heartbeat thread, a dynamic member
// sends LeaveGroup; both kinds forget their generation, so the partitions
// are lost and the next Poll rejoins (a static member with its instance id,
// which takes its place back without a rebalance if the group is Stable).
func (m *Member) pollTimeout() {
	if m.cfg.GroupInstanceID == "" {
		m.send(LeaveGroup{GroupID: m.cfg.GroupID, MemberID: m.memberID})
	}
	m.reset(true)
}

// Close is a clean shutdown (KafkaConsumer.close): revoke everything
// (commit through [Member.Revoked], whose answer it waits for), then a
// dynamic member sends LeaveGroup.
// A static member sends nothing: its session will expire unless it returns.
func (m *Member) Close() {
	if m.state == Left {
		return
	}
	m.leaving = true
	if len(m.owned) > 0 && m.state != Revoking {
		m.startRevoke(m.owned)
		return
	}
	if m.state != Revoking {
		m.leave()
	}
}

func (m *Member) leave() {
	if m.cfg.GroupInstanceID == "" && m.memberID != "" {
		m.send(LeaveGroup{GroupID: m.cfg.GroupID, MemberID: m.memberID})
	}
	m.owned, m.revoking, m.awaiting = nil, nil, nil
	m.generation = -1
	m.state = Left
}

// reset forgets the generation (and with forgetID also the member id, as
// for UNKNOWN_MEMBER_ID); owned partitions are reported lost, and a wait for
// a revocation commit ends. A closing member is then done: it has no
// generation to leave (AbstractCoordinator.maybeLeaveGroup sends nothing
// from UNJOINED).
func (m *Member) reset(forgetID bool) {
	if len(m.owned) > 0 {
		m.ready.Lost = append(m.ready.Lost, SortedPartitions(m.owned)...)
	}
	m.owned, m.revoking, m.awaiting = nil, nil, nil
	if forgetID {
		m.memberID = ""
	}
	m.generation = -1
	m.needsRejoin = true
	m.state = Unjoined
	if m.leaving {
		m.state = Left
	}
}

func (m *Member) sendJoin() {
	var protocols []Protocol
	for _, a := range m.cfg.Assignors {
		protocols = append(protocols, Protocol{Name: a.Name(), Subscription: m.subscription(a)})
	}
	m.state = Joining
	m.sentMs = m.nowMs
	m.needsRejoin = false
	m.send(JoinGroup{
		GroupID: m.cfg.GroupID, MemberID: m.memberID, GroupInstanceID: m.cfg.GroupInstanceID, ClientID: m.cfg.ClientID,
		SessionTimeoutMs: m.cfg.SessionTimeoutMs, RebalanceTimeoutMs: m.cfg.MaxPollIntervalMs,
		ProtocolType: "consumer", Protocols: protocols,
	})
}

// subscription is what the member sends for assignor a: its topics, and
// what it owns (cooperative) or last had (eager sticky's user data).
func (m *Member) subscription(a Assignor) Subscription {
	s := Subscription{Topics: slices.Clone(m.cfg.Topics), Generation: m.generation, OwnedPartitions: []TopicPartition{}}
	switch {
	case m.protocol == Cooperative:
		s.OwnedPartitions = m.Owned()
	case a.Name() == (StickyAssignor{}).Name():
		s.OwnedPartitions = slices.Clone(m.lastAssignment)
	}
	return s
}
