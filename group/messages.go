package group

// Request is a message from a consumer to the group coordinator: one of
// [JoinGroup], [SyncGroup], [Heartbeat], [LeaveGroup], [OffsetCommit] and
// [OffsetFetch].
type Request interface {
	// Group is the group id the request is for.
	Group() string
	isRequest()
}

// Response is the coordinator's answer to a [Request], matched to it by type.
type Response interface {
	isResponse()
}

// Protocol is one assignor a member supports, with its subscription.
type Protocol struct {
	// Name is the assignor name, e.g. "cooperative-sticky".
	Name string
	// Subscription is what the member sends for this assignor.
	Subscription Subscription
	// Metadata is the protocol metadata as it came over the wire, nil for
	// the world's own members. The coordinator keeps it unread and hands it
	// back to the leader (JoinGroup) and to DescribeGroups; for the
	// "consumer" protocol type the caller also decodes it into
	// Subscription (ConsumerProtocolSubscription), for any other type
	// Subscription stays empty.
	Metadata []byte
}

// JoinGroup asks to (re)join a group (JoinGroupRequest v5+ semantics).
type JoinGroup struct {
	// GroupID is group.id.
	GroupID string
	// MemberID is the id the coordinator gave, "" on the first join.
	MemberID string
	// GroupInstanceID is group.instance.id for a static member (KIP-345), "" if dynamic.
	GroupInstanceID string
	// ClientID is client.id; dynamic member ids start with it.
	ClientID string
	// ClientHost is the client's address as Kafka shows it ("/127.0.0.1"),
	// "" when not known.
	ClientHost string
	// NoMemberIDRequired is set for JoinGroup v0-v3 (clients before 2.2):
	// a new dynamic member is added at once with the id the coordinator
	// makes, instead of being answered MEMBER_ID_REQUIRED (Kafka's
	// requireKnownMemberId is "version >= 4", KafkaApis.handleJoinGroupRequest).
	NoMemberIDRequired bool
	// SessionTimeoutMs is session.timeout.ms (default 45000; 10000 before 3.0).
	SessionTimeoutMs int32
	// RebalanceTimeoutMs is how long the coordinator waits for this member to
	// rejoin; the Java consumer sends max.poll.interval.ms (default 300000).
	RebalanceTimeoutMs int32
	// ProtocolType is "consumer" for consumers.
	ProtocolType string
	// Protocols are the supported assignors, most preferred first.
	Protocols []Protocol
}

// JoinGroupResponse answers [JoinGroup] when the join phase ends (or at once
// with an error, MEMBER_ID_REQUIRED, or the current generation).
type JoinGroupResponse struct {
	// Error is None on success.
	Error ErrorCode
	// GenerationID is the new generation.
	GenerationID int32
	// ProtocolName is the chosen assignor.
	ProtocolName string
	// ProtocolType is the group's protocol type (JoinGroup v7+).
	ProtocolType string
	// Leader is the member id of the group leader.
	Leader string
	// SkipAssignment tells a rejoining static leader not to compute a new
	// assignment (KIP-814, 3.2+): the group did not rebalance.
	SkipAssignment bool
	// MemberID is this member's id (also set with MEMBER_ID_REQUIRED).
	MemberID string
	// Members holds every member's subscription for the chosen assignor,
	// only in the leader's answer, in the order Kafka 3.7's coordinator
	// lists them: the iteration order of its Scala HashMap of members
	// (GroupMetadata.currentMemberMetadata), not sorted.
	Members []MemberSubscription
}

// MemberAssignment is the leader's assignment for one member.
type MemberAssignment struct {
	// MemberID is the member the partitions are for.
	MemberID string
	// Partitions are its partitions.
	Partitions []TopicPartition
	// Data is the assignment as the leader sent it over the wire
	// (ConsumerProtocolAssignment for the "consumer" protocol type, opaque
	// bytes for others), nil from the world's own leaders; the member gets
	// it back as it was.
	Data []byte
}

// SyncGroup fetches this member's assignment; the leader's carries everyone's.
type SyncGroup struct {
	// GroupID is group.id.
	GroupID string
	// GenerationID is the generation from the JoinGroup response.
	GenerationID int32
	// MemberID is this member's id.
	MemberID string
	// GroupInstanceID is group.instance.id, "" if dynamic.
	GroupInstanceID string
	// ProtocolType is the member's protocol type ("consumer"), "" when not
	// sent (SyncGroup v5+, KIP-559, 2.5).
	ProtocolType string
	// ProtocolName is the assignor named in the JoinGroup answer, "" when
	// not sent (SyncGroup v5+). A value other than the group's is refused
	// with INCONSISTENT_GROUP_PROTOCOL.
	ProtocolName string
	// Assignments is the leader's assignment, empty from followers.
	Assignments []MemberAssignment
}

// SyncGroupResponse answers [SyncGroup].
type SyncGroupResponse struct {
	// Error is None on success.
	Error ErrorCode
	// Assignment is this member's partitions, in the order the leader's
	// assignor listed them.
	Assignment []TopicPartition
	// Data is the leader's assignment bytes for this member ([MemberAssignment].Data),
	// nil when the leader gave partitions only.
	Data []byte
	// ProtocolType and ProtocolName are the group's (SyncGroup v5+).
	ProtocolType, ProtocolName string
}

// Heartbeat keeps a member's session alive (every heartbeat.interval.ms).
type Heartbeat struct {
	// GroupID is group.id.
	GroupID string
	// GenerationID is the member's generation.
	GenerationID int32
	// MemberID is this member's id.
	MemberID string
	// GroupInstanceID is group.instance.id, "" if dynamic.
	GroupInstanceID string
}

// HeartbeatResponse answers [Heartbeat]: None, REBALANCE_IN_PROGRESS (rejoin),
// ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID or FENCED_INSTANCE_ID.
type HeartbeatResponse struct {
	// Error is None when the member may carry on.
	Error ErrorCode
}

// LeaveGroup removes a member at once (a dynamic member's close(), or its
// max.poll.interval.ms expiry). Static members never send it themselves.
type LeaveGroup struct {
	// GroupID is group.id.
	GroupID string
	// MemberID is the leaving member's id.
	MemberID string
	// GroupInstanceID is set to remove a static member (admin, KIP-345).
	GroupInstanceID string
}

// LeaveGroupResponse answers [LeaveGroup].
type LeaveGroupResponse struct {
	// Error is None when the member was removed.
	Error ErrorCode
}

// PartitionOffset is one committed position: the next offset to consume.
type PartitionOffset struct {
	TopicPartition
	// Offset is the next offset to consume (last processed + 1).
	Offset int64
	// LeaderEpoch is the leader epoch of the last consumed record, -1 if unknown (KIP-320).
	LeaderEpoch int32
	// Metadata is the client's free text.
	Metadata string
}

// OffsetCommit commits positions for a group.
type OffsetCommit struct {
	// GroupID is group.id.
	GroupID string
	// GenerationID is the member's generation; -1 with an empty MemberID is a
	// "simple" commit from outside the group (only into an Empty group).
	GenerationID int32
	// MemberID is the committing member's id.
	MemberID string
	// GroupInstanceID is group.instance.id, "" if dynamic.
	GroupInstanceID string
	// Offsets are the positions to commit.
	Offsets []PartitionOffset
	// Seq is the sender's own number for this request (as a Kafka
	// client's correlation id), echoed in the answer; 0 for none.
	Seq int64
	// Version is the OffsetCommit API version the request came in. A
	// consumer-protocol group refuses its members' commits below v9
	// (UNSUPPORTED_VERSION); the classic coordinator does not read it.
	Version int16
}

// OffsetCommitResponse answers [OffsetCommit]. The whole request succeeds or
// fails together here (Kafka reports per partition, always the same code for
// these errors).
type OffsetCommitResponse struct {
	// Error is None when the offsets were committed.
	Error ErrorCode
	// Offsets echoes what was committed (or refused).
	Offsets []PartitionOffset
	// Seq echoes the request's.
	Seq int64
}

// OffsetFetch reads committed offsets.
type OffsetFetch struct {
	// GroupID is group.id.
	GroupID string
	// Partitions to read; nil means every partition the group committed.
	Partitions []TopicPartition
	// MemberID and MemberEpoch name the member that fetches (OffsetFetch
	// v9+, KIP-848): a consumer-protocol group checks them as it checks a
	// commit's. "" and -1 when not sent, as classic members and tools do.
	MemberID    string
	MemberEpoch int32
}

// OffsetFetchResponse answers [OffsetFetch]; Offset -1 means "no committed offset".
type OffsetFetchResponse struct {
	// Error is None on success.
	Error ErrorCode
	// Offsets are sorted by topic and partition.
	Offsets []PartitionOffset
}

// Group implements [Request].
func (r JoinGroup) Group() string { return r.GroupID }

// Group implements [Request].
func (r SyncGroup) Group() string { return r.GroupID }

// Group implements [Request].
func (r Heartbeat) Group() string { return r.GroupID }

// Group implements [Request].
func (r LeaveGroup) Group() string { return r.GroupID }

// Group implements [Request].
func (r OffsetCommit) Group() string { return r.GroupID }

// Group implements [Request].
func (r OffsetFetch) Group() string { return r.GroupID }

func (JoinGroup) isRequest()    {}
func (SyncGroup) isRequest()    {}
func (Heartbeat) isRequest()    {}
func (LeaveGroup) isRequest()   {}
func (OffsetCommit) isRequest() {}
func (OffsetFetch) isRequest()  {}

func (JoinGroupResponse) isResponse()    {}
func (SyncGroupResponse) isResponse()    {}
func (HeartbeatResponse) isResponse()    {}
func (LeaveGroupResponse) isResponse()   {}
func (OffsetCommitResponse) isResponse() {}
func (OffsetFetchResponse) isResponse()  {}
