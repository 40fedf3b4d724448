package broker

import (
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/replica"
)

// simTxnOffsetCommit serves a simulated producer's TxnOffsetCommit
// (sendOffsetsToTransaction) as [Requests.txnOffsetCommit] serves a real
// client's: the group's coordinator checks the group metadata it carries
// (none, for a producer whose consumer has assigned partitions) and
// appends the offsets to the group's __consumer_offsets partition as one
// transactional batch of the producer, acks=all. The append is made from
// the producer's own node under its correlation id, so the leader's
// answer goes back to the producer, which reads its error as Kafka 3.7's
// GroupMetadataManager maps an offsets append's; a refusal before the
// append is a txn.TxnOffsetCommitResponse. Producer id -1 is a plain
// offset commit of the producer's consumer (a copier's auto-commit): a
// batch of no transaction, which counts at once.
func (b *Broker) simTxnOffsetCommit(env Env, e *netsim.Envelope, m txn.TxnOffsetCommit) {
	refuse := func(code int16) {
		env.Send(netsim.Envelope{From: b.id, To: e.From, Kind: netsim.KindTxnResponse, Txn: txn.TxnOffsetCommitResponse{Corr: m.Corr, Error: code}})
	}
	k := metadata.OffsetsPartition(m.Group, b.cfg.OffsetsTopicNumPartitions)
	s := b.replicas[k]
	if !b.Coordinates(env, m.Group) || s == nil {
		refuse(kafkaerr.NotCoordinator)
		return
	}
	recs := make([]group.OffsetCommitRecord, 0, len(m.Offsets))
	for _, o := range m.Offsets {
		if !hasPartition(topicNamed(env, o.TP.Topic), o.TP.Partition) {
			refuse(kafkaerr.UnknownTopicOrPartition)
			return
		}
		recs = append(recs, group.OffsetCommitRecord{Group: m.Group, CommitTimestampMs: env.Now(),
			PartitionOffset: group.PartitionOffset{TopicPartition: group.TopicPartition{Topic: o.TP.Topic, Partition: o.TP.Partition}, Offset: o.Offset, LeaderEpoch: -1}})
	}
	if code := b.Coordinator(env).TxnCommitError(m.Group, m.Generation, m.MemberID, ""); code != group.None {
		refuse(int16(code))
		return
	}
	s.changing()
	err := b.wake(s, env.Now()).Step(replica.Message{Type: replica.MsgProduce, From: e.From, To: b.id, CorrelationID: m.Corr,
		Records: []replica.Record{{Batch: txnOffsetsBatch(m.ProducerID, m.Epoch, env.Now(), recs)}}, Acks: replica.AcksAll, TimeoutMs: RequestTimeoutMs})
	if err == nil {
		err = b.processReady(env, s)
	}
	if err != nil {
		env.InternalError(b.id, err)
	}
}

// StableCommitted answers an OffsetFetch with require_stable (KIP-447, as
// Kafka 3.7's consumer sends it at isolation.level=read_committed) for one
// partition of group groupID: the committed offset (found false: none),
// or UNSTABLE_OFFSET_COMMIT while a transactional offset commit of the
// partition is pending (GroupMetadataManager.getOffsets with requireStable:
// its own transaction is open or its marker is not replicated yet; see
// txnFilter), or NOT_COORDINATOR when the broker does not coordinate the
// group. A real client's OffsetFetch reads the same rule
// (Broker.pendingTxnOffsets).
func (b *Broker) StableCommitted(env Env, groupID string, tp group.TopicPartition) (offset int64, found bool, code int16) {
	if !b.Coordinates(env, groupID) || b.replicas[metadata.OffsetsPartition(groupID, b.cfg.OffsetsTopicNumPartitions)] == nil {
		return -1, false, kafkaerr.NotCoordinator
	}
	if b.pendingTxnOffsets(groupID)[tp] {
		return -1, false, kafkaerr.UnstableOffsetCommit
	}
	po, ok := b.Committed().Committed(groupID, tp)
	if !ok {
		return -1, false, 0
	}
	return po.Offset, true, 0
}

// pendingTxnOffsets are the partitions of groupID whose committed offset
// has a transactional commit pending at b (as [Broker.StableCommitted]
// counts one), read in one pass over the group's offsets partition; nil
// when there is none or b holds no replica of it.
func (b *Broker) pendingTxnOffsets(groupID string) map[group.TopicPartition]bool {
	s := b.replicas[metadata.OffsetsPartition(groupID, b.cfg.OffsetsTopicNumPartitions)]
	if s == nil {
		return nil
	}
	s.changing()
	f := newTxnFilter(s.Log.Kafka(), s.Node.Progress().HighWatermark)
	if f == nil {
		return nil
	}
	var out map[group.TopicPartition]bool
	for _, e := range s.Log.Mirror().From(0) {
		if f.state(e) != txnPending {
			continue
		}
		rec, err := group.ReadOffsetCommit(e.Key, nil)
		if err != nil || rec.Group != groupID {
			continue
		}
		if out == nil {
			out = map[group.TopicPartition]bool{}
		}
		out[rec.TopicPartition] = true
	}
	return out
}
