package broker

import (
	"fmt"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
)

// createPartitions answers CreatePartitions (v0-3) as Kafka 3.7's
// controller does (ControllerApis.createPartitions,
// ReplicationControlManager.createPartitions; APIEnv.CheckCreatePartitions):
// a topic named twice is INVALID_REQUEST ("Duplicate topic name.", listed
// first); each other topic grows to its Count, with the replicas its
// Assignment gives the new partitions or placed as a new topic's are, or
// gets Kafka's error and message; ValidateOnly checks and changes nothing.
// A key's partition is its hash modulo the partition count: after this,
// new records of a key may go to another partition than its old ones.
func (b *Broker) createPartitions(env APIEnv, x *Request, req *kmsg.CreatePartitionsRequest) *kmsg.CreatePartitionsResponse {
	resp := kmsg.NewPtrCreatePartitionsResponse()
	count := map[string]int{}
	for _, t := range req.Topics {
		count[t.Topic]++
	}
	result := func(topic string, code int16, msg string) {
		rt := kmsg.NewCreatePartitionsResponseTopic()
		rt.Topic, rt.ErrorCode = topic, code
		if msg != "" {
			rt.ErrorMessage = &msg
		}
		resp.Topics = append(resp.Topics, rt)
	}
	for _, t := range req.Topics {
		if count[t.Topic] > 1 {
			result(t.Topic, kafkaerr.InvalidRequest, "Duplicate topic name.")
			count[t.Topic] = 0 // once
		}
	}
	for _, t := range req.Topics {
		if count[t.Topic] == 1 {
			code, msg := addPartitions(env, t, req.ValidateOnly, fmt.Sprintf("client %d (%s)", x.Client, x.ClientID))
			result(t.Topic, code, msg)
		}
	}
	return resp
}

// addPartitions grows one topic of a CreatePartitions request, once the
// controller checked it (or only checks it, validateOnly); it returns
// Kafka's error code and message (0 and "" when done).
func addPartitions(env APIEnv, t kmsg.CreatePartitionsRequestTopic, validateOnly bool, by string) (int16, string) {
	extra, code, msg := env.CheckCreatePartitions(t)
	if code != 0 || validateOnly {
		return code, msg
	}
	if err := env.AddPartitions(t.Topic, extra, by); err != nil {
		return kafkaerr.InvalidRequest, err.Error()
	}
	return 0, ""
}
