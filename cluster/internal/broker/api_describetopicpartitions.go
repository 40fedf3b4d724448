package broker

import (
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/replica"
)

// MaxRequestPartitionSizeLimit is max.request.partition.size.limit
// (ServerConfigs, Kafka 3.8+): the most partitions one
// DescribeTopicPartitions answer holds.
const MaxRequestPartitionSizeLimit = 2000

// describeTopicPartitions answers DescribeTopicPartitions (v0, Kafka
// 3.8+, KIP-966), what Kafka 4's admin client asks to describe topics, as
// Kafka 4.1's DescribeTopicPartitionsRequestHandler and
// KRaftMetadataCache.describeTopicResponse do: the topics asked for (every
// topic with an empty list, unknown ones then left out), from the cursor's
// topic and partition on, sorted by name, with each partition's leader (-1
// while it has none or its broker is fenced), leader epoch, replicas, ISR,
// eligible leader replicas, last known leader and offline replicas, up to
// min(ResponsePartitionLimit, max.request.partition.size.limit)
// partitions (at least one); NextCursor says where the next page starts.
// A topic asked for that does not exist is UNKNOWN_TOPIC_OR_PARTITION
// (INVALID_TOPIC_EXCEPTION for a name that is not legal). A cursor whose
// topic the list does not hold, or whose partition is negative, is
// INVALID_REQUEST for every topic asked.
func (b *Broker) describeTopicPartitions(env APIEnv, req *kmsg.DescribeTopicPartitionsRequest) *kmsg.DescribeTopicPartitionsResponse {
	resp := kmsg.NewPtrDescribeTopicPartitionsResponse()
	all := len(req.Topics) == 0
	cursorTopic, cursorPartition := "", int32(0)
	if req.Cursor != nil {
		cursorTopic, cursorPartition = req.Cursor.Topic, req.Cursor.Partition
	}
	var names []string
	if all {
		for _, t := range env.Topics() {
			names = append(names, t.Name)
		}
	} else {
		for _, t := range req.Topics {
			names = append(names, t.Topic)
		}
	}
	names = slices.DeleteFunc(names, func(n string) bool { return n < cursorTopic })
	slices.Sort(names)
	names = slices.Compact(names)
	if req.Cursor != nil && (!all && !slices.Contains(names, cursorTopic) || cursorPartition < 0) {
		for _, t := range req.Topics {
			rt := kmsg.NewDescribeTopicPartitionsResponseTopic()
			name := t.Topic
			rt.Topic, rt.ErrorCode, rt.Partitions = &name, kafkaerr.InvalidRequest, []kmsg.DescribeTopicPartitionsResponseTopicPartition{}
			resp.Topics = append(resp.Topics, rt)
		}
		return resp
	}
	remaining := max(min(MaxRequestPartitionSizeLimit, req.ResponsePartitionLimit), 1)
	alive := env.Alive()
	for _, name := range names {
		if remaining == 0 {
			resp.NextCursor = &kmsg.DescribeTopicPartitionsResponseNextCursor{Topic: name, Partition: 0}
			break
		}
		t := topicNamed(env, name)
		if t == nil {
			if !all {
				resp.Topics = append(resp.Topics, unknownDescribedTopic(name))
			}
			continue
		}
		start := int32(0)
		if name == cursorTopic {
			start = cursorPartition
		}
		rt, next := topicPartitionsPage(env, t, start, remaining, alive)
		resp.Topics = append(resp.Topics, rt)
		if next >= 0 {
			resp.NextCursor = &kmsg.DescribeTopicPartitionsResponseNextCursor{Topic: name, Partition: next}
			break
		}
		remaining -= int32(len(rt.Partitions))
	}
	return resp
}

// topicPartitionsPage is topic t's partitions from start, at most limit of
// them; next is the first one left out (-1: none).
func topicPartitionsPage(env APIEnv, t *metadata.Topic, start, limit int32, alive []int32) (kmsg.DescribeTopicPartitionsResponseTopic, int32) {
	rt := kmsg.NewDescribeTopicPartitionsResponseTopic()
	name := t.Name
	rt.Topic, rt.TopicID, rt.IsInternal = &name, TopicUUID(t.ID), t.Internal
	rt.Partitions = []kmsg.DescribeTopicPartitionsResponseTopicPartition{}
	count := int32(len(t.Assignment))
	upper := min(count, start+limit)
	next := int32(-1)
	if upper < count {
		next = upper
	}
	for p := start; p < upper; p++ {
		st, ok := env.Partition(tp{Topic: t.Name, Partition: p})
		if !ok {
			continue
		}
		rp := kmsg.NewDescribeTopicPartitionsResponseTopicPartition()
		rp.Partition, rp.LeaderID, rp.LeaderEpoch = p, st.Leader, st.LeaderEpoch
		if !slices.Contains(alive, st.Leader) {
			rp.LeaderID = replica.NoLeader
		}
		rp.Replicas, rp.ISR = nonNil(st.Replicas), nonNil(st.ISR)
		rp.EligibleLeaderReplicas, rp.LastKnownELR = nonNil(st.ELR), nonNil(st.LastKnownELR)
		rp.OfflineReplicas = []int32{}
		for _, r := range st.Replicas {
			if !slices.Contains(alive, r) {
				rp.OfflineReplicas = append(rp.OfflineReplicas, r)
			}
		}
		rt.Partitions = append(rt.Partitions, rp)
	}
	return rt, next
}

// unknownDescribedTopic is a topic asked for that does not exist.
func unknownDescribedTopic(name string) kmsg.DescribeTopicPartitionsResponseTopic {
	rt := kmsg.NewDescribeTopicPartitionsResponseTopic()
	n := name
	rt.Topic, rt.ErrorCode, rt.IsInternal = &n, kafkaerr.UnknownTopicOrPartition, metadata.IsInternal(name)
	if metadata.CheckTopicName(name) != nil {
		rt.ErrorCode = kafkaerr.InvalidTopicException
	}
	rt.Partitions = []kmsg.DescribeTopicPartitionsResponseTopicPartition{}
	return rt
}

// nonNil is ids, or an empty list for none (the wire's arrays are not
// nullable).
func nonNil(ids []int32) []int32 {
	if ids == nil {
		return []int32{}
	}
	return ids
}
