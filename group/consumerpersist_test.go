package group_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/group"
)

// recordNames lists records as "Type[member]" ("!" marks a tombstone).
func recordNames(recs []group.ConsumerGroupRecord) []string {
	out := []string{}
	for _, r := range recs {
		s := r.Type.String()
		if r.MemberID != "" {
			s += "[" + r.MemberID + "]"
		}
		if r.Tombstone {
			s += "!"
		}
		if r.Type == group.ConsumerGroupMetadataType || r.Type == group.ConsumerGroupTargetAssignmentMetadataType {
			if !r.Tombstone {
				s += fmt.Sprintf("=%d", r.Epoch)
			}
		}
		out = append(out, s)
	}
	return out
}

// TestConsumerGroupRecordsInKafkasOrder: what each operation writes, in
// the order Kafka 4's GroupMetadataManager writes it: a join (member
// metadata, subscription metadata, group epoch, target, target epoch,
// current assignment), a heartbeat that changes nothing (no record), a
// leave (the member's three tombstones, then the new subscription and
// epoch), a deletion (createGroupTombstoneRecords).
func TestConsumerGroupRecordsInKafkasOrder(t *testing.T) {
	c, err := group.NewConsumerGroupCoordinator(group.DefaultConsumerGroupConfig(), &group.MemoryOffsetStore{}, 0)
	require.NoError(t, err)
	c.SetTopics([]group.TopicMetadata{{Topic: "t", Partitions: 2, ID: topicID("t")}})
	beat := func(r group.ConsumerGroupHeartbeat) []string {
		t.Helper()
		r.GroupID = "g"
		require.NoError(t, c.Step("a#1", r))
		rd := c.Ready()
		require.Len(t, rd.Responses, 1)
		resp := rd.Responses[0].Response.(group.ConsumerGroupHeartbeatResponse)
		require.Equal(t, group.None, resp.Error, resp.Message)
		return recordNames(rd.ConsumerGroups)
	}
	join := group.ConsumerGroupHeartbeat{MemberID: "m1", MemberEpoch: 0, RebalanceTimeoutMs: 300000, SubscribedTopicNames: []string{"t"}, Owned: []group.TopicPartition{}}
	for _, step := range []struct {
		name string
		do   func() []string
		want []string
	}{{
		name: "first join",
		do:   func() []string { return beat(join) },
		want: []string{"ConsumerGroupMemberMetadata[m1]", "ConsumerGroupPartitionMetadata", "ConsumerGroupMetadata=1",
			"ConsumerGroupTargetAssignmentMember[m1]", "ConsumerGroupTargetAssignmentMetadata=1", "ConsumerGroupCurrentMemberAssignment[m1]"},
	}, {
		name: "a heartbeat that changes nothing",
		do: func() []string {
			return beat(group.ConsumerGroupHeartbeat{MemberID: "m1", MemberEpoch: 1, RebalanceTimeoutMs: -1})
		},
		want: []string{},
	}, {
		name: "a second member joins: the first keeps its target until it revokes",
		do: func() []string {
			j := join
			j.MemberID = "m2"
			return beat(j)
		},
		want: []string{"ConsumerGroupMemberMetadata[m2]", "ConsumerGroupMetadata=2", "ConsumerGroupTargetAssignmentMember[m1]",
			"ConsumerGroupTargetAssignmentMember[m2]", "ConsumerGroupTargetAssignmentMetadata=2", "ConsumerGroupCurrentMemberAssignment[m2]"},
	}, {
		name: "the first leaves",
		do: func() []string {
			return beat(group.ConsumerGroupHeartbeat{MemberID: "m1", MemberEpoch: group.LeaveGroupMemberEpoch, RebalanceTimeoutMs: -1})
		},
		want: []string{"ConsumerGroupCurrentMemberAssignment[m1]!", "ConsumerGroupTargetAssignmentMember[m1]!",
			"ConsumerGroupMemberMetadata[m1]!", "ConsumerGroupMetadata=3"},
	}, {
		name: "the second leaves",
		do: func() []string {
			return beat(group.ConsumerGroupHeartbeat{MemberID: "m2", MemberEpoch: group.LeaveGroupMemberEpoch, RebalanceTimeoutMs: -1})
		},
		want: []string{"ConsumerGroupCurrentMemberAssignment[m2]!", "ConsumerGroupTargetAssignmentMember[m2]!",
			"ConsumerGroupMemberMetadata[m2]!", "ConsumerGroupPartitionMetadata", "ConsumerGroupMetadata=4"},
	}, {
		name: "the empty group is deleted",
		do: func() []string {
			require.Equal(t, group.None, c.DeleteGroup("g"))
			return recordNames(c.Ready().ConsumerGroups)
		},
		want: []string{"ConsumerGroupTargetAssignmentMetadata!", "ConsumerGroupPartitionMetadata!", "ConsumerGroupMetadata!"},
	}} {
		if diff := cmp.Diff(step.want, step.do()); diff != "" {
			t.Errorf("%s: records (-want +got):\n%s", step.name, diff)
		}
	}
}
