package broker

import (
	"fmt"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
)

// deleteTopics deletes topics (by name, or by id from v6) through the
// controller, as the world's delete-topic does (APIEnv.DeleteTopic). A
// topic a producer or a simple consumer of the world uses, and
// __consumer_offsets, are refused with POLICY_VIOLATION (those clients
// are not written to lose their topic).
func (b *Broker) deleteTopics(env APIEnv, req *kmsg.DeleteTopicsRequest) *kmsg.DeleteTopicsResponse {
	resp := kmsg.NewPtrDeleteTopicsResponse()
	type ask struct {
		name *string
		id   [16]byte
	}
	var asks []ask
	for _, n := range req.TopicNames {
		asks = append(asks, ask{name: &n})
	}
	for _, t := range req.Topics {
		asks = append(asks, ask{name: t.Topic, id: t.TopicID})
	}
	for _, a := range asks {
		rt := kmsg.NewDeleteTopicsResponseTopic()
		rt.Topic, rt.TopicID = a.name, a.id
		var t *metadata.Topic
		if a.name != nil {
			t = topicNamed(env, *a.name)
		} else {
			t = topicByID(env, a.id)
		}
		switch {
		case t == nil && a.name == nil:
			rt.ErrorCode = kafkaerr.UnknownTopicID
		case t == nil:
			rt.ErrorCode = kafkaerr.UnknownTopicOrPartition
		case t.Internal || env.TopicInUse(t.Name):
			rt.ErrorCode = kafkaerr.PolicyViolation
			msg := fmt.Sprintf("topic %s is used by the simulated world's own clients (or is internal) and cannot be deleted", t.Name)
			rt.ErrorMessage = &msg
		default:
			name := t.Name
			rt.Topic, rt.TopicID = &name, TopicUUID(t.ID)
			env.DeleteTopic(name, "DeleteTopics from an external client")
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}
