package group

import (
	"fmt"
	"slices"
)

// retryBackoffMaxMs is retry.backoff.max.ms (1000), the cap of a failed
// heartbeat's exponential backoff.
const retryBackoffMaxMs = 1000

// Tick moves the member's clock: a heartbeat when one is due (at once
// while joining or acknowledging, else every interval the coordinator
// gave, one in flight at most), the timeouts of a heartbeat or a
// revocation commit left unanswered, and the poll timer: a member that
// has not polled for max.poll.interval.ms leaves the group (epoch -1, or
// -2 when static), loses its partitions and rejoins at its next poll.
func (m *ConsumerMember) Tick(nowMs int64) {
	m.nowMs = max(m.nowMs, nowMs)
	if m.phase == phaseLeft || m.phase == phaseUnjoined {
		return
	}
	m.awaitCommit()
	if m.inFlight && m.nowMs-m.lastBeatMs >= m.requestTimeoutMs() {
		m.failed()
	}
	if m.refetchAtMs != 0 && m.nowMs >= m.refetchAtMs {
		m.refetchAtMs = 0
		m.FetchCommitted(m.fetching)
	}
	if m.nowMs-m.lastPollMs > int64(m.cfg.MaxPollIntervalMs) && !m.leaving {
		m.pollTimeout()
		return
	}
	if m.inFlight || m.nowMs < m.retryAtMs {
		return
	}
	switch {
	case m.phase == phaseJoining, m.phase == phaseAcknowledging:
		m.beat()
	case m.intervalMs > 0 && m.nowMs-m.lastBeatMs >= m.intervalMs:
		m.beat()
	}
}

// beat sends a heartbeat now, unless one is in flight or a backoff runs.
func (m *ConsumerMember) beat() {
	if m.inFlight || m.nowMs < m.retryAtMs {
		return
	}
	m.inFlight, m.lastBeatMs = true, m.nowMs
	if m.phase == phaseAcknowledging {
		m.phase = phaseStable
		if !slices.Equal(m.owned, SortedPartitions(m.target)) {
			m.phase = phaseReconciling
		}
	}
	m.send(m.heartbeatRequest())
}

// heartbeatRequest builds the heartbeat as Kafka 4's HeartbeatState does:
// the member id and epoch always, the instance id when static; the
// rebalance timeout, the topics, the assignor and the owned partitions
// when joining or after a failure (a full request); else the topics and
// the owned partitions only when they changed since the last one sent.
func (m *ConsumerMember) heartbeatRequest() ConsumerGroupHeartbeat {
	r := ConsumerGroupHeartbeat{GroupID: m.cfg.GroupID, MemberID: m.memberID, MemberEpoch: m.epoch, InstanceID: m.cfg.GroupInstanceID,
		RebalanceTimeoutMs: -1, ClientID: m.cfg.ClientID}
	if m.epoch < 0 {
		return r
	}
	owned := m.Owned()
	if m.epoch == JoinGroupMemberEpoch {
		owned = []TopicPartition{}
	}
	full := m.sent == nil || m.epoch == JoinGroupMemberEpoch
	if full {
		r.RebalanceTimeoutMs, r.ServerAssignor = m.cfg.MaxPollIntervalMs, m.cfg.ServerAssignor
		m.sent = &sentFields{}
	}
	if full || !slices.Equal(m.sent.topics, m.cfg.Topics) {
		r.SubscribedTopicNames = slices.Clone(m.cfg.Topics)
		m.sent.topics = r.SubscribedTopicNames
	}
	if full || m.sent.owned == nil || !slices.Equal(m.sent.owned, owned) {
		r.Owned = owned
		m.sent.owned = owned
	}
	return r
}

// Step handles an answer of the coordinator to one of the member's
// requests.
func (m *ConsumerMember) Step(resp Response) error {
	switch r := resp.(type) {
	case ConsumerGroupHeartbeatResponse:
		m.onHeartbeat(r)
	case OffsetCommitResponse:
		m.onCommit(r)
	case OffsetFetchResponse:
		m.onFetch(r)
	default:
		return fmt.Errorf("consumer member %q: %T: %w", m.memberID, resp, ErrUnknownResponse)
	}
	return nil
}

// onHeartbeat takes a heartbeat answer (ConsumerMembershipManager.onHeartbeatSuccess
// and AbstractHeartbeatRequestManager.onErrorResponse).
func (m *ConsumerMember) onHeartbeat(r ConsumerGroupHeartbeatResponse) {
	m.inFlight = false
	if m.phase == phaseLeft || m.phase == phaseUnjoined {
		return
	}
	switch r.Error {
	case None:
	case CoordinatorNotAvailable, NotCoordinator:
		// Find the coordinator again and send a full heartbeat at once.
		m.sent = nil
		return
	case CoordinatorLoadInProgress:
		m.failed()
		return
	case FencedMemberEpoch, UnknownMemberID:
		m.fence(r.Error)
		return
	default:
		m.fatal(r.Error, r.Message)
		return
	}
	if r.MemberEpoch < 0 {
		return // an answer to a leave, or a broken one: ignored, as Kafka's consumer does
	}
	m.backoffMs, m.retryAtMs = 0, 0
	if r.MemberID != "" {
		m.memberID = r.MemberID
	}
	m.epoch, m.intervalMs = r.MemberEpoch, int64(r.HeartbeatIntervalMs)
	if r.Assignment == nil {
		if m.phase == phaseJoining {
			m.phase = phaseStable
		}
		return
	}
	m.target = SortedPartitions(r.Assignment)
	switch {
	case m.phase == phaseRevoking:
		// the new target is reconciled once the revocation is done
	case !slices.Equal(m.owned, m.target):
		m.phase = phaseReconciling
	case m.phase == phaseJoining || m.phase == phaseReconciling:
		m.phase = phaseStable
	}
}

// failed is a heartbeat that got no useful answer: the next is full, after
// a backoff that doubles up to retry.backoff.max.ms.
func (m *ConsumerMember) failed() {
	m.inFlight, m.sent = false, nil
	m.backoffMs = min(max(m.backoffMs*2, m.retryBackoffMs()), retryBackoffMaxMs)
	m.retryAtMs = m.nowMs + m.backoffMs
}

// fence is transitionToFenced: the member lost its partitions (no commit
// is possible) and rejoins at epoch 0 with the same member id. Kafka's
// consumer rejoins at once; here consecutive fences back off as failed
// heartbeats do, since a Kafka 4.1 coordinator keeps fencing a member
// rejoining at epoch 0 while it holds it at a later epoch (until its
// session expires, KAFKA-19233).
func (m *ConsumerMember) fence(code ErrorCode) {
	m.ready.Errors = append(m.ready.Errors, fmt.Errorf("member %q at epoch %d: %w", m.memberID, m.epoch, code))
	m.lose()
	m.failed()
	if m.leaving {
		m.phase = phaseLeft
		return
	}
	m.phase, m.epoch = phaseJoining, JoinGroupMemberEpoch
}

// lose reports the owned partitions lost and forgets the assignment.
func (m *ConsumerMember) lose() {
	if len(m.owned) > 0 {
		m.ready.Lost = append(m.ready.Lost, m.Owned()...)
	}
	m.owned, m.revoking, m.target, m.applying, m.awaiting = nil, nil, nil, nil, nil
}

// fatal is transitionToFatal: an error the application gets
// (UNRELEASED_INSTANCE_ID, GROUP_MAX_SIZE_REACHED, UNSUPPORTED_ASSIGNOR,
// INVALID_REQUEST, UNSUPPORTED_VERSION, FENCED_INSTANCE_ID, anything
// unexpected); the member stops.
func (m *ConsumerMember) fatal(code ErrorCode, msg string) {
	m.ready.Errors = append(m.ready.Errors, fmt.Errorf("member %q (instance %q): %w: %s", m.memberID, m.cfg.GroupInstanceID, code, msg))
	m.lose()
	m.phase = phaseLeft
}

// pollTimeout: the application has not polled for max.poll.interval.ms;
// the member sends its leave heartbeat and is STALE until its next poll,
// which rejoins (transitionToSendingLeaveGroup, transitionToStale).
func (m *ConsumerMember) pollTimeout() {
	if m.epoch > 0 {
		m.epoch = m.leaveEpoch()
		m.inFlight = false
		m.send(m.heartbeatRequest())
	}
	m.lose()
	m.phase, m.epoch, m.sent, m.inFlight = phaseUnjoined, 0, nil, false
}

// onCommit takes an OffsetCommit answer: the revocation commit the member
// waits for ends its wait (a retriable error or a stale epoch sends it
// again after retry.backoff.ms, with the member's epoch then).
func (m *ConsumerMember) onCommit(r OffsetCommitResponse) {
	if r.Error != None {
		m.ready.Errors = append(m.ready.Errors, fmt.Errorf("commit of %d offsets by %q at epoch %d: %w", len(r.Offsets), m.memberID, m.epoch, r.Error))
	}
	a := m.awaiting
	if a == nil || m.phase != phaseRevoking || r.Seq != a.seq {
		return
	}
	if (retriableCommitError(r.Error) || r.Error == StaleMemberEpoch) && m.nowMs+m.retryBackoffMs() < a.deadlineMs {
		a.retryAtMs = m.nowMs + m.retryBackoffMs()
		return
	}
	m.revokeDone()
}

// awaitCommit moves the wait for the revocation commit on: a retry when
// due, the end of the wait at its deadline.
func (m *ConsumerMember) awaitCommit() {
	a := m.awaiting
	if a == nil {
		return
	}
	if m.nowMs >= a.deadlineMs {
		m.ready.Errors = append(m.ready.Errors, fmt.Errorf("commit of %d offsets on revocation by %q: no answer in %d ms: %w",
			len(a.offsets), m.memberID, m.requestTimeoutMs(), ErrCommitTimedOut))
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

// onFetch takes an OffsetFetch answer; a stale epoch or a coordinator
// error asks again after retry.backoff.ms.
func (m *ConsumerMember) onFetch(r OffsetFetchResponse) {
	switch r.Error {
	case None:
		m.ready.Fetched = append(m.ready.Fetched, r.Offsets...)
	case StaleMemberEpoch, CoordinatorNotAvailable, NotCoordinator, CoordinatorLoadInProgress:
		m.refetchAtMs = m.nowMs + m.retryBackoffMs()
	default:
		m.ready.Errors = append(m.ready.Errors, fmt.Errorf("offset fetch by %q: %w", m.memberID, r.Error))
	}
}
