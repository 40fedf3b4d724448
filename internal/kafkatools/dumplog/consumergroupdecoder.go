package dumplog

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/group"
)

// A consumer-protocol group's records (KIP-848; key types 3 to 8), as
// Kafka 4's dump-log --offsets-decoder prints them through the generated
// JSON converters: the key's fields (groupId, and memberId for a member's
// records) and the value's, named as in the group-coordinator's
// ConsumerGroup*Key and *Value schemas; a Uuid as Uuid.toString prints it
// (unpadded base64url); the ClassicMemberMetadata tagged field left out
// when null, as the converter leaves it out. Bytes are read by the group
// package's codec, the one the coordinator writes and loads with.

// consumerGroupKey prints a consumer group record's key, or reports that
// it does not read.
func consumerGroupKey(key []byte) (string, bool) {
	rec, err := group.ReadConsumerGroupRecord(key, nil)
	if err != nil {
		return "", false
	}
	var j jsonObject
	j.str("groupId", &rec.Group)
	if rec.MemberID != "" || isMemberRecord(rec.Type) {
		j.str("memberId", &rec.MemberID)
	}
	return `{"type":"` + strconv.Itoa(int(rec.Type)) + `","data":` + j.String() + "}", true
}

func isMemberRecord(t group.ConsumerGroupRecordType) bool {
	return t == group.ConsumerGroupMemberMetadataType || t == group.ConsumerGroupTargetAssignmentMemberType ||
		t == group.ConsumerGroupCurrentMemberAssignmentType
}

// consumerGroupValue prints a consumer group record's value (version 0).
func consumerGroupValue(key, value []byte) (string, error) {
	rec, err := group.ReadConsumerGroupRecord(key, value)
	if err != nil {
		return "", err
	}
	var j jsonObject
	switch rec.Type {
	case group.ConsumerGroupMetadataType:
		j.num("epoch", int64(rec.Epoch))
	case group.ConsumerGroupTargetAssignmentMetadataType:
		j.num("assignmentEpoch", int64(rec.Epoch))
	case group.ConsumerGroupPartitionMetadataType:
		topics := make([]string, len(rec.Topics))
		for i, t := range rec.Topics {
			var tj jsonObject
			tj.raw("topicId", uuidJSON(t.ID))
			tj.str("topicName", &t.Topic)
			tj.num("numPartitions", int64(t.Partitions))
			tj.raw("partitionMetadata", "[]")
			topics[i] = tj.String()
		}
		j.raw("topics", "["+strings.Join(topics, ",")+"]")
	case group.ConsumerGroupMemberMetadataType:
		m := rec.Member
		j.str("instanceId", nullable(m.InstanceID))
		j.str("rackId", nullable(m.RackID))
		j.str("clientId", &m.ClientID)
		j.str("clientHost", &m.ClientHost)
		names := make([]string, len(m.SubscribedTopicNames))
		for i, n := range m.SubscribedTopicNames {
			names[i] = jsonString(n)
		}
		j.raw("subscribedTopicNames", "["+strings.Join(names, ",")+"]")
		j.str("subscribedTopicRegex", nullable(m.SubscribedTopicRegex))
		j.num("rebalanceTimeoutMs", int64(m.RebalanceTimeoutMs))
		j.str("serverAssignor", nullable(m.ServerAssignor))
	case group.ConsumerGroupTargetAssignmentMemberType:
		j.raw("topicPartitions", topicIDPartitionsJSON(rec.Partitions))
	case group.ConsumerGroupCurrentMemberAssignmentType:
		c := rec.Current
		j.num("memberEpoch", int64(c.MemberEpoch))
		j.num("previousMemberEpoch", int64(c.PreviousMemberEpoch))
		j.num("state", int64(c.State))
		j.raw("assignedPartitions", topicIDPartitionsJSON(c.Assigned))
		j.raw("partitionsPendingRevocation", topicIDPartitionsJSON(c.Revoking))
	}
	return versioned(0, j.String()), nil
}

// nullable is "" as null, as the codec reads a null string.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func uuidJSON(id [16]byte) string {
	return `"` + base64.RawURLEncoding.EncodeToString(id[:]) + `"`
}

func topicIDPartitionsJSON(tps []group.TopicIDPartitions) string {
	out := make([]string, len(tps))
	for i, t := range tps {
		ps := make([]string, len(t.Partitions))
		for k, p := range t.Partitions {
			ps[k] = strconv.Itoa(int(p))
		}
		var tj jsonObject
		tj.raw("topicId", uuidJSON(t.TopicID))
		tj.raw("partitions", "["+strings.Join(ps, ",")+"]")
		out[i] = tj.String()
	}
	return "[" + strings.Join(out, ",") + "]"
}
