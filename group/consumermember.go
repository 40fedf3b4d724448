package group

import (
	"fmt"
	"slices"
)

// ConsumerMemberConfig is a consumer's settings for the consumer group
// protocol (group.protocol=consumer, KIP-848), named after the consumer
// config keys.
type ConsumerMemberConfig struct {
	// GroupID is group.id.
	GroupID string
	// ClientID is client.id.
	ClientID string
	// MemberID is the member id the consumer made for itself (Kafka 4's
	// consumer makes a UUID at its start, KIP-1082); "" leaves it to the
	// coordinator (ConsumerGroupHeartbeat v0).
	MemberID string
	// GroupInstanceID is group.instance.id; "" for a dynamic member.
	GroupInstanceID string
	// Topics are the subscribed topics.
	Topics []string
	// ServerAssignor is group.remote.assignor ("uniform", "range"); "" lets
	// the group choose (the broker's default).
	ServerAssignor string
	// MaxPollIntervalMs is max.poll.interval.ms (300000), also sent as the
	// rebalance timeout: a member that does not poll for this long leaves.
	MaxPollIntervalMs int32
	// RequestTimeoutMs is request.timeout.ms (30000): a heartbeat or a
	// revocation commit unanswered this long is given up. 0 means 30000.
	RequestTimeoutMs int32
	// RetryBackoffMs is retry.backoff.ms (100), doubled after each failed
	// heartbeat up to retry.backoff.max.ms (1000). 0 means 100.
	RetryBackoffMs int32
}

// DefaultConsumerMemberConfig returns Kafka 4's consumer defaults for a
// member of groupID with client id clientID and member id memberID,
// subscribed to topics.
func DefaultConsumerMemberConfig(groupID, clientID, memberID string, topics []string) ConsumerMemberConfig {
	return ConsumerMemberConfig{GroupID: groupID, ClientID: clientID, MemberID: memberID, Topics: topics, MaxPollIntervalMs: 300000}
}

func (c ConsumerMemberConfig) validate() error {
	if c.GroupID == "" || len(c.Topics) == 0 || c.MaxPollIntervalMs <= 0 {
		return fmt.Errorf("consumer member config of %q in group %q: %w", c.ClientID, c.GroupID, ErrInvalidConfig)
	}
	if c.ServerAssignor != "" && ServerAssignors()[c.ServerAssignor] == nil {
		return fmt.Errorf("consumer member config of %q: group.remote.assignor %q: %w", c.ClientID, c.ServerAssignor, ErrInvalidConfig)
	}
	return nil
}

// consumerPhase is where a consumer-protocol member is
// (AbstractMembershipManager's MemberState, refined).
type consumerPhase int8

const (
	// phaseUnjoined: not in the group (not polled yet, or left after its
	// poll timer expired: STALE); the next Poll joins.
	phaseUnjoined consumerPhase = iota
	// phaseJoining: a heartbeat at epoch 0 is due or in flight.
	phaseJoining
	// phaseStable: it owns its target assignment.
	phaseStable
	// phaseReconciling: a new target came; the next Poll reconciles it.
	phaseReconciling
	// phaseRevoking: the caller revokes and commits; the member waits for
	// [ConsumerMember.Revoked] and the commit's answer.
	phaseRevoking
	// phaseAcknowledging: reconciled; a heartbeat reporting what it owns
	// now is due at once.
	phaseAcknowledging
	// phaseLeft: closed, or failed for good (FATAL); it does nothing more.
	phaseLeft
)

// ConsumerMember is one consumer's side of the consumer group protocol
// (KIP-848; Kafka 4's ConsumerMembershipManager and
// ConsumerHeartbeatRequestManager): it heartbeats, takes the assignment
// the coordinator computed, revokes what it must (committing first),
// reports what it owns, and commits with its member epoch. There is no
// JoinGroup, no SyncGroup, no leader: every change comes in the heartbeat
// answers, and the member moves on its own, without waiting for the
// others. It is a pure state machine; its caller follows the same steps as
// for a [Member] (see the package documentation).
type ConsumerMember struct {
	cfg      ConsumerMemberConfig
	phase    consumerPhase
	memberID string
	epoch    int32
	// intervalMs is the heartbeat interval the coordinator gave (0 before
	// its first answer); lastBeatMs when the last heartbeat went; inFlight
	// whether one waits for its answer; backoffMs the wait after a failed
	// one, retryAtMs when it may go again.
	intervalMs, lastBeatMs, retryAtMs, backoffMs int64
	inFlight                                     bool
	// target is the latest assignment the coordinator gave; owned what the
	// member owns; revoking what it gives up now; applying the target being
	// reconciled (a new one that comes meanwhile waits for the next poll).
	target, owned, revoking, applying []TopicPartition
	// sent are the fields of the last heartbeat (nil after a failure: the
	// next one is full): the member sends again only what changed.
	sent *sentFields
	// fetching are the partitions of the last OffsetFetch, asked again
	// when it is answered with a stale epoch.
	fetching    []TopicPartition
	refetchAtMs int64
	leaving     bool
	lastPollMs  int64
	nowMs       int64
	commitsSent int64
	awaiting    *awaitedCommit
	ready       MemberReady
}

// sentFields are what the member last sent (HeartbeatState.sentFields).
type sentFields struct {
	topics []string
	owned  []TopicPartition
}

// NewConsumerMember returns a member whose clock starts at nowMs. It joins
// at its first [ConsumerMember.Poll].
func NewConsumerMember(cfg ConsumerMemberConfig, nowMs int64) (*ConsumerMember, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg.Topics = slices.Compact(slices.Sorted(slices.Values(cfg.Topics)))
	return &ConsumerMember{cfg: cfg, memberID: cfg.MemberID, lastPollMs: nowMs, nowMs: nowMs}, nil
}

// MemberID is the member's id ("" until the coordinator gave one, for a
// member that did not make its own).
func (m *ConsumerMember) MemberID() string { return m.memberID }

// Epoch is the member epoch (0 out of the group).
func (m *ConsumerMember) Epoch() int32 { return m.epoch }

// Protocol is [Cooperative]: a consumer-protocol member gives up only the
// partitions that move.
func (m *ConsumerMember) Protocol() RebalanceProtocol { return Cooperative }

// State maps the member's phase onto the classic [MemberState]s.
func (m *ConsumerMember) State() MemberState {
	switch m.phase {
	case phaseUnjoined:
		return Unjoined
	case phaseJoining:
		return Joining
	case phaseRevoking:
		return Revoking
	case phaseLeft:
		return Left
	}
	return MemberStable
}

// Owned returns the partitions the member owns, sorted.
func (m *ConsumerMember) Owned() []TopicPartition { return SortedPartitions(m.owned) }

// Fetchable returns what the member owns minus what it is revoking.
func (m *ConsumerMember) Fetchable() []TopicPartition {
	if m.phase == phaseLeft {
		return []TopicPartition{}
	}
	return Difference(m.owned, m.revoking)
}

// SetMetadata does nothing: the coordinator follows the topics itself.
func (m *ConsumerMember) SetMetadata([]TopicMetadata) {}

// HasReady reports whether Ready has anything to hand out.
func (m *ConsumerMember) HasReady() bool {
	r := m.ready
	return len(r.Requests)+len(r.Revoke)+len(r.Assigned)+len(r.Lost)+len(r.Fetched)+len(r.Errors) > 0
}

// Ready returns the output accumulated since the last call and clears it.
func (m *ConsumerMember) Ready() MemberReady {
	r := m.ready
	m.ready = MemberReady{}
	return r
}

func (m *ConsumerMember) send(r Request) { m.ready.Requests = append(m.ready.Requests, r) }

func (m *ConsumerMember) requestTimeoutMs() int64 {
	if m.cfg.RequestTimeoutMs <= 0 {
		return 30000
	}
	return int64(m.cfg.RequestTimeoutMs)
}

func (m *ConsumerMember) retryBackoffMs() int64 {
	if m.cfg.RetryBackoffMs <= 0 {
		return 100
	}
	return int64(m.cfg.RetryBackoffMs)
}

// Poll records a call to poll() at nowMs: a member out of the group joins
// (or rejoins after its poll timer expired), and a new target assignment
// is reconciled here, as Kafka 4's consumer reconciles only inside poll():
// what must go is handed to the caller to revoke first (Ready.Revoke),
// what is new is assigned once that is done.
func (m *ConsumerMember) Poll(nowMs int64) {
	m.nowMs = max(m.nowMs, nowMs)
	m.lastPollMs = m.nowMs
	switch m.phase {
	case phaseUnjoined:
		m.join()
	case phaseReconciling:
		m.reconcile()
	}
}

// join starts (or restarts) membership at epoch 0, owning nothing.
func (m *ConsumerMember) join() {
	m.phase, m.epoch, m.sent = phaseJoining, JoinGroupMemberEpoch, nil
	m.target, m.owned, m.revoking, m.applying = nil, nil, nil, nil
	m.beat()
}

// reconcile applies the target: revoke first, then assign.
func (m *ConsumerMember) reconcile() {
	m.applying = SortedPartitions(m.target)
	revoke := Difference(m.owned, m.applying)
	if len(revoke) > 0 {
		m.phase, m.revoking = phaseRevoking, revoke
		m.ready.Revoke = append(m.ready.Revoke, revoke...)
		return
	}
	m.assignTarget()
}

// assignTarget takes what the target being applied adds and acknowledges
// at once.
func (m *ConsumerMember) assignTarget() {
	added := Difference(m.applying, m.owned)
	m.owned = m.applying
	if m.sent != nil {
		// A new local assignment is acknowledged even when its partitions
		// are those last sent (Kafka's LocalAssignment carries a local
		// epoch for this).
		m.sent.owned = nil
	}
	m.ready.Assigned = append(m.ready.Assigned, added...)
	m.phase = phaseAcknowledging
	m.beat()
}

// Revoked tells the member the caller finished revoking; commits are the
// positions to commit for them (none with auto-commit off). The member
// commits with its epoch and goes on once the commit is answered (or after
// request.timeout.ms): it gives the partitions up and takes the rest of
// its target (or, closing, leaves).
func (m *ConsumerMember) Revoked(commits []PartitionOffset) {
	if m.phase != phaseRevoking || m.awaiting != nil {
		return
	}
	if m.commit(commits) {
		m.awaiting = &awaitedCommit{seq: m.commitsSent, offsets: slices.Clone(commits), deadlineMs: m.nowMs + m.requestTimeoutMs()}
		return
	}
	m.revokeDone()
}

// revokeDone gives up what was revoked; a closing member leaves, another
// takes its target.
func (m *ConsumerMember) revokeDone() {
	m.awaiting = nil
	m.owned = Difference(m.owned, m.revoking)
	m.revoking = nil
	if m.leaving {
		m.sendLeave()
		return
	}
	m.assignTarget()
}

// Commit sends an OffsetCommit (v9) at the member's epoch. Out of the
// group (no epoch) it reports [ErrCommitFailed] instead.
func (m *ConsumerMember) Commit(offsets []PartitionOffset) { m.commit(offsets) }

func (m *ConsumerMember) commit(offsets []PartitionOffset) bool {
	if len(offsets) == 0 {
		return false
	}
	if m.epoch <= 0 || m.memberID == "" {
		m.ready.Errors = append(m.ready.Errors, fmt.Errorf("commit of %d offsets by client %q: %w", len(offsets), m.cfg.ClientID, ErrCommitFailed))
		return false
	}
	m.commitsSent++
	m.send(OffsetCommit{GroupID: m.cfg.GroupID, GenerationID: m.epoch, MemberID: m.memberID, GroupInstanceID: m.cfg.GroupInstanceID,
		Offsets: slices.Clone(offsets), Seq: m.commitsSent, Version: 9})
	return true
}

// FetchCommitted sends an OffsetFetch (v9) for tps with the member's id and
// epoch.
func (m *ConsumerMember) FetchCommitted(tps []TopicPartition) {
	m.fetching = SortedPartitions(tps)
	m.send(OffsetFetch{GroupID: m.cfg.GroupID, Partitions: m.fetching, MemberID: m.memberID, MemberEpoch: m.epoch})
}

// Close is a clean shutdown: revoke (and commit) what it owns, then leave
// with epoch -1 (-2 for a static member, which keeps its place until its
// session expires).
func (m *ConsumerMember) Close() {
	if m.phase == phaseLeft || m.leaving {
		return
	}
	m.leaving = true
	if m.phase == phaseRevoking {
		return
	}
	if len(m.owned) > 0 && m.epoch > 0 {
		m.phase, m.revoking = phaseRevoking, m.Owned()
		m.ready.Revoke = append(m.ready.Revoke, m.revoking...)
		return
	}
	m.sendLeave()
}

// sendLeave sends the leave heartbeat, if the member is in the group, and
// stops.
func (m *ConsumerMember) sendLeave() {
	if m.epoch > 0 || m.phase == phaseJoining && m.memberID != "" {
		m.epoch = m.leaveEpoch()
		m.send(m.heartbeatRequest())
	}
	m.owned, m.revoking, m.awaiting = nil, nil, nil
	m.phase = phaseLeft
}

func (m *ConsumerMember) leaveEpoch() int32 {
	if m.cfg.GroupInstanceID != "" {
		return LeaveGroupStaticMemberEpoch
	}
	return LeaveGroupMemberEpoch
}

// Status returns the member's snapshot; its Generation is the member
// epoch.
func (m *ConsumerMember) Status() ConsumerStatus {
	s := ConsumerStatus{MemberID: m.memberID, GroupInstanceID: m.cfg.GroupInstanceID, Generation: m.epoch, State: m.State(),
		Protocol: Cooperative, Owned: m.Owned(), Fetchable: m.Fetchable(), GroupProtocol: "consumer",
		Pending: Difference(m.target, m.owned), Revoking: SortedPartitions(m.revoking)}
	if len(s.Fetchable) == 0 {
		s.Idle = m.idleReason()
	}
	return s
}

func (m *ConsumerMember) idleReason() string {
	switch m.phase {
	case phaseLeft:
		return "left the group"
	case phaseUnjoined:
		return "not in the group: joins at its next poll"
	case phaseJoining:
		return "joining the group (heartbeat at epoch 0)"
	case phaseRevoking:
		return "revoking: committing before giving its partitions up"
	}
	if len(m.target) > 0 {
		return fmt.Sprintf("epoch %d: its partitions come once their previous owners release them", m.epoch)
	}
	return fmt.Sprintf("assigned nothing at epoch %d (more members than partitions?)", m.epoch)
}

// Clone returns an independent copy of the member: its phase, id, epoch,
// assignment, timers, the commit it waits for and the output not yet
// taken. It shares the contents of the requests not yet taken, never
// changed once sent, and the subscribed topics, never changed.
func (m *ConsumerMember) Clone() *ConsumerMember {
	c := *m
	c.target, c.owned, c.revoking, c.applying = slices.Clone(m.target), slices.Clone(m.owned), slices.Clone(m.revoking), slices.Clone(m.applying)
	c.fetching = slices.Clone(m.fetching)
	if m.sent != nil {
		s := *m.sent
		c.sent = &s
	}
	if m.awaiting != nil {
		a := *m.awaiting
		a.offsets = slices.Clone(m.awaiting.offsets)
		c.awaiting = &a
	}
	c.ready = MemberReady{Requests: slices.Clone(m.ready.Requests), Revoke: slices.Clone(m.ready.Revoke), Assigned: slices.Clone(m.ready.Assigned),
		Lost: slices.Clone(m.ready.Lost), Fetched: slices.Clone(m.ready.Fetched), Errors: slices.Clone(m.ready.Errors)}
	return &c
}
