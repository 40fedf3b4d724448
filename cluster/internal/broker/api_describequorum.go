package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
)

// MetadataTopic is the metadata log's topic, __cluster_metadata (one
// partition, 0), which DescribeQuorum names.
const MetadataTopic = "__cluster_metadata"

// describeQuorum answers DescribeQuorum (v0-2), which a broker forwards
// to the active controller (KafkaApis: forwardToControllerOrFail), as
// Kafka 3.9's KafkaRaftClient.handleDescribeQuorumRequest answers it: a
// request that does not name exactly __cluster_metadata partition 0 gets
// UNKNOWN_TOPIC_OR_PARTITION for each partition it names; else the
// leader, its epoch, the metadata log's high watermark and every voter's
// and observer's log end offset, with (v1+) when each last fetched and
// caught up (RaftUtil.singletonDescribeQuorumResponse). v2's Nodes list
// the voters without listeners: the simulated controllers have none of
// their own (they are reached through the brokers). While no controller
// is active the forwarded request cannot be answered; Kafka's forwarding
// manager answers REQUEST_TIMED_OUT when its wait ends, the simulation at
// once.
func (b *Broker) describeQuorum(env APIEnv, req *kmsg.DescribeQuorumRequest) *kmsg.DescribeQuorumResponse {
	resp := kmsg.NewPtrDescribeQuorumResponse()
	if len(req.Topics) != 1 || req.Topics[0].Topic != MetadataTopic || len(req.Topics[0].Partitions) != 1 || req.Topics[0].Partitions[0].Partition != 0 {
		// DescribeQuorumRequest.getPartitionLevelErrorResponse
		msg := "This server does not host this topic-partition."
		for _, t := range req.Topics {
			rt := kmsg.NewDescribeQuorumResponseTopic()
			rt.Topic = t.Topic
			for _, p := range t.Partitions {
				rp := kmsg.NewDescribeQuorumResponseTopicPartition()
				rp.Partition, rp.ErrorCode, rp.ErrorMessage = p.Partition, kafkaerr.UnknownTopicOrPartition, &msg
				rt.Partitions = append(rt.Partitions, rp)
			}
			resp.Topics = append(resp.Topics, rt)
		}
		return resp
	}
	q, ok := env.DescribeQuorum()
	if !ok {
		msg := "The request timed out."
		resp.ErrorCode, resp.ErrorMessage = kafkaerr.RequestTimedOut, &msg
		return resp
	}
	rt := kmsg.NewDescribeQuorumResponseTopic()
	rt.Topic = MetadataTopic
	rp := kmsg.NewDescribeQuorumResponseTopicPartition()
	rp.LeaderID, rp.LeaderEpoch, rp.HighWatermark = q.LeaderID, q.LeaderEpoch, q.HighWatermark
	rp.CurrentVoters, rp.Observers = replicaStates(q.Voters), replicaStates(q.Observers)
	rt.Partitions = []kmsg.DescribeQuorumResponseTopicPartition{rp}
	resp.Topics = []kmsg.DescribeQuorumResponseTopic{rt}
	for _, v := range q.Voters {
		n := kmsg.NewDescribeQuorumResponseNode()
		n.NodeID = v.ID
		n.Listeners = []kmsg.DescribeQuorumResponseNodeListener{}
		resp.Nodes = append(resp.Nodes, n)
	}
	return resp
}

// replicaStates lays rs out as DescribeQuorum's ReplicaState.
func replicaStates(rs []metadata.QuorumReplica) []kmsg.DescribeQuorumResponseTopicPartitionReplicaState {
	out := []kmsg.DescribeQuorumResponseTopicPartitionReplicaState{}
	for _, r := range rs {
		s := kmsg.NewDescribeQuorumResponseTopicPartitionReplicaState()
		s.ReplicaID, s.LogEndOffset, s.LastFetchTimestamp, s.LastCaughtUpTimestamp = r.ID, r.LogEndOffset, r.LastFetchMs, r.LastCaughtUpMs
		out = append(out, s)
	}
	return out
}
