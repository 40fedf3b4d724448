package cluster

import (
	"errors"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// extFetch handles a consumer's Fetch (v4+) at broker b: answered at once
// when a partition fails or MinBytes are there (or MaxWaitMillis is 0),
// else parked until one of those or the wait's end in world time (a
// delayed fetch, DelayedFetch), checked at each tick.
func (w *World) extFetch(id uint64, x *ExternalRequest, b *broker.Broker, req *kmsg.FetchRequest) {
	resp, bytes, failed := w.fetchResponse(b, x.Client, req)
	if failed || bytes >= int(req.MinBytes) || req.MaxWaitMillis <= 0 {
		w.answerFetch(id, x.Client, resp)
		return
	}
	if w.ext.pending == nil {
		w.ext.pending = map[uint64]*extPending{}
	}
	w.ext.pending[id] = &extPending{id: id, client: x.Client, broker: b.ID(), incarnation: b.Incarnation(), fetch: req, deadlineMs: w.now + int64(req.MaxWaitMillis)}
}

// answerFetch answers a fetch and counts its bytes.
func (w *World) answerFetch(id uint64, client int32, resp *kmsg.FetchResponse) {
	n := 0
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			n += len(p.RecordBatches)
		}
	}
	w.ext.clients[client-1].Fetched += int64(n)
	w.answer(id, resp)
}

// fetchResponse reads what a consumer's fetch gets now at broker b: its
// response, the record bytes in it, and whether a partition failed.
//
// The limits are Kafka 3.7's (KafkaApis.handleFetchRequest,
// ReplicaManager.readFromLog, LogSegment.read): MaxBytes is capped at the
// brokers' fetch.max.bytes (Config.FetchMaxBytes), and each partition
// reads at most min(PartitionMaxBytes, what is left of MaxBytes) bytes of
// the log below the high watermark, the bytes cut where
// the limit falls, so that the last batch may come incomplete (the
// consumer skips it and asks again from its offset); the first partition
// that has anything returns at least its first whole batch, however large.
// A follower's replica answers NOT_LEADER_OR_FOLLOWER (no follower fetching,
// KIP-392); LastStableOffset is the high watermark (no transactions).
func (w *World) fetchResponse(b *broker.Broker, client int32, req *kmsg.FetchRequest) (*kmsg.FetchResponse, int, bool) {
	resp := kmsg.NewPtrFetchResponse()
	limit := int(min(max(int64(req.MaxBytes), 0), w.cfg.FetchMaxBytes))
	minOne, total, failed := true, 0, false
	for _, t := range req.Topics {
		rt := kmsg.NewFetchResponseTopic()
		rt.Topic, rt.TopicID = t.Topic, t.TopicID
		var topic *Topic
		unknown := kafkaerr.UnknownTopicOrPartition
		if req.Version >= 13 {
			topic, unknown = w.topicByID(t.TopicID), kafkaerr.UnknownTopicID
		} else {
			topic = w.topic(t.Topic)
		}
		if topic != nil {
			rt.Topic, rt.TopicID = topic.Name, TopicUUID(topic.ID)
		}
		for _, p := range t.Partitions {
			rp := kmsg.NewFetchResponseTopicPartition()
			rp.Partition, rp.HighWatermark, rp.LastStableOffset, rp.LogStartOffset, rp.PreferredReadReplica = p.Partition, -1, -1, -1, -1
			code := unknown
			var data []byte
			if topic != nil && p.Partition >= 0 && int(p.Partition) < len(topic.Assignment) {
				code, data = w.readForConsumer(b, partitionKey{Topic: topic.Name, Partition: p.Partition}, p, min(int(max(p.PartitionMaxBytes, 0)), limit), minOne, &rp)
			}
			rp.ErrorCode = code
			if code != 0 {
				failed = true
			}
			if len(data) > 0 {
				rp.RecordBatches = data
				minOne = false
				limit = max(0, limit-len(data))
				total += len(data)
			}
			if req.IsolationLevel == 1 && code == 0 {
				rp.AbortedTransactions = []kmsg.FetchResponseTopicPartitionAbortedTransaction{}
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp, total, failed
}

// readForConsumer reads one partition for a consumer, filling in rp's
// offsets; it returns the error code and the bytes.
func (w *World) readForConsumer(b *broker.Broker, tp partitionKey, p kmsg.FetchRequestTopicPartition, maxBytes int, minOne bool, rp *kmsg.FetchResponseTopicPartition) (int16, []byte) {
	s := b.Partition(tp)
	if s == nil {
		return kafkaerr.NotLeaderOrFollower, nil
	}
	st := s.Node.Status()
	// FetchRequest.optionalEpoch: any negative epoch is none (ListOffsets
	// and OffsetForLeaderEpoch take only -1 as none)
	if code := leaderCheck(st, max(p.CurrentLeaderEpoch, -1)); code != 0 {
		return code, nil
	}
	if p.FetchOffset < st.LogStartOffset || p.FetchOffset > st.LogEndOffset {
		return kafkaerr.OffsetOutOfRange, nil
	}
	rp.HighWatermark, rp.LastStableOffset, rp.LogStartOffset = st.HighWatermark, st.HighWatermark, st.LogStartOffset
	if maxBytes <= 0 && !minOne || p.FetchOffset >= st.HighWatermark {
		return 0, nil
	}
	cfg := w.logConfig(tp.Topic)
	before := s.Log.Kafka().ReadStats()
	raw, err := s.Log.Kafka().ReadUpTo(p.FetchOffset, maxBytes+int(cfg.MaxMessageBytes), st.HighWatermark)
	b.CountFetchRead(w.env(), s, before)
	if err != nil && (replicalog.BadBytes(err) || errors.Is(err, kafkalog.ErrLegacyFormat)) {
		// Disk damage the read walked into: a batch header whose length
		// is below 14 is FileLogInputStream.nextBatch's
		// CorruptRecordException, answered CORRUPT_MESSAGE
		// (ReplicaManager.readFromLog, Kafka 3.7), on which the consumer
		// throws "Encountered corrupt message when fetching offset". A
		// magic that is not 2 is answered the same (Kafka would send it as
		// a legacy batch, which the client's check refuses in its turn). A
		// batch that only fails its CRC is sent as stored, as Kafka sends
		// it: the client's check (check.crcs) finds it.
		return kafkaerr.CorruptMessage, nil
	}
	if err != nil {
		w.internalError(b, err)
		return kafkaerr.UnknownServerError, nil
	}
	size := maxBytes
	if minOne && len(raw) > 0 {
		if first, _, err := kafkalog.PeekBatch(raw); err == nil {
			size = max(size, int(first))
		}
	}
	return 0, slices.Clone(raw[:min(len(raw), size)])
}

// leaderCheck is Partition.getLocalLog for a client that needs the
// leader: the request's leader epoch first (KIP-320: FENCED_LEADER_EPOCH
// below the replica's, UNKNOWN_LEADER_EPOCH above; -1 skips it, any
// other negative one is below), then leadership.
func leaderCheck(st replica.Status, currentLeaderEpoch int32) int16 {
	switch {
	case currentLeaderEpoch != -1 && currentLeaderEpoch < st.LeaderEpoch:
		return int16(replica.FencedLeaderEpoch)
	case currentLeaderEpoch != -1 && currentLeaderEpoch > st.LeaderEpoch:
		return int16(replica.UnknownLeaderEpoch)
	case st.Role != replica.RoleLeader:
		return kafkaerr.NotLeaderOrFollower
	}
	return 0
}

// Special timestamps of ListOffsets (ListOffsetsRequest).
const (
	listLatest        = -1
	listEarliest      = -2
	listMaxTimestamp  = -3 // KIP-734
	listEarliestLocal = -4 // KIP-405
)

// extListOffsets answers ListOffsets (v1+) at broker b, as Kafka 3.7's
// Partition.fetchOffsetForTimestamp does for a consumer: the leader's log
// start offset for EARLIEST (and EARLIEST_LOCAL: no tiered storage), the
// high watermark for LATEST (the last stable offset under read_committed,
// the same without transactions), and by timestamp the first offset whose
// record timestamp is at least it, through the time index, if that offset
// is below the high watermark; else offset and timestamp -1. MAX_TIMESTAMP
// (KIP-734) finds nothing here. The leader epoch is that of the epoch cache
// at the offset found (the latest epoch for LATEST).
func (w *World) extListOffsets(b *broker.Broker, req *kmsg.ListOffsetsRequest) *kmsg.ListOffsetsResponse {
	resp := kmsg.NewPtrListOffsetsResponse()
	for _, t := range req.Topics {
		rt := kmsg.NewListOffsetsResponseTopic()
		rt.Topic = t.Topic
		topic := w.topic(t.Topic)
		for _, p := range t.Partitions {
			rp := kmsg.NewListOffsetsResponseTopicPartition()
			rp.Partition, rp.Timestamp, rp.Offset, rp.LeaderEpoch = p.Partition, -1, -1, -1
			rp.ErrorCode = kafkaerr.UnknownTopicOrPartition
			if topic != nil && p.Partition >= 0 && int(p.Partition) < len(topic.Assignment) {
				w.listOffset(b, partitionKey{Topic: t.Topic, Partition: p.Partition}, p, &rp)
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}

func (w *World) listOffset(b *broker.Broker, tp partitionKey, p kmsg.ListOffsetsRequestTopicPartition, rp *kmsg.ListOffsetsResponseTopicPartition) {
	s := b.Partition(tp)
	if s == nil {
		rp.ErrorCode = kafkaerr.NotLeaderOrFollower
		return
	}
	st := s.Node.Status()
	if rp.ErrorCode = leaderCheck(st, p.CurrentLeaderEpoch); rp.ErrorCode != 0 {
		return
	}
	switch p.Timestamp {
	case listEarliest, listEarliestLocal:
		rp.Offset = st.LogStartOffset
	case listLatest:
		rp.Offset = st.HighWatermark
		if n := len(st.Epochs); n > 0 {
			rp.LeaderEpoch = st.Epochs[n-1].Epoch
		}
		return
	case listMaxTimestamp:
		return
	default:
		if p.Timestamp < 0 {
			return
		}
		off, ts, ok, err := s.Log.Kafka().OffsetForTimestamp(p.Timestamp)
		if err != nil {
			w.internalError(b, err)
			rp.ErrorCode = kafkaerr.UnknownServerError
			return
		}
		if !ok || off >= st.HighWatermark {
			return
		}
		rp.Offset, rp.Timestamp = off, ts
	}
	rp.LeaderEpoch = epochAt(st.Epochs, rp.Offset)
}

// extOffsetForLeaderEpoch answers OffsetForLeaderEpoch at broker b as Kafka
// 3.7's ReplicaManager.lastOffsetForLeaderEpoch does, for a consumer
// checking its position after a leader change (KIP-320) as for anyone
// else (fetchOnlyFromLeader is always true there): for each partition, the
// request's current leader epoch checked first (Partition.getLocalLog), then
// leadership, then the leader's epoch cache answers for the requested
// epoch (replica.Node.EndOffsetForEpoch): the largest epoch it holds at
// most that one and where the next starts, the log end offset for the
// latest. A consumer whose last fetched record is past that end offset
// learns that its leader's log was truncated under it.
func (w *World) extOffsetForLeaderEpoch(x *ExternalRequest, b *broker.Broker, req *kmsg.OffsetForLeaderEpochRequest) *kmsg.OffsetForLeaderEpochResponse {
	resp := kmsg.NewPtrOffsetForLeaderEpochResponse()
	for _, t := range req.Topics {
		rt := kmsg.NewOffsetForLeaderEpochResponseTopic()
		rt.Topic = t.Topic
		topic := w.topic(t.Topic)
		for _, p := range t.Partitions {
			rp := kmsg.NewOffsetForLeaderEpochResponseTopicPartition()
			rp.Partition, rp.LeaderEpoch, rp.EndOffset = p.Partition, -1, -1
			rp.ErrorCode = kafkaerr.UnknownTopicOrPartition
			if topic != nil && p.Partition >= 0 && int(p.Partition) < len(topic.Assignment) {
				rp.ErrorCode = kafkaerr.NotLeaderOrFollower
				tp := partitionKey{Topic: t.Topic, Partition: p.Partition}
				if s := b.Partition(tp); s != nil {
					if rp.ErrorCode = leaderCheck(s.Node.Status(), p.CurrentLeaderEpoch); rp.ErrorCode == 0 {
						rp.LeaderEpoch, rp.EndOffset = s.Node.EndOffsetForEpoch(p.LeaderEpoch)
						if rp.EndOffset < 0 {
							w.record(EventConsume, b.ID(), &tp, "client %d (%s) asks where epoch %d ends: the leader has no record of it", x.Client, x.ClientID, p.LeaderEpoch)
						} else {
							w.record(EventConsume, b.ID(), &tp, "client %d (%s) asks where epoch %d ends: at offset %d (epoch %d)", x.Client, x.ClientID, p.LeaderEpoch, rp.EndOffset, rp.LeaderEpoch)
						}
					}
				}
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
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
