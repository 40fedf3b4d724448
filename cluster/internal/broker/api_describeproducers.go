package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/replica"
)

// describeProducers answers DescribeProducers (KIP-664,
// ReplicaManager.activeProducerState): for each partition b leads, the
// producers its log knows (ProducerStateManager.activeProducers), each
// with its epoch, last sequence, last timestamp, coordinator epoch and the
// first offset of its open transaction (-1: none). A partition b does not
// lead is NOT_LEADER_OR_FOLLOWER; one that does not exist
// UNKNOWN_TOPIC_OR_PARTITION.
func (b *Broker) describeProducers(env Env, req *kmsg.DescribeProducersRequest) *kmsg.DescribeProducersResponse {
	resp := req.ResponseKind().(*kmsg.DescribeProducersResponse)
	for _, t := range req.Topics {
		rt := kmsg.NewDescribeProducersResponseTopic()
		rt.Topic = t.Topic
		for _, p := range t.Partitions {
			rp := kmsg.NewDescribeProducersResponseTopicPartition()
			rp.Partition = p
			k := tp{Topic: t.Topic, Partition: p}
			s := b.replicas[k]
			switch {
			case !hasPartition(topicNamed(env, t.Topic), p):
				rp.ErrorCode = kafkaerr.UnknownTopicOrPartition
			case s == nil || s.Node.Status().Role != replica.RoleLeader:
				rp.ErrorCode = kafkaerr.NotLeaderOrFollower
			default:
				for _, e := range s.Log.Kafka().Producers() {
					ap := kmsg.NewDescribeProducersResponseTopicPartitionActiveProducer()
					ap.ProducerID, ap.ProducerEpoch, ap.LastSequence, ap.LastTimestamp = e.ProducerID, int32(e.ProducerEpoch), e.LastSequence, e.Timestamp
					ap.CoordinatorEpoch, ap.CurrentTxnStartOffset = e.CoordinatorEpoch, e.CurrentTxnFirstOffset
					rp.ActiveProducers = append(rp.ActiveProducers, ap)
				}
			}
			if rp.ErrorCode != 0 {
				rp.ErrorMessage = errMessage(rp.ErrorCode)
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}
