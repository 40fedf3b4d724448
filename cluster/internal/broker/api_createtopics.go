package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
)

// createTopics creates topics through the controller, as a KRaft broker
// forwards CreateTopics to it (ReplicationControlManager.createTopic in
// Kafka 3.7 checks them: APIEnv.CheckCreateTopic). Topic configs are
// LogConfig's: the log's (retention.ms, segment.bytes, cleanup.policy...),
// min.insync.replicas, which the topic's partitions' acks=all check and HW
// then follow, and unclean.leader.election.enable, which the controller's
// elections of them follow. ValidateOnly checks and creates nothing.
func (b *Broker) createTopics(env APIEnv, req *kmsg.CreateTopicsRequest) *kmsg.CreateTopicsResponse {
	resp := kmsg.NewPtrCreateTopicsResponse()
	for _, t := range req.Topics {
		rt := kmsg.NewCreateTopicsResponseTopic()
		rt.Topic, rt.NumPartitions, rt.ReplicationFactor = t.Topic, -1, -1
		code, msg := b.createTopic(env, t, req.ValidateOnly, &rt, "an external client")
		if code != 0 {
			rt.ErrorCode, rt.ErrorMessage = code, &msg
			rt.NumPartitions, rt.ReplicationFactor, rt.Configs = -1, -1, nil
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}

// createTopic creates one topic of a CreateTopics request (or only checks
// it, validateOnly), filling in rt; by says who asked. It returns Kafka's
// error code and message (0 and "" when done).
func (b *Broker) createTopic(env APIEnv, t kmsg.CreateTopicsRequestTopic, validateOnly bool, rt *kmsg.CreateTopicsResponseTopic, by string) (int16, string) {
	spec, code, msg := env.CheckCreateTopic(t)
	if code != 0 {
		return code, msg
	}
	asg := spec.Assignment
	rt.NumPartitions, rt.ReplicationFactor = int32(len(asg)), int16(len(asg[0]))
	// the topic's effective configs (v5+), sorted by name, as
	// ReplicationControlManager.createTopic returns them
	for _, e := range b.topicConfigEntries(spec.Own()) {
		c := kmsg.NewCreateTopicsResponseTopicConfig()
		v := e.value
		c.Name, c.Value, c.Source = e.name, &v, int8(e.source)
		rt.Configs = append(rt.Configs, c)
	}
	if validateOnly {
		return 0, ""
	}
	if err := env.CreateTopic(spec); err != nil {
		return kafkaerr.InvalidRequest, err.Error()
	}
	rt.TopicID = TopicUUID(topicNamed(env, t.Topic).ID)
	env.Record(event.Controller, 0, nil, "topic %s created by %s: %d partitions, replicas %v", t.Topic, by, len(asg), asg)
	return 0, ""
}
