package broker

import (
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/group"
)

// consumerGroupHeartbeat hands a ConsumerGroupHeartbeat (v0-v1, KIP-848) to
// b's coordinator of consumer-protocol groups. The wire's nullable fields
// are checked here, as Kafka's GroupMetadataManager.throwIfEmptyString
// does (an empty string that is not null is INVALID_REQUEST), and the
// owned partitions' topic ids are translated to names: an id the cluster
// does not know is no partition the member can own. A subscribed topic
// regex (v1) goes to the coordinator, which resolves it against the
// topics (group's consumerregex.go).
func (rq *Requests) consumerGroupHeartbeat(env Env, b *Broker, id uint64, x *Request, r *kmsg.ConsumerGroupHeartbeatRequest) {
	resp := r.ResponseKind().(*kmsg.ConsumerGroupHeartbeatResponse)
	if a, ok := b.unsupported(group.ConsumerGroupHeartbeat{}).(group.ConsumerGroupHeartbeatResponse); ok {
		fillHeartbeat(resp, a, nil)
		rq.answer(id, resp)
		return
	}
	if msg := emptyHeartbeatField(r); msg != "" {
		fillHeartbeat(resp, group.ConsumerGroupHeartbeatResponse{Error: group.InvalidRequest, Message: msg}, nil)
		rq.answer(id, resp)
		return
	}
	h := group.ConsumerGroupHeartbeat{GroupID: r.Group, MemberID: r.MemberID, MemberEpoch: r.MemberEpoch,
		InstanceID: deref(r.InstanceID), RackID: deref(r.RackID), RebalanceTimeoutMs: r.RebalanceTimeoutMillis,
		SubscribedTopicNames: slices.Clone(r.SubscribedTopicNames), SubscribedTopicRegex: r.SubscribedTopicRegex, ServerAssignor: deref(r.ServerAssignor),
		ClientID: x.ClientID, ClientHost: clientHost(x.Remote)}
	if r.SubscribedTopicNames != nil && h.SubscribedTopicNames == nil {
		h.SubscribedTopicNames = []string{}
	}
	if r.Topics != nil {
		h.Owned = []group.TopicPartition{}
		for _, t := range r.Topics {
			if tm := topicByID(env, t.TopicID); tm != nil {
				for _, p := range t.Partitions {
					h.Owned = append(h.Owned, group.TopicPartition{Topic: tm.Name, Partition: p})
				}
			}
		}
	}
	rq.step(env, b, id, x, r, resp, []group.Request{h})
}

// emptyHeartbeatField is the message of INVALID_REQUEST for a field sent
// empty where Kafka wants null or a value; "" when none is. (An empty
// SubscribedTopicRegex is no regex, as Kafka 4.0 reads it: librdkafka
// sends one with every subscription of names.) From v1 on the member makes
// its own id (KIP-1082, Kafka 4.0's
// CONSUMER_GENERATED_MEMBER_ID_REQUIRED_VERSION): only a v0 join may leave
// it empty and be given one.
func emptyHeartbeatField(r *kmsg.ConsumerGroupHeartbeatRequest) string {
	switch {
	case r.Version >= 1 && r.MemberID == "":
		return "MemberId can't be empty."
	case r.InstanceID != nil && *r.InstanceID == "":
		return "InstanceId can't be empty."
	case r.RackID != nil && *r.RackID == "":
		return "RackId can't be empty."
	}
	return ""
}

// fillHeartbeat writes the coordinator's answer into resp, the assigned
// partitions by topic id (ids from ids, the topics' when it was stepped).
func fillHeartbeat(resp *kmsg.ConsumerGroupHeartbeatResponse, a group.ConsumerGroupHeartbeatResponse, ids map[string][16]byte) {
	resp.ErrorCode = int16(a.Error)
	if a.Error != group.None {
		if a.Message != "" {
			resp.ErrorMessage = ptr(a.Message)
		}
		return
	}
	resp.MemberID, resp.MemberEpoch, resp.HeartbeatIntervalMillis = ptr(a.MemberID), a.MemberEpoch, a.HeartbeatIntervalMs
	if a.Assignment == nil {
		return
	}
	resp.Assignment = &kmsg.ConsumerGroupHeartbeatResponseAssignment{Topics: []kmsg.ConsumerGroupHeartbeatResponseAssignmentTopic{}}
	for _, tp := range a.Assignment {
		ts := resp.Assignment.Topics
		if n := len(ts); n == 0 || ts[n-1].TopicID != ids[tp.Topic] {
			t := kmsg.NewConsumerGroupHeartbeatResponseAssignmentTopic()
			t.TopicID = ids[tp.Topic]
			resp.Assignment.Topics = append(resp.Assignment.Topics, t)
		}
		t := &resp.Assignment.Topics[len(resp.Assignment.Topics)-1]
		t.Partitions = append(t.Partitions, tp.Partition)
	}
}

// topicIDs maps every topic's name to its id.
func topicIDs(env Env) map[string][16]byte {
	out := map[string][16]byte{}
	for _, t := range env.Topics() {
		out[t.Name] = TopicUUID(t.ID)
	}
	return out
}

// heartbeatError answers a ConsumerGroupHeartbeat of another coordinator
// (NOT_COORDINATOR and the like).
func heartbeatError(resp *kmsg.ConsumerGroupHeartbeatResponse, code int16) {
	resp.ErrorCode = code
	if code == kafkaerr.NotCoordinator {
		resp.ErrorMessage = ptr("This is not the correct coordinator.")
	}
}
