package group

import (
	"encoding/binary"
	"fmt"
)

// The bytes of a consumer-protocol group's records in __consumer_offsets
// (KIP-848; Kafka 4.0's ConsumerGroup*Key and *Value in the
// group-coordinator's resources, read in the trunk of late 2024). A key's
// int16 version names the record type; the key is not flexible (strings
// with an int16 length). A value is an int16 version 0 and a flexible
// struct: compact strings and arrays (an unsigned varint of length+1, 0 for
// null), a uuid as 16 bytes, and tagged fields (a varint count, here 0)
// after each struct:
//
//	type key                                value (version 0)
//	3    GroupId                            ConsumerGroupMetadata: int32 Epoch
//	4    GroupId                            ConsumerGroupPartitionMetadata: [TopicId uuid,
//	                                          TopicName, int32 NumPartitions,
//	                                          [PartitionMetadata: int32, [racks]]]
//	5    GroupId, MemberId                  ConsumerGroupMemberMetadata: InstanceId?, RackId?,
//	                                          ClientId, ClientHost, [SubscribedTopicNames],
//	                                          SubscribedTopicRegex?, int32 RebalanceTimeoutMs,
//	                                          ServerAssignor?, tag 0: ClassicMemberMetadata?
//	6    GroupId                            ConsumerGroupTargetAssignmentMetadata: int32 AssignmentEpoch
//	7    GroupId, MemberId                  ConsumerGroupTargetAssignmentMember:
//	                                          [TopicId uuid, [int32 Partitions]]
//	8    GroupId, MemberId                  ConsumerGroupCurrentMemberAssignment: int32 MemberEpoch,
//	                                          int32 PreviousMemberEpoch, int8 State,
//	                                          [AssignedPartitions], [PartitionsPendingRevocation]
//
// (? marks a nullable string.) A tombstone has a null value. Kafka 4.1's
// KIP-1101 replaces the partition metadata by a hash of the subscribed
// topics kept in the group's metadata record; this package writes 4.0's
// records and skips the tagged fields it does not know when it reads.

// ConsumerGroupRecordType is the key version that names a consumer group
// record (Kafka's CoordinatorRecordType).
type ConsumerGroupRecordType int16

// The record types of a consumer-protocol group, by key version.
const (
	// ConsumerGroupMetadataType: the group epoch.
	ConsumerGroupMetadataType ConsumerGroupRecordType = 3
	// ConsumerGroupPartitionMetadataType: the subscribed topics that exist.
	ConsumerGroupPartitionMetadataType ConsumerGroupRecordType = 4
	// ConsumerGroupMemberMetadataType: a member's subscription and identity.
	ConsumerGroupMemberMetadataType ConsumerGroupRecordType = 5
	// ConsumerGroupTargetAssignmentMetadataType: the target assignment epoch.
	ConsumerGroupTargetAssignmentMetadataType ConsumerGroupRecordType = 6
	// ConsumerGroupTargetAssignmentMemberType: a member's target assignment.
	ConsumerGroupTargetAssignmentMemberType ConsumerGroupRecordType = 7
	// ConsumerGroupCurrentMemberAssignmentType: a member's epochs, state and
	// what it owns.
	ConsumerGroupCurrentMemberAssignmentType ConsumerGroupRecordType = 8
)

var consumerGroupRecordTypeNames = map[ConsumerGroupRecordType]string{
	ConsumerGroupMetadataType:                 "ConsumerGroupMetadata",
	ConsumerGroupPartitionMetadataType:        "ConsumerGroupPartitionMetadata",
	ConsumerGroupMemberMetadataType:           "ConsumerGroupMemberMetadata",
	ConsumerGroupTargetAssignmentMetadataType: "ConsumerGroupTargetAssignmentMetadata",
	ConsumerGroupTargetAssignmentMemberType:   "ConsumerGroupTargetAssignmentMember",
	ConsumerGroupCurrentMemberAssignmentType:  "ConsumerGroupCurrentMemberAssignment",
}

// String returns Kafka's name of the record, e.g. ConsumerGroupMetadata.
func (t ConsumerGroupRecordType) String() string {
	if n, ok := consumerGroupRecordTypeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("ConsumerGroupRecordType(%d)", int16(t))
}

// hasMember reports whether the record's key names a member.
func (t ConsumerGroupRecordType) hasMember() bool {
	return t == ConsumerGroupMemberMetadataType || t == ConsumerGroupTargetAssignmentMemberType || t == ConsumerGroupCurrentMemberAssignmentType
}

// ConsumerGroupRecord is one record of a consumer-protocol group as
// stored, field for field: the key (Type, Group, MemberID) and, unless it
// is a tombstone, the one value its type has. Topics are named by id, as
// Kafka stores them.
type ConsumerGroupRecord struct {
	// Type names the record (the key's version).
	Type ConsumerGroupRecordType
	// Group is the group id; MemberID the member's, for the member records.
	Group, MemberID string
	// Tombstone: a null value; nothing below is set.
	Tombstone bool
	// Epoch is the group epoch (ConsumerGroupMetadata) or the target
	// assignment epoch (ConsumerGroupTargetAssignmentMetadata).
	Epoch int32
	// Topics is the subscription metadata (ConsumerGroupPartitionMetadata).
	Topics []TopicMetadata
	// Member is a member's metadata (ConsumerGroupMemberMetadata).
	Member ConsumerMemberMetadata
	// Partitions is a member's target assignment
	// (ConsumerGroupTargetAssignmentMember).
	Partitions []TopicIDPartitions
	// Current is a member's current assignment
	// (ConsumerGroupCurrentMemberAssignment).
	Current ConsumerMemberAssignment
}

// ConsumerMemberMetadata is ConsumerGroupMemberMetadataValue. An empty
// string stands for a null one in the nullable fields.
type ConsumerMemberMetadata struct {
	// InstanceID (group.instance.id), RackID (client.rack), ClientID and
	// ClientHost are the member's.
	InstanceID, RackID, ClientID, ClientHost string
	// SubscribedTopicNames are the names it subscribed to.
	SubscribedTopicNames []string
	// SubscribedTopicRegex is its regex subscription.
	SubscribedTopicRegex string
	// RebalanceTimeoutMs is its rebalance timeout (-1: not given).
	RebalanceTimeoutMs int32
	// ServerAssignor is the assignor it asked for.
	ServerAssignor string
}

// ConsumerMemberAssignment is ConsumerGroupCurrentMemberAssignmentValue.
type ConsumerMemberAssignment struct {
	// MemberEpoch is the epoch the member must heartbeat with, and
	// PreviousMemberEpoch the one before (a lost answer's retry).
	MemberEpoch, PreviousMemberEpoch int32
	// State is the member's reconciliation state (MemberState's byte).
	State ConsumerMemberState
	// Assigned is what it owns; Revoking what it must give up.
	Assigned, Revoking []TopicIDPartitions
}

// TopicIDPartitions is a topic id with partitions of it.
type TopicIDPartitions struct {
	// TopicID is the topic id (KIP-516).
	TopicID [16]byte
	// Partitions are the partitions.
	Partitions []int32
}

// AppendConsumerGroupRecordKey appends rec's key to dst.
func AppendConsumerGroupRecordKey(dst []byte, rec ConsumerGroupRecord) []byte {
	dst = binary.BigEndian.AppendUint16(dst, uint16(rec.Type))
	dst = appendString(dst, rec.Group)
	if rec.Type.hasMember() {
		dst = appendString(dst, rec.MemberID)
	}
	return dst
}

// AppendConsumerGroupRecordValue appends rec's value (version 0) to dst.
// A tombstone has no value: write a null value instead of calling this.
func AppendConsumerGroupRecordValue(dst []byte, rec ConsumerGroupRecord) []byte {
	dst = binary.BigEndian.AppendUint16(dst, 0)
	switch rec.Type {
	case ConsumerGroupMetadataType, ConsumerGroupTargetAssignmentMetadataType:
		dst = binary.BigEndian.AppendUint32(dst, uint32(rec.Epoch))
	case ConsumerGroupPartitionMetadataType:
		dst = appendCompactLen(dst, len(rec.Topics))
		for _, t := range rec.Topics {
			dst = append(dst, t.ID[:]...)
			dst = appendCompactString(dst, t.Topic)
			dst = binary.BigEndian.AppendUint32(dst, uint32(t.Partitions))
			dst = appendCompactLen(dst, 0) // PartitionMetadata: no racks (unused after 4.0)
			dst = append(dst, 0)           // tagged fields
		}
	case ConsumerGroupMemberMetadataType:
		m := rec.Member
		dst = appendCompactNullable(dst, m.InstanceID)
		dst = appendCompactNullable(dst, m.RackID)
		dst = appendCompactString(dst, m.ClientID)
		dst = appendCompactString(dst, m.ClientHost)
		dst = appendCompactLen(dst, len(m.SubscribedTopicNames))
		for _, n := range m.SubscribedTopicNames {
			dst = appendCompactString(dst, n)
		}
		dst = appendCompactNullable(dst, m.SubscribedTopicRegex)
		dst = binary.BigEndian.AppendUint32(dst, uint32(m.RebalanceTimeoutMs))
		dst = appendCompactNullable(dst, m.ServerAssignor)
	case ConsumerGroupTargetAssignmentMemberType:
		dst = appendTopicIDPartitions(dst, rec.Partitions)
	case ConsumerGroupCurrentMemberAssignmentType:
		c := rec.Current
		dst = binary.BigEndian.AppendUint32(dst, uint32(c.MemberEpoch))
		dst = binary.BigEndian.AppendUint32(dst, uint32(c.PreviousMemberEpoch))
		dst = append(dst, byte(c.State))
		dst = appendTopicIDPartitions(dst, c.Assigned)
		dst = appendTopicIDPartitions(dst, c.Revoking)
	}
	return append(dst, 0) // tagged fields
}

// ReadConsumerGroupRecord decodes a __consumer_offsets record that should
// be a consumer group record; a nil value is a tombstone. It returns
// [ErrNotConsumerGroupRecord] for a key of another kind (an offset commit,
// a classic group's metadata, a share or streams group's record) and
// [ErrCorruptOffsetRecord], naming the field, for bytes it cannot read.
func ReadConsumerGroupRecord(key, value []byte) (ConsumerGroupRecord, error) {
	var rec ConsumerGroupRecord
	k := reader{b: key, what: "key"}
	v := k.int16("version")
	switch t := ConsumerGroupRecordType(v); {
	case k.err != nil:
		return rec, k.err
	case v < 0:
		return rec, fmt.Errorf("key version %d: %w", v, ErrCorruptOffsetRecord)
	case consumerGroupRecordTypeNames[t] == "":
		return rec, fmt.Errorf("key version %d: %w", v, ErrNotConsumerGroupRecord)
	}
	rec.Type = ConsumerGroupRecordType(v)
	rec.Group = k.string("group")
	if rec.Type.hasMember() {
		rec.MemberID = k.string("memberId")
	}
	if err := k.done(); err != nil {
		return rec, err
	}
	if value == nil {
		rec.Tombstone = true
		return rec, nil
	}
	r := reader{b: value, what: "value", flexible: true}
	if ver := r.int16("version"); r.err == nil && ver != 0 {
		return rec, fmt.Errorf("%s value version %d: %w", rec.Type, ver, ErrCorruptOffsetRecord)
	}
	readConsumerGroupValue(&r, &rec)
	r.taggedFields()
	return rec, r.done()
}

func readConsumerGroupValue(r *reader, rec *ConsumerGroupRecord) {
	switch rec.Type {
	case ConsumerGroupMetadataType, ConsumerGroupTargetAssignmentMetadataType:
		rec.Epoch = r.int32("epoch")
	case ConsumerGroupPartitionMetadataType:
		n := r.arrayLen("topics")
		for i := 0; i < n && r.err == nil; i++ {
			t := TopicMetadata{ID: r.uuid("topicId"), Topic: r.string("topicName"), Partitions: r.int32("numPartitions")}
			for j := r.arrayLen("partitionMetadata"); j > 0 && r.err == nil; j-- {
				r.int32("partition")
				for k := r.arrayLen("racks"); k > 0 && r.err == nil; k-- {
					r.string("rack")
				}
				r.taggedFields()
			}
			r.taggedFields()
			rec.Topics = append(rec.Topics, t)
		}
	case ConsumerGroupMemberMetadataType:
		m := &rec.Member
		m.InstanceID = deref(r.nullableString("instanceId"))
		m.RackID = deref(r.nullableString("rackId"))
		m.ClientID = r.string("clientId")
		m.ClientHost = r.string("clientHost")
		n := r.arrayLen("subscribedTopicNames")
		for i := 0; i < n && r.err == nil; i++ {
			m.SubscribedTopicNames = append(m.SubscribedTopicNames, r.string("subscribedTopicName"))
		}
		m.SubscribedTopicRegex = deref(r.nullableString("subscribedTopicRegex"))
		m.RebalanceTimeoutMs = r.int32("rebalanceTimeoutMs")
		m.ServerAssignor = deref(r.nullableString("serverAssignor"))
	case ConsumerGroupTargetAssignmentMemberType:
		rec.Partitions = readTopicIDPartitions(r, "topicPartitions")
	case ConsumerGroupCurrentMemberAssignmentType:
		c := &rec.Current
		c.MemberEpoch = r.int32("memberEpoch")
		c.PreviousMemberEpoch = r.int32("previousMemberEpoch")
		c.State = ConsumerMemberState(r.int8("state"))
		c.Assigned = readTopicIDPartitions(r, "assignedPartitions")
		c.Revoking = readTopicIDPartitions(r, "partitionsPendingRevocation")
	}
}

func appendTopicIDPartitions(dst []byte, tps []TopicIDPartitions) []byte {
	dst = appendCompactLen(dst, len(tps))
	for _, t := range tps {
		dst = append(dst, t.TopicID[:]...)
		dst = appendCompactLen(dst, len(t.Partitions))
		for _, p := range t.Partitions {
			dst = binary.BigEndian.AppendUint32(dst, uint32(p))
		}
		dst = append(dst, 0) // tagged fields
	}
	return dst
}

func readTopicIDPartitions(r *reader, field string) []TopicIDPartitions {
	var out []TopicIDPartitions
	n := r.arrayLen(field)
	for i := 0; i < n && r.err == nil; i++ {
		t := TopicIDPartitions{TopicID: r.uuid("topicId")}
		m := r.arrayLen("partitions")
		if r.err == nil && m > len(r.b)/4 {
			r.fail("partitions", "%d partitions in %d bytes", m, len(r.b))
		}
		for j := 0; j < m && r.err == nil; j++ {
			t.Partitions = append(t.Partitions, r.int32("partition"))
		}
		r.taggedFields()
		out = append(out, t)
	}
	return out
}

// appendCompactLen appends a compact length: an unsigned varint of n+1.
func appendCompactLen(dst []byte, n int) []byte {
	return binary.AppendUvarint(dst, uint64(n)+1)
}

func appendCompactString(dst []byte, s string) []byte {
	return append(appendCompactLen(dst, len(s)), s...)
}

// appendCompactNullable appends s as a compact nullable string, "" as null.
func appendCompactNullable(dst []byte, s string) []byte {
	if s == "" {
		return append(dst, 0)
	}
	return appendCompactString(dst, s)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
