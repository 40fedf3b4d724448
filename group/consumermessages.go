package group

// The consumer group protocol's messages (KIP-848): one request,
// ConsumerGroupHeartbeat, carries a member's join, its subscription, what
// it owns, and its leave; the answer carries its epoch and its assignment.
// The member's commits and offset fetches are [OffsetCommit] and
// [OffsetFetch] with the member epoch in place of the generation.

// The member epochs a [ConsumerGroupHeartbeat] sends with a meaning of
// their own (ConsumerGroupHeartbeatRequest.JOIN_GROUP_MEMBER_EPOCH,
// LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH).
const (
	// JoinGroupMemberEpoch joins (or rejoins) the group.
	JoinGroupMemberEpoch int32 = 0
	// LeaveGroupMemberEpoch leaves the group for good.
	LeaveGroupMemberEpoch int32 = -1
	// LeaveGroupStaticMemberEpoch: a static member leaves for now and
	// keeps its place until its session expires (it will come back with
	// its group.instance.id).
	LeaveGroupStaticMemberEpoch int32 = -2
)

// ConsumerGroupHeartbeat is a consumer-protocol member's request
// (ConsumerGroupHeartbeatRequest v0-v1). Most fields may be left out
// ("null" in Kafka's schema) when they did not change since the member's
// last heartbeat; a member sends them all when it joins (epoch 0) and
// after an error. A null string is "" here: Kafka refuses an empty one, a
// check its callers make at the wire.
type ConsumerGroupHeartbeat struct {
	// GroupID is group.id.
	GroupID string
	// MemberID is the member's id. A member of Kafka 4's clients makes its
	// own (a UUID, KIP-1082); "" on a join asks the coordinator for one
	// (v0 clients).
	MemberID string
	// MemberEpoch is the member's current epoch: [JoinGroupMemberEpoch] to
	// join, [LeaveGroupMemberEpoch] or [LeaveGroupStaticMemberEpoch] to
	// leave.
	MemberEpoch int32
	// InstanceID is group.instance.id (static membership), "" if not sent.
	InstanceID string
	// RackID is client.rack, "" if not sent.
	RackID string
	// RebalanceTimeoutMs is how long the member may take to revoke
	// partitions (the Java consumer sends max.poll.interval.ms); -1 if not
	// sent.
	RebalanceTimeoutMs int32
	// SubscribedTopicNames are the subscribed topics; nil if not sent.
	SubscribedTopicNames []string
	// SubscribedTopicRegex (v1) subscribes to every topic whose whole name
	// it matches (RE2 syntax, as Kafka 4.0's RE2/J), besides the names; nil
	// if not sent, "" for none.
	SubscribedTopicRegex *string
	// ServerAssignor is group.remote.assignor ("uniform" or "range"); ""
	// if not sent (the group's choice, by default the broker's first
	// group.consumer.assignors).
	ServerAssignor string
	// Owned are the partitions the member owns now; nil if not sent (no
	// change). A member sends them when they changed: that is how it says
	// it revoked what it was asked to.
	Owned []TopicPartition
	// ClientID and ClientHost are the request's client.id and the client's
	// address ("/127.0.0.1"), as Kafka's request context gives them.
	ClientID, ClientHost string
}

// ConsumerGroupHeartbeatResponse answers [ConsumerGroupHeartbeat].
type ConsumerGroupHeartbeatResponse struct {
	// Error is None on success.
	Error ErrorCode
	// Message says why, with an error, as Kafka's ErrorMessage does.
	Message string
	// MemberID is the member's id (the one the coordinator made, on a v0
	// join).
	MemberID string
	// MemberEpoch is the member's epoch now (-1 or -2 echoes a leave).
	MemberEpoch int32
	// HeartbeatIntervalMs is when to heartbeat next
	// (group.consumer.heartbeat.interval.ms).
	HeartbeatIntervalMs int32
	// Assignment is every partition the member may own now, sorted; nil
	// when it did not change (and the request was not a full one).
	Assignment []TopicPartition
}

// Group implements [Request].
func (r ConsumerGroupHeartbeat) Group() string { return r.GroupID }

func (ConsumerGroupHeartbeat) isRequest()          {}
func (ConsumerGroupHeartbeatResponse) isResponse() {}
