package broker

import (
	"errors"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// DefaultFetchMaxBytes is fetch.max.bytes: 55 MiB (57671680).
const DefaultFetchMaxBytes = 55 << 20

// fetch handles a consumer's Fetch (v4+) at broker b, request id:
// answered at once when a partition fails or MinBytes are there (or
// MaxWaitMillis is 0), else parked until one of those or the wait's end in
// world time (a delayed fetch, DelayedFetch), checked at each tick.
func (rq *Requests) fetch(env APIEnv, b *Broker, id uint64, x *Request, req *kmsg.FetchRequest) {
	resp, bytes, failed := consumerFetch(env, b, req)
	if failed || bytes >= int(req.MinBytes) || req.MaxWaitMillis <= 0 {
		rq.answerFetch(id, x.Client, resp)
		return
	}
	rq.park(&pending{id: id, client: x.Client, broker: b.ID(), incarnation: b.Incarnation(), fetch: req, deadlineMs: env.Now() + int64(req.MaxWaitMillis)})
}

// consumerFetch is what a consumer's fetch gets now at b
// (Broker.fetchResponse), with KIP-951's leader hints from Fetch v16.
func consumerFetch(env APIEnv, b *Broker, req *kmsg.FetchRequest) (*kmsg.FetchResponse, int, bool) {
	resp, bytes, failed := b.fetchResponse(env, req)
	if failed && req.Version >= fetchLeaderHintsVersion {
		addFetchLeaderHints(env, b, resp)
	}
	return resp, bytes, failed
}

// answerFetch answers a fetch and counts its bytes.
func (rq *Requests) answerFetch(id uint64, client int32, resp *kmsg.FetchResponse) {
	n := 0
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			n += len(p.RecordBatches)
		}
	}
	if c := rq.clientAt(client); c != nil { // a client with a request waiting is remembered
		c.Fetched += int64(n)
	}
	rq.answer(id, resp)
}

// fetchResponse reads what a consumer's fetch gets now at b: its response,
// the record bytes in it, and whether a partition failed.
//
// The limits are Kafka 3.7's (KafkaApis.handleFetchRequest,
// ReplicaManager.readFromLog, LogSegment.read): MaxBytes is capped at the
// brokers' fetch.max.bytes (Config.FetchMaxBytes), and each partition
// reads at most min(PartitionMaxBytes, what is left of MaxBytes) bytes of
// the log below the high watermark, the bytes cut where the limit falls,
// so that the last batch may come incomplete (the consumer skips it and
// asks again from its offset); the first partition that has anything
// returns at least its first whole batch, however large. A read_committed
// fetch (IsolationLevel 1) reads below the last stable offset instead of
// the high watermark, and gets the aborted transactions of what it read
// (readCommitted).
//
// Follower fetching (KIP-392, Kafka 3.9's ReplicaManager.readFromLog): from
// v11 a fetch carries the consumer's rack. A leader whose brokers set
// replica.selector.class may name a replica in that rack
// (preferredReadReplica): the partition then returns no records but that
// replica, with the leader's offsets, and the fetch is answered at once.
// From v11 a follower's replica serves a consumer too, below its own high
// watermark; before v11, or at a broker that holds no replica, the answer
// is NOT_LEADER_OR_FOLLOWER. final is set when a partition failed or named
// a preferred read replica: the fetch is not kept waiting.
func (b *Broker) fetchResponse(env Env, req *kmsg.FetchRequest) (resp *kmsg.FetchResponse, bytes int, final bool) {
	resp = kmsg.NewPtrFetchResponse()
	limit := int(min(max(int64(req.MaxBytes), 0), b.cfg.FetchMaxBytes))
	minOne, total, failed := true, 0, false
	c := fetchClient{metadata: req.Version >= 11, rack: req.Rack}
	for _, t := range req.Topics {
		rt := kmsg.NewFetchResponseTopic()
		rt.Topic, rt.TopicID = t.Topic, t.TopicID
		var topic *metadata.Topic
		unknown := kafkaerr.UnknownTopicOrPartition
		if req.Version >= 13 {
			topic, unknown = topicByID(env, t.TopicID), kafkaerr.UnknownTopicID
		} else {
			topic = topicNamed(env, t.Topic)
		}
		if topic != nil {
			rt.Topic, rt.TopicID = topic.Name, TopicUUID(topic.ID)
		}
		for _, p := range t.Partitions {
			rp := kmsg.NewFetchResponseTopicPartition()
			rp.Partition, rp.HighWatermark, rp.LastStableOffset, rp.LogStartOffset, rp.PreferredReadReplica = p.Partition, -1, -1, -1, -1
			code := unknown
			var data []byte
			if hasPartition(topic, p.Partition) {
				code, data = b.readForConsumer(env, c, tp{Topic: topic.Name, Partition: p.Partition}, p, min(int(max(p.PartitionMaxBytes, 0)), limit), minOne, req.IsolationLevel == 1, &rp)
			}
			rp.ErrorCode = code
			if code != 0 || rp.PreferredReadReplica >= 0 {
				failed = true
			}
			if len(data) > 0 {
				rp.RecordBatches = data
				minOne = false
				limit = max(0, limit-len(data))
				total += len(data)
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp, total, failed
}

// fetchClient is what a consumer's fetch says of its client
// (ClientMetadata, Fetch v11+): whether it says anything, and its rack.
type fetchClient struct {
	metadata bool
	rack     string
}

// readForConsumer reads one partition for a consumer, filling in rp's
// offsets (and its preferred read replica, if the leader names one); it
// returns the error code and the bytes.
func (b *Broker) readForConsumer(env Env, c fetchClient, k tp, p kmsg.FetchRequestTopicPartition, maxBytes int, minOne, committed bool, rp *kmsg.FetchResponseTopicPartition) (int16, []byte) {
	s := b.Partition(k)
	if s == nil {
		return kafkaerr.NotLeaderOrFollower, nil
	}
	st := s.Node.Status()
	// FetchRequest.optionalEpoch: any negative epoch is none (ListOffsets
	// and OffsetForLeaderEpoch take only -1 as none)
	epoch := max(p.CurrentLeaderEpoch, -1)
	if c.metadata {
		if id := b.preferredReadReplica(env.Now(), st, c.rack, p.FetchOffset); id >= 0 {
			rp.PreferredReadReplica = id
			rp.HighWatermark, rp.LastStableOffset, rp.LogStartOffset = st.HighWatermark, s.Log.Kafka().LastStableOffset(st.HighWatermark), st.LogStartOffset
			return replicaCheck(st, epoch), nil
		}
	}
	check := leaderCheck
	if c.metadata {
		check = replicaCheck // params.fetchOnlyLeader() is false for a consumer that says who it is
	}
	if code := check(st, epoch); code != 0 {
		return code, nil
	}
	if p.FetchOffset < st.LogStartOffset || p.FetchOffset > st.LogEndOffset {
		return kafkaerr.OffsetOutOfRange, nil
	}
	lso := s.Log.Kafka().LastStableOffset(st.HighWatermark)
	rp.HighWatermark, rp.LastStableOffset, rp.LogStartOffset = st.HighWatermark, lso, st.LogStartOffset
	end := st.HighWatermark
	if committed {
		end = lso
		rp.AbortedTransactions = []kmsg.FetchResponseTopicPartitionAbortedTransaction{}
	}
	if maxBytes <= 0 && !minOne || p.FetchOffset >= end {
		return 0, nil
	}
	cfg := env.Settings(k.Topic).Log
	before := s.Log.Kafka().ReadStats()
	raw, err := s.Log.Kafka().ReadUpTo(p.FetchOffset, maxBytes+int(cfg.MaxMessageBytes), end)
	b.CountFetchRead(env, s, before)
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
		env.InternalError(b.ID(), err)
		return kafkaerr.UnknownServerError, nil
	}
	size := maxBytes
	if minOne && len(raw) > 0 {
		if first, _, err := kafkalog.PeekBatch(raw); err == nil {
			size = max(size, int(first))
		}
	}
	out := slices.Clone(raw[:min(len(raw), size)])
	if committed {
		rp.AbortedTransactions = abortedIn(s.Log.Kafka(), p.FetchOffset, out)
	}
	return 0, out
}

// abortedIn is the AbortedTransactions of a read_committed fetch at
// fetchOffset that got raw: the aborted transactions whose ABORT marker is
// at or after fetchOffset and that began before the offset after the last
// batch raw reaches into (UnifiedLog.collectAbortedTransactions with the
// fetch's upper bound, LocalLog.addAbortedTransactions), each as its
// producer id and first offset, which the consumer needs to skip its
// records.
func abortedIn(log *kafkalog.Log, fetchOffset int64, raw []byte) []kmsg.FetchResponseTopicPartitionAbortedTransaction {
	upper := fetchOffset
	for at := 0; at < len(raw); {
		h, err := kafkalog.ReadBatchHeader(raw[at:])
		if err != nil {
			break
		}
		upper = max(upper, h.NextOffset())
		at += int(h.Size())
	}
	out := []kmsg.FetchResponseTopicPartitionAbortedTransaction{}
	for _, t := range log.CollectAbortedTxns(fetchOffset, upper) {
		a := kmsg.NewFetchResponseTopicPartitionAbortedTransaction()
		a.ProducerID, a.FirstOffset = t.ProducerID, t.FirstOffset
		out = append(out, a)
	}
	return out
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

// replicaCheck is Partition.getLocalLog for a client that may read a
// follower (fetchOnlyFromLeader false: a consumer fetching from its
// preferred read replica, KIP-392, or a debugging ListOffsets): the
// request's leader epoch as in leaderCheck, then the broker's replica,
// whatever its role, answers from its log.
func replicaCheck(st replica.Status, currentLeaderEpoch int32) int16 {
	if code := leaderCheck(st, currentLeaderEpoch); code != kafkaerr.NotLeaderOrFollower {
		return code
	}
	return 0
}
