package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/replica"
)

// Special timestamps of ListOffsets (ListOffsetsRequest).
const (
	listLatest        = -1
	listEarliest      = -2
	listMaxTimestamp  = -3 // KIP-734
	listEarliestLocal = -4 // KIP-405
)

// The replica ids of ListOffsets that are no broker
// (ListOffsetsRequest.CONSUMER_REPLICA_ID, DEBUGGING_REPLICA_ID).
const (
	consumerReplicaID  = -1
	debuggingReplicaID = -2
)

// listOffsets answers ListOffsets (v1+) at b, as Kafka 3.7's
// Partition.fetchOffsetForTimestamp does for a consumer: the leader's log
// start offset for EARLIEST (and EARLIEST_LOCAL: no tiered storage), the
// high watermark for LATEST (the last stable offset under read_committed,
// IsolationLevel 1: the first offset of the earliest transaction still
// open), and by timestamp the first offset whose
// record timestamp is at least it, through the time index, if that offset
// is below the high watermark; else offset and timestamp -1. MAX_TIMESTAMP
// (KIP-734) is the first record carrying the largest timestamp, with its
// batch's leader epoch, as Kafka 4's UnifiedLog.fetchOffsetByTimestamp
// finds it (kafkalog's OffsetOfMaxTimestamp), if below the high watermark.
// The leader epoch is otherwise that of the epoch cache at the offset
// found (the latest epoch for LATEST).
//
// The replica id says who asks (KafkaApis.handleListOffsetRequestV1AndAbove,
// Kafka 3.9): a consumer (-1) as above; anyone else reads the replica's
// log without an isolation level, LATEST being its log end offset; and
// the debugging replica id (-2, ListOffsetsRequest.DEBUGGING_REPLICA_ID)
// may ask a follower, whose own log answers (fetchOnlyFromLeader is
// false): what an observer asks each replica for its LEO.
func (b *Broker) listOffsets(env Env, req *kmsg.ListOffsetsRequest) *kmsg.ListOffsetsResponse {
	resp := kmsg.NewPtrListOffsetsResponse()
	for _, t := range req.Topics {
		rt := kmsg.NewListOffsetsResponseTopic()
		rt.Topic = t.Topic
		topic := topicNamed(env, t.Topic)
		for _, p := range t.Partitions {
			rp := kmsg.NewListOffsetsResponseTopicPartition()
			rp.Partition, rp.Timestamp, rp.Offset, rp.LeaderEpoch = p.Partition, -1, -1, -1
			rp.ErrorCode = kafkaerr.UnknownTopicOrPartition
			if hasPartition(topic, p.Partition) {
				b.listOffset(env, tp{Topic: t.Topic, Partition: p.Partition}, req.ReplicaID, p, req.IsolationLevel == 1, &rp)
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}

func (b *Broker) listOffset(env Env, k tp, replicaID int32, p kmsg.ListOffsetsRequestTopicPartition, committed bool, rp *kmsg.ListOffsetsResponseTopicPartition) {
	s := b.Partition(k)
	if s == nil {
		rp.ErrorCode = kafkaerr.NotLeaderOrFollower
		return
	}
	st := s.Node.Status()
	check := leaderCheck
	if replicaID == debuggingReplicaID {
		check = replicaCheck
	}
	if rp.ErrorCode = check(st, p.CurrentLeaderEpoch); rp.ErrorCode != 0 {
		return
	}
	// Kafka 3.9's Partition.fetchOffsetForTimestamp: a consumer's latest
	// is the high watermark, or the last stable offset read_committed; a
	// replica's (no isolation level) its log end
	lastFetchable := st.HighWatermark
	switch {
	case replicaID != consumerReplicaID:
		lastFetchable = st.LogEndOffset
	case committed:
		lastFetchable = s.Log.Kafka().LastStableOffset(st.HighWatermark)
	}
	switch p.Timestamp {
	case listEarliest, listEarliestLocal:
		rp.Offset = st.LogStartOffset
	case listLatest:
		rp.Offset = lastFetchable
		if n := len(st.Epochs); n > 0 {
			rp.LeaderEpoch = st.Epochs[n-1].Epoch
		}
		return
	case listMaxTimestamp:
		off, ts, epoch, ok, err := s.Log.Kafka().OffsetOfMaxTimestamp()
		if err != nil {
			env.InternalError(b.ID(), err)
			rp.ErrorCode = kafkaerr.UnknownServerError
			return
		}
		if ok && off < st.HighWatermark {
			rp.Offset, rp.Timestamp, rp.LeaderEpoch = off, ts, epoch
		}
		return
	default:
		if p.Timestamp < 0 {
			return
		}
		off, ts, ok, err := s.Log.Kafka().OffsetForTimestamp(p.Timestamp)
		if err != nil {
			env.InternalError(b.ID(), err)
			rp.ErrorCode = kafkaerr.UnknownServerError
			return
		}
		if !ok || off >= lastFetchable {
			return
		}
		rp.Offset, rp.Timestamp = off, ts
	}
	rp.LeaderEpoch = epochAt(st.Epochs, rp.Offset)
}

// epochAt is the epoch cache's epoch at offset (LeaderEpochFileCache
// epochForOffset), -1 if none.
func epochAt(epochs []replica.EpochEntry, offset int64) int32 {
	e := int32(-1)
	for _, x := range epochs {
		if x.StartOffset <= offset {
			e = x.Epoch
		}
	}
	return e
}
