package group

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf16"
)

// The bytes of a committed offset in the compacted __consumer_offsets topic
// (Kafka's OffsetCommitKey and OffsetCommitValue, group-coordinator
// resources; GroupMetadataManager before 3.7). Big-endian, strings as an
// int16 length and UTF-8 bytes:
//
//	key   int16 version (0 or 1: an offset commit; 2 is group metadata)
//	      string group, string topic, int32 partition
//	value int16 version 3 (Kafka 2.1+): int64 offset, int32 leaderEpoch,
//	      string metadata, int64 commitTimestamp
//	      (v0 and v2: no leaderEpoch; v1 adds int64 expireTimestamp at the end;
//	      v4 is v3 flexible: compact strings, tagged fields)
//	      a tombstone (offset deleted) has a null value.
const (
	offsetCommitKeyVersion   int16 = 1
	groupMetadataKeyVersion  int16 = 2
	offsetCommitValueVersion int16 = 3
)

// Errors of the __consumer_offsets record codec.
var (
	// ErrCorruptOffsetRecord: the bytes are not a valid offset commit record.
	ErrCorruptOffsetRecord = errors.New("group: corrupt __consumer_offsets record")
	// ErrNotOffsetCommit: a valid key of another record type (group
	// metadata); a loader skips it.
	ErrNotOffsetCommit = errors.New("group: __consumer_offsets record is not an offset commit")
	// ErrNotGroupMetadata: a valid key of another record type (an offset
	// commit, a consumer-protocol group's record).
	ErrNotGroupMetadata = errors.New("group: __consumer_offsets record is not group metadata")
	// ErrNotConsumerGroupRecord: a key of another record type than a
	// consumer-protocol group's (an offset commit, a classic group's
	// metadata, a record of a kind this package does not read).
	ErrNotConsumerGroupRecord = errors.New("group: __consumer_offsets record is not a consumer group record")
)

// AppendOffsetCommitKey appends the record key of (group, tp) to dst.
// Strings longer than 32767 bytes do not fit the format; the coordinator
// refuses such commits, so its records always encode.
func AppendOffsetCommitKey(dst []byte, group string, tp TopicPartition) []byte {
	dst = binary.BigEndian.AppendUint16(dst, uint16(offsetCommitKeyVersion))
	dst = appendString(dst, group)
	dst = appendString(dst, tp.Topic)
	return binary.BigEndian.AppendUint32(dst, uint32(tp.Partition))
}

// AppendOffsetCommitValue appends the version-3 record value of rec to dst.
// A tombstone has no value: write a null value instead of calling this.
func AppendOffsetCommitValue(dst []byte, rec OffsetCommitRecord) []byte {
	dst = binary.BigEndian.AppendUint16(dst, uint16(offsetCommitValueVersion))
	dst = binary.BigEndian.AppendUint64(dst, uint64(rec.Offset))
	dst = binary.BigEndian.AppendUint32(dst, uint32(rec.LeaderEpoch))
	dst = appendString(dst, rec.Metadata)
	return binary.BigEndian.AppendUint64(dst, uint64(rec.CommitTimestampMs))
}

// ReadOffsetCommit decodes a __consumer_offsets record; a nil value is a
// tombstone. It accepts value versions 0 to 4 (4 is flexible) and returns
// [ErrNotOffsetCommit] for the keys of other records (key version 2 and
// above: a group's metadata, Kafka 4's consumer group records) and [ErrCorruptOffsetRecord]
// for anything else it cannot read, wrapped with the field.
func ReadOffsetCommit(key, value []byte) (OffsetCommitRecord, error) {
	var rec OffsetCommitRecord
	k := reader{b: key, what: "key"}
	switch v := k.int16("version"); {
	case k.err != nil:
		return rec, k.err
	case v >= groupMetadataKeyVersion:
		return rec, fmt.Errorf("key version %d: %w", v, ErrNotOffsetCommit)
	case v != 0 && v != 1:
		return rec, fmt.Errorf("key version %d: %w", v, ErrCorruptOffsetRecord)
	}
	rec.Group = k.string("group")
	rec.Topic = k.string("topic")
	rec.Partition = k.int32("partition")
	if err := k.done(); err != nil {
		return rec, err
	}
	if value == nil {
		rec.Tombstone = true
		return rec, nil
	}
	return rec, readOffsetCommitValue(&rec, value)
}

func readOffsetCommitValue(rec *OffsetCommitRecord, value []byte) error {
	r := reader{b: value, what: "value"}
	version := r.int16("version")
	if r.err == nil && (version < 0 || version > 4) {
		return fmt.Errorf("value version %d: %w", version, ErrCorruptOffsetRecord)
	}
	r.flexible = version >= 4
	rec.Offset = r.int64("offset")
	rec.LeaderEpoch = -1
	if version >= 3 {
		rec.LeaderEpoch = r.int32("leaderEpoch")
	}
	rec.Metadata = r.string("metadata")
	rec.CommitTimestampMs = r.int64("commitTimestamp")
	if version == 1 {
		r.int64("expireTimestamp")
	}
	r.taggedFields()
	return r.done()
}

// OffsetsPartition is the __consumer_offsets partition that holds groupID's
// offsets, whose leader is the group's coordinator
// (GroupMetadataManager.partitionFor):
// Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions (50 by
// default), with Java's String.hashCode over UTF-16 code units.
func OffsetsPartition(groupID string, numPartitions int32) (int32, error) {
	if numPartitions < 1 {
		return 0, fmt.Errorf("offsets partition of group %q among %d: %w", groupID, numPartitions, ErrInvalidConfig)
	}
	var h int32
	for _, u := range utf16.Encode([]rune(groupID)) {
		h = 31*h + int32(u)
	}
	if h == -1<<31 {
		h = 0 // Utils.abs maps Integer.MIN_VALUE to 0
	} else if h < 0 {
		h = -h
	}
	return h % numPartitions, nil
}

func appendString(dst []byte, s string) []byte {
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(s)))
	return append(dst, s...)
}
