package broker

import (
	"fmt"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
)

// metadata answers Metadata (v0-12) from the controller's view, as a
// KRaft broker's metadata cache does (KRaftMetadataCache): the alive
// brokers with their racks (their Host and Port are left to the wire layer), the cluster
// id, a controller id (Kafka 3.7 names a random alive broker; here the
// lowest, so that replays agree), and per topic its id, whether it is
// internal (__consumer_offsets), and per partition the leader (-1 with
// LEADER_NOT_AVAILABLE while none), leader epoch, replicas, ISR and the
// replicas whose broker is not alive. Topics are asked by name (by id
// from v10); all of them with a null list (an empty one in v0). A topic
// asked by a name that is not legal is INVALID_TOPIC_EXCEPTION, one that
// does not exist UNKNOWN_TOPIC_OR_PARTITION (KafkaApis.getTopicMetadata);
// by an id that does not exist, UNKNOWN_TOPIC_ID. A topic that does not
// exist is created when the request allows it (always before v4, with
// AllowAutoTopicCreation from v4) and the brokers'
// auto.create.topics.enable is on (Config.AutoCreateTopicsEnable): see
// autoCreateTopic.
func (b *Broker) metadata(env APIEnv, x *Request, req *kmsg.MetadataRequest) *kmsg.MetadataResponse {
	resp := kmsg.NewPtrMetadataResponse()
	alive := env.Alive()
	for _, id := range alive {
		mb := kmsg.NewMetadataResponseBroker()
		mb.NodeID, mb.Rack = id, b.rackOf(id)
		resp.Brokers = append(resp.Brokers, mb)
	}
	cid := b.cfg.ClusterID
	resp.ClusterID = &cid
	resp.ControllerID = -1
	if len(alive) > 0 {
		resp.ControllerID = alive[0]
	}
	var topics []*metadata.Topic
	var missing []kmsg.MetadataRequestTopic
	if req.Topics == nil || req.Version == 0 && len(req.Topics) == 0 {
		all := env.Topics()
		for i := range all {
			topics = append(topics, &all[i])
		}
	} else {
		for _, rt := range req.Topics {
			var t *metadata.Topic
			if rt.Topic != nil {
				t = topicNamed(env, *rt.Topic)
			} else {
				t = topicByID(env, rt.TopicID)
			}
			if t == nil {
				missing = append(missing, rt)
				continue
			}
			topics = append(topics, t)
		}
	}
	for _, t := range topics {
		resp.Topics = append(resp.Topics, topicMetadata(env, t, alive))
	}
	autoCreate := b.cfg.AutoCreateTopicsEnable && (req.Version < 4 || req.AllowAutoTopicCreation)
	var refused []string // auto-creations the controller refused, and why the first was
	var why string
	for _, rt := range missing {
		mt := kmsg.NewMetadataResponseTopic()
		mt.Topic, mt.TopicID = rt.Topic, rt.TopicID
		switch {
		case rt.Topic == nil:
			mt.ErrorCode = kafkaerr.UnknownTopicID
		case metadata.CheckTopicName(*rt.Topic) != nil:
			mt.ErrorCode = kafkaerr.InvalidTopicException
		default:
			mt.ErrorCode = kafkaerr.UnknownTopicOrPartition
			mt.IsInternal = metadata.IsInternal(*rt.Topic)
			if autoCreate {
				if msg := b.autoCreateTopic(env, x, *rt.Topic); msg != "" {
					if refused = append(refused, *rt.Topic); len(refused) == 1 {
						why = msg
					}
				}
			}
		}
		mt.Partitions = []kmsg.MetadataResponseTopicPartition{}
		resp.Topics = append(resp.Topics, mt)
	}
	if len(refused) > 0 { // one event, however many names the request held
		more := ""
		if len(refused) > 1 {
			more = fmt.Sprintf(" and %d more", len(refused)-1)
		}
		env.Record(event.Controller, 0, nil, "topic %s%s not auto-created for client %q: %s", refused[0], more, x.ClientID, why)
	}
	return resp
}

// topicMetadata is topic t as Metadata answers it, alive the alive
// brokers.
func topicMetadata(env APIEnv, t *metadata.Topic, alive []int32) kmsg.MetadataResponseTopic {
	mt := kmsg.NewMetadataResponseTopic()
	name := t.Name
	mt.Topic, mt.TopicID, mt.IsInternal = &name, TopicUUID(t.ID), t.Internal
	for p := range t.Assignment {
		st, ok := env.Partition(tp{Topic: t.Name, Partition: int32(p)})
		if !ok {
			continue
		}
		mp := kmsg.NewMetadataResponseTopicPartition()
		mp.Partition, mp.Leader, mp.LeaderEpoch = int32(p), st.Leader, st.LeaderEpoch
		mp.Replicas, mp.ISR, mp.OfflineReplicas = st.Replicas, st.ISR, []int32{}
		for _, r := range st.Replicas {
			if !slices.Contains(alive, r) {
				mp.OfflineReplicas = append(mp.OfflineReplicas, r)
			}
		}
		if st.Leader < 0 {
			mp.ErrorCode = kafkaerr.LeaderNotAvailable
		}
		mt.Partitions = append(mt.Partitions, mp)
	}
	return mt
}

// autoCreateTopic creates a topic a client's Metadata request asked for, as
// a Kafka 3.7 broker in KRaft mode does (AutoTopicCreationManager): it
// sends a CreateTopics for it to the controller, with num.partitions and
// default.replication.factor (1 and 1), and answers the request itself
// UNKNOWN_TOPIC_OR_PARTITION, since its metadata does not hold the topic
// yet; the client asks again and finds it. A creation the controller
// refuses (no broker alive to hold the replica, the cluster's partitions
// all taken) stays missing; autoCreateTopic returns why. __transaction_state
// is not created: transactions are not modelled.
func (b *Broker) autoCreateTopic(env APIEnv, x *Request, name string) string {
	if name == "__transaction_state" {
		return ""
	}
	t := kmsg.NewCreateTopicsRequestTopic()
	t.Topic, t.NumPartitions, t.ReplicationFactor = name, -1, -1
	rt := kmsg.NewCreateTopicsResponseTopic()
	if code, msg := b.createTopic(env, t, false, &rt, fmt.Sprintf("client %q's Metadata request (auto.create.topics.enable)", x.ClientID)); code != 0 {
		return msg
	}
	return ""
}
