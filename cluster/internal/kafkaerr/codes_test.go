package kafkaerr

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/replica"
)

// TestName names codes of each of the three tables as Kafka's Errors
// does, and an unknown code ERROR_n.
func TestName(t *testing.T) {
	for _, c := range []struct {
		code int16
		want string
	}{
		{UnknownServerError, "UNKNOWN_SERVER_ERROR"},
		{InvalidConfig, "INVALID_CONFIG"},
		{PolicyViolation, "POLICY_VIOLATION"},
		{UnknownTopicID, "UNKNOWN_TOPIC_ID"},
		{int16(replica.NotEnoughReplicas), "NOT_ENOUGH_REPLICAS"},
		{int16(replica.FencedLeaderEpoch), "FENCED_LEADER_EPOCH"},
		{int16(group.UnknownMemberID), "UNKNOWN_MEMBER_ID"},
		{int16(group.RebalanceInProgress), "REBALANCE_IN_PROGRESS"},
		{9999, "ERROR_9999"},
	} {
		if diff := cmp.Diff(c.want, Name(c.code)); diff != "" {
			t.Errorf("Name(%d) (-want +got):\n%s", c.code, diff)
		}
	}
}

// TestNamesAgree checks that a code the replica's or the group's table
// names too has one name everywhere, and that every code of this package
// is named.
func TestNamesAgree(t *testing.T) {
	for code, name := range names {
		if r := replica.ErrorCode(code).String(); !strings.HasPrefix(r, "ERROR_") && r != name {
			t.Errorf("code %d: %s here, %s in replica", code, name, r)
		}
		if g := group.ErrorCode(code).String(); !strings.HasPrefix(g, "UNKNOWN_SERVER_ERROR(") && g != name {
			t.Errorf("code %d: %s here, %s in group", code, name, g)
		}
	}
	for _, code := range []int16{UnknownServerError, OffsetOutOfRange, CorruptMessage, UnknownTopicOrPartition, LeaderNotAvailable,
		NotLeaderOrFollower, MessageTooLarge, CoordinatorNotAvailable, NotCoordinator, InvalidTopicException, RecordListTooLarge,
		InvalidRequiredAcks, InvalidGroupID, InvalidTimestamp, UnsupportedVersion, TopicAlreadyExists, InvalidPartitions,
		InvalidReplicationFactor, InvalidReplicaAssignment, InvalidConfig, InvalidRequest, PolicyViolation, InvalidRecord, UnknownTopicID,
		RequestTimedOut, KafkaStorageError, MismatchedEndpointType, UnsupportedEndpointType} {
		if n := Name(code); strings.HasPrefix(n, "ERROR_") {
			t.Errorf("code %d has no name", code)
		}
	}
}
