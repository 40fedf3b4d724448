package broker

import (
	"fmt"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/group"
)

// consumerGroupDescribe answers ConsumerGroupDescribe (v0-v1, KIP-848 and
// KIP-1099) for the groups b coordinates, as Kafka 4's
// GroupMetadataManager.consumerGroupDescribe does: each group's state,
// epoch, target assignment epoch and assignor, and each member's epoch,
// assignment and target assignment (topics by id and name); a group that
// is not a consumer group (a classic one, or none) is GROUP_ID_NOT_FOUND,
// the empty id INVALID_GROUP_ID, a group of another coordinator
// NOT_COORDINATOR.
func (b *Broker) consumerGroupDescribe(env Env, r *kmsg.ConsumerGroupDescribeRequest) *kmsg.ConsumerGroupDescribeResponse {
	resp := r.ResponseKind().(*kmsg.ConsumerGroupDescribeResponse)
	ids := topicIDs(env)
	for _, name := range r.Groups {
		d := kmsg.NewConsumerGroupDescribeResponseGroup()
		d.Group = name
		var st group.ConsumerGroupStatus
		ok := false
		switch {
		case name == "":
			d.ErrorCode = kafkaerr.InvalidGroupID
		case !b.Coordinates(env, name):
			d.ErrorCode = kafkaerr.NotCoordinator
		default:
			if cg := b.RunningConsumerGroups(); cg != nil {
				st, ok = cg.Group(name)
			}
			if !ok {
				d.ErrorCode, d.ErrorMessage = int16(group.GroupIDNotFound), ptr(fmt.Sprintf("Group %s not found.", name))
			}
		}
		if ok {
			d.State, d.Epoch, d.AssignmentEpoch, d.AssignorName = st.State.String(), st.GroupEpoch, st.AssignmentEpoch, st.AssignorName
			for _, m := range st.Members {
				d.Members = append(d.Members, describedMember(r.Version, m, ids))
			}
		}
		resp.Groups = append(resp.Groups, d)
	}
	return resp
}

// describedMember is one member of a described group.
func describedMember(version int16, m group.ConsumerMemberStatus, ids map[string][16]byte) kmsg.ConsumerGroupDescribeResponseGroupMember {
	dm := kmsg.NewConsumerGroupDescribeResponseGroupMember()
	dm.MemberID, dm.MemberEpoch, dm.ClientID, dm.ClientHost = m.MemberID, m.MemberEpoch, m.ClientID, m.ClientHost
	if dm.ClientHost == "" {
		dm.ClientHost = GroupHost
	}
	if m.InstanceID != "" {
		dm.InstanceID = ptr(m.InstanceID)
	}
	if m.RackID != "" {
		dm.RackID = ptr(m.RackID)
	}
	dm.SubscribedTopics = slices.Clone(m.SubscribedTopics)
	if m.SubscribedTopicRegex != "" {
		dm.SubscribedTopicRegex = ptr(m.SubscribedTopicRegex)
	}
	dm.Assignment = describedAssignment(m.Assigned, ids)
	dm.TargetAssignment = describedAssignment(m.Target, ids)
	if version >= 1 {
		dm.MemberType = 1 // the consumer protocol (KIP-1099); 0 is a classic member of a consumer group
	}
	return dm
}

// describedAssignment groups partitions by topic, with its id and name.
func describedAssignment(tps []group.TopicPartition, ids map[string][16]byte) kmsg.Assignment {
	a := kmsg.NewAssignment()
	for _, tp := range tps {
		if n := len(a.TopicPartitions); n == 0 || a.TopicPartitions[n-1].Topic != tp.Topic {
			t := kmsg.NewAssignmentTopicPartition()
			t.Topic, t.TopicID = tp.Topic, ids[tp.Topic]
			a.TopicPartitions = append(a.TopicPartitions, t)
		}
		t := &a.TopicPartitions[len(a.TopicPartitions)-1]
		t.Partitions = append(t.Partitions, tp.Partition)
	}
	return a
}
