package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
)

// offsetForLeaderEpoch answers OffsetForLeaderEpoch at b as Kafka 3.7's
// ReplicaManager.lastOffsetForLeaderEpoch does, for a consumer checking
// its position after a leader change (KIP-320) as for anyone else
// (fetchOnlyFromLeader is always true there): for each partition, the
// request's current leader epoch checked first (Partition.getLocalLog),
// then leadership, then the leader's epoch cache answers for the requested
// epoch (replica.Node.EndOffsetForEpoch): the largest epoch it holds at
// most that one and where the next starts, the log end offset for the
// latest. A consumer whose last fetched record is past that end offset
// learns that its leader's log was truncated under it.
func (b *Broker) offsetForLeaderEpoch(env Env, x *Request, req *kmsg.OffsetForLeaderEpochRequest) *kmsg.OffsetForLeaderEpochResponse {
	resp := kmsg.NewPtrOffsetForLeaderEpochResponse()
	for _, t := range req.Topics {
		rt := kmsg.NewOffsetForLeaderEpochResponseTopic()
		rt.Topic = t.Topic
		topic := topicNamed(env, t.Topic)
		for _, p := range t.Partitions {
			rp := kmsg.NewOffsetForLeaderEpochResponseTopicPartition()
			rp.Partition, rp.LeaderEpoch, rp.EndOffset = p.Partition, -1, -1
			rp.ErrorCode = kafkaerr.UnknownTopicOrPartition
			if hasPartition(topic, p.Partition) {
				b.endOffsetForEpoch(env, x, tp{Topic: t.Topic, Partition: p.Partition}, p, &rp)
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}

// endOffsetForEpoch answers one partition k of an OffsetForLeaderEpoch.
func (b *Broker) endOffsetForEpoch(env Env, x *Request, k tp, p kmsg.OffsetForLeaderEpochRequestTopicPartition, rp *kmsg.OffsetForLeaderEpochResponseTopicPartition) {
	rp.ErrorCode = kafkaerr.NotLeaderOrFollower
	s := b.Partition(k)
	if s == nil {
		return
	}
	if rp.ErrorCode = leaderCheck(s.Node.Status(), p.CurrentLeaderEpoch); rp.ErrorCode != 0 {
		return
	}
	rp.LeaderEpoch, rp.EndOffset = s.Node.EndOffsetForEpoch(p.LeaderEpoch)
	if rp.EndOffset < 0 {
		env.Record(event.Consume, b.ID(), &k, "client %d (%s) asks where epoch %d ends: the leader has no record of it", x.Client, x.ClientID, p.LeaderEpoch)
	} else {
		env.Record(event.Consume, b.ID(), &k, "client %d (%s) asks where epoch %d ends: at offset %d (epoch %d)", x.Client, x.ClientID, p.LeaderEpoch, rp.EndOffset, rp.LeaderEpoch)
	}
}
