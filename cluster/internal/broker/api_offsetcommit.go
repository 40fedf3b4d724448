package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/group"
)

// offsetCommit hands a commit to b's coordinator. Partitions of topics
// that do not exist are refused with UNKNOWN_TOPIC_OR_PARTITION
// (KafkaApis.handleOffsetCommitRequest); the others are committed or
// refused together. v0 commits carry no generation (a simple commit).
func (rq *Requests) offsetCommit(env Env, b *Broker, id uint64, x *Request, r *kmsg.OffsetCommitRequest) {
	resp := r.ResponseKind().(*kmsg.OffsetCommitResponse)
	c := group.OffsetCommit{GroupID: r.Group, GenerationID: r.Generation, MemberID: r.MemberID, GroupInstanceID: deref(r.InstanceID), Version: r.Version}
	if r.Version == 0 {
		c.GenerationID, c.MemberID = -1, ""
	}
	for _, t := range r.Topics {
		rt := kmsg.NewOffsetCommitResponseTopic()
		rt.Topic = t.Topic
		topic := topicNamed(env, t.Topic)
		for _, p := range t.Partitions {
			rp := kmsg.NewOffsetCommitResponseTopicPartition()
			rp.Partition = p.Partition
			if !hasPartition(topic, p.Partition) {
				rp.ErrorCode = kafkaerr.UnknownTopicOrPartition
			} else {
				rp.ErrorCode = -2 // filled in by the coordinator's answer
				c.Offsets = append(c.Offsets, group.PartitionOffset{TopicPartition: group.TopicPartition{Topic: t.Topic, Partition: p.Partition},
					Offset: p.Offset, LeaderEpoch: p.LeaderEpoch, Metadata: deref(p.Metadata)})
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	if r.Version < 6 {
		for i := range c.Offsets {
			c.Offsets[i].LeaderEpoch = -1
		}
	}
	switch {
	case r.Group == "":
		setCommitErrors(resp, kafkaerr.InvalidGroupID)
		rq.answer(id, resp)
	case len(c.Offsets) == 0:
		rq.answer(id, resp)
	default:
		rq.step(env, b, id, x, r, resp, []group.Request{c})
	}
}

// setCommitErrors sets code on every partition of resp not refused yet.
func setCommitErrors(resp *kmsg.OffsetCommitResponse, code int16) {
	for i := range resp.Topics {
		for j := range resp.Topics[i].Partitions {
			if p := &resp.Topics[i].Partitions[j]; p.ErrorCode == -2 || code == kafkaerr.NotCoordinator && p.ErrorCode == 0 {
				p.ErrorCode = code
			}
		}
	}
}
