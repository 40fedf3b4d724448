package group

import (
	"encoding/binary"
	"fmt"
)

// The bytes of a classic group's metadata in __consumer_offsets (Kafka's
// GroupMetadataKey and GroupMetadataValue, group-coordinator resources at
// 3.7; GroupMetadataManager.groupMetadataKey and groupMetadataValue write
// them, readGroupMessageValue reads them). Big-endian; a string is an int16
// length (-1: null) and UTF-8 bytes, bytes an int32 length and the bytes,
// an array an int32 count:
//
//	key   int16 version 2, string group
//	value int16 version, string protocolType, int32 generation,
//	      nullable string protocol, nullable string leader,
//	      int64 currentStateTimestamp (v2+),
//	      [member: string memberId, nullable string groupInstanceId (v3+),
//	       string clientId, string clientHost, int32 rebalanceTimeout (v1+),
//	       int32 sessionTimeout, bytes subscription, bytes assignment]
//	      a tombstone (group deleted) has a null value.
//
// Version 4 is flexible (compact lengths as unsigned varints of length+1,
// tagged fields after each struct); Kafka 3.7 writes version 3
// ("the highest supported non-flexible version"), and so does
// [AppendGroupMetadataValue].
const groupMetadataValueVersion int16 = 3

// GroupMetadataValue is a classic group's record value as stored, field
// for field (Kafka's GroupMetadataValue). A nil string pointer is a null.
type GroupMetadataValue struct {
	// Version is the value's schema version, 0 to 4.
	Version int16
	// ProtocolType is the group's protocol type, "" when it has none.
	ProtocolType string
	// Generation is the group's generation.
	Generation int32
	// Protocol is the chosen assignor, null for an Empty group.
	Protocol *string
	// Leader is the leader's member id, null for an Empty group.
	Leader *string
	// CurrentStateTimestampMs is when the group last changed state, -1 when
	// unknown (always before version 2).
	CurrentStateTimestampMs int64
	// Members are the members in the order Kafka's coordinator lists them.
	Members []GroupMetadataMember
}

// GroupMetadataMember is one member in a [GroupMetadataValue].
type GroupMetadataMember struct {
	// MemberID is the coordinator-given member id.
	MemberID string
	// GroupInstanceID is the static member's group.instance.id, null for a
	// dynamic member (and before version 3).
	GroupInstanceID *string
	// ClientID and ClientHost are the member's client.id and address.
	ClientID, ClientHost string
	// RebalanceTimeoutMs is -1 before version 1 (Kafka then reads the
	// session timeout in its place).
	RebalanceTimeoutMs int32
	// SessionTimeoutMs is the member's session.timeout.ms.
	SessionTimeoutMs int32
	// Subscription is the member's metadata for the group's protocol
	// (ConsumerProtocolSubscription for the "consumer" type).
	Subscription []byte
	// Assignment is the leader's assignment for the member
	// (ConsumerProtocolAssignment for the "consumer" type), empty if none.
	Assignment []byte
}

// AppendGroupMetadataKey appends the record key of group's metadata to dst.
func AppendGroupMetadataKey(dst []byte, group string) []byte {
	dst = binary.BigEndian.AppendUint16(dst, uint16(groupMetadataKeyVersion))
	return appendString(dst, group)
}

// AppendGroupMetadataValue appends v as a version-3 value, whatever
// v.Version says (Kafka 3.7 writes only that version). A tombstone has no
// value: write a null value instead of calling this.
func AppendGroupMetadataValue(dst []byte, v GroupMetadataValue) []byte {
	dst = binary.BigEndian.AppendUint16(dst, uint16(groupMetadataValueVersion))
	dst = appendString(dst, v.ProtocolType)
	dst = binary.BigEndian.AppendUint32(dst, uint32(v.Generation))
	dst = appendNullableString(dst, v.Protocol)
	dst = appendNullableString(dst, v.Leader)
	dst = binary.BigEndian.AppendUint64(dst, uint64(v.CurrentStateTimestampMs))
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(v.Members)))
	for _, m := range v.Members {
		dst = appendString(dst, m.MemberID)
		dst = appendNullableString(dst, m.GroupInstanceID)
		dst = appendString(dst, m.ClientID)
		dst = appendString(dst, m.ClientHost)
		dst = binary.BigEndian.AppendUint32(dst, uint32(m.RebalanceTimeoutMs))
		dst = binary.BigEndian.AppendUint32(dst, uint32(m.SessionTimeoutMs))
		dst = appendBytes(dst, m.Subscription)
		dst = appendBytes(dst, m.Assignment)
	}
	return dst
}

// ReadGroupMetadataKey decodes a __consumer_offsets key that should be a
// group's metadata key, returning the group; [ErrNotGroupMetadata] for
// another record's key (an offset commit's, versions 0 and 1; Kafka 4's
// consumer group records, 3 and above), [ErrCorruptOffsetRecord] for
// anything else it cannot read.
func ReadGroupMetadataKey(key []byte) (string, error) {
	k := reader{b: key, what: "key"}
	switch v := k.int16("version"); {
	case k.err != nil:
		return "", k.err
	case v == 0 || v == 1 || v > groupMetadataKeyVersion:
		return "", fmt.Errorf("key version %d: %w", v, ErrNotGroupMetadata)
	case v != groupMetadataKeyVersion:
		return "", fmt.Errorf("key version %d: %w", v, ErrCorruptOffsetRecord)
	}
	group := k.string("group")
	return group, k.done()
}

// ReadGroupMetadataValue decodes a group metadata value of any version
// Kafka 3.7 reads (0 to 4), as GroupMetadataManager.readGroupMessageValue
// does; a null value is a tombstone, which the caller tells apart before
// calling this. Errors wrap [ErrCorruptOffsetRecord] and name the field.
func ReadGroupMetadataValue(value []byte) (GroupMetadataValue, error) {
	r := reader{b: value, what: "value"}
	v := GroupMetadataValue{Version: r.int16("version"), CurrentStateTimestampMs: -1}
	if r.err == nil && (v.Version < 0 || v.Version > 4) {
		return v, fmt.Errorf("value version %d: %w", v.Version, ErrCorruptOffsetRecord)
	}
	r.flexible = v.Version >= 4
	v.ProtocolType = r.string("protocolType")
	v.Generation = r.int32("generation")
	v.Protocol = r.nullableString("protocol")
	v.Leader = r.nullableString("leader")
	if v.Version >= 2 {
		v.CurrentStateTimestampMs = r.int64("currentStateTimestamp")
	}
	n := r.arrayLen("members")
	for i := 0; i < n && r.err == nil; i++ {
		v.Members = append(v.Members, readGroupMetadataMember(&r, v.Version))
	}
	r.taggedFields()
	return v, r.done()
}

func readGroupMetadataMember(r *reader, version int16) GroupMetadataMember {
	m := GroupMetadataMember{MemberID: r.string("memberId"), RebalanceTimeoutMs: -1}
	if version >= 3 {
		m.GroupInstanceID = r.nullableString("groupInstanceId")
	}
	m.ClientID = r.string("clientId")
	m.ClientHost = r.string("clientHost")
	if version >= 1 {
		m.RebalanceTimeoutMs = r.int32("rebalanceTimeout")
	}
	m.SessionTimeoutMs = r.int32("sessionTimeout")
	m.Subscription = r.bytes("subscription")
	m.Assignment = r.bytes("assignment")
	r.taggedFields()
	return m
}

func appendNullableString(dst []byte, s *string) []byte {
	if s == nil {
		return binary.BigEndian.AppendUint16(dst, 0xffff)
	}
	return appendString(dst, *s)
}

func appendBytes(dst, b []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(b)))
	return append(dst, b...)
}
