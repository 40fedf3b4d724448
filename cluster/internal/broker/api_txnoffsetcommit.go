package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// txnOffsetCommit answers TxnOffsetCommit (KafkaApis.handleTxnOffsetCommitRequest,
// GroupMetadataManager.storeOffsets with a producer id): the group's
// offsets are appended to its __consumer_offsets partition as one
// transactional batch of the producer's (its id and epoch, no sequence),
// acks=all, and answered once the ISR has it. They count as committed only
// once the transaction's COMMIT marker is below the partition's high
// watermark, and never after an ABORT: the coordinator reads them from the
// log as a read_committed consumer would (offsetstore.go). A partition of
// a topic that does not exist is UNKNOWN_TOPIC_OR_PARTITION.
//
// A v3+ request carries the consumer's group metadata (KIP-447: generation,
// member id, group.instance.id): the group coordinator refuses the offsets
// of a member that is no longer in the group's current generation
// (group.Coordinator.TxnCommitError: ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID,
// FENCED_INSTANCE_ID), so that a zombie consumer-producer pair cannot commit
// offsets of partitions the group gave to another member.
//
// From v5 (transaction.version 2) the group's coordinator first has the
// transaction coordinator add the offsets partition to the transaction
// (txnoffsetsadd.go). Not modelled: the verification that the offsets
// partition is in the transaction for the versions before (KIP-890 part 1).
func (rq *Requests) txnOffsetCommit(env Env, b *Broker, id uint64, x *Request, req *kmsg.TxnOffsetCommitRequest) {
	resp := req.ResponseKind().(*kmsg.TxnOffsetCommitResponse)
	var records []txnOffset
	for ti, t := range req.Topics {
		rt := kmsg.NewTxnOffsetCommitResponseTopic()
		rt.Topic = t.Topic
		for pi, p := range t.Partitions {
			rp := kmsg.NewTxnOffsetCommitResponseTopicPartition()
			rp.Partition = p.Partition
			if !hasPartition(topicNamed(env, t.Topic), p.Partition) {
				rp.ErrorCode = kafkaerr.UnknownTopicOrPartition
			} else {
				records = append(records, txnOffset{ti: ti, pi: pi, rec: group.OffsetCommitRecord{Group: req.Group, CommitTimestampMs: env.Now(),
					PartitionOffset: group.PartitionOffset{TopicPartition: group.TopicPartition{Topic: t.Topic, Partition: p.Partition},
						Offset: p.Offset, LeaderEpoch: p.LeaderEpoch, Metadata: deref(p.Metadata)}}})
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	if len(records) == 0 {
		rq.answer(id, resp)
		return
	}
	noteTxn(env, x, "TxnOffsetCommit (transactional.id %s, producer id %d, epoch %d) of group %s: %d offset(s)", req.TransactionalID, req.ProducerID, req.ProducerEpoch, req.Group, len(records))
	k := metadata.OffsetsPartition(req.Group, b.cfg.OffsetsTopicNumPartitions)
	s := b.replicas[k]
	if s != nil {
		s.changing()
	}
	if !b.Coordinates(env, req.Group) || s == nil {
		setTxnCommitErrors(resp, records, kafkaerr.NotCoordinator)
		rq.answer(id, resp)
		return
	}
	if rq.offsetsPartitionNeeded(id, req.Version) {
		rq.addOffsetsPartition(env, b, id, x, req, k) // transaction.version 2: taken again once added
		return
	}
	if code := b.Coordinator(env).TxnCommitError(req.Group, req.Generation, req.MemberID, deref(req.InstanceID)); code != group.None {
		noteTxn(env, x, "TxnOffsetCommit of group %s refused: %s (generation %d, member %q)", req.Group, code, req.Generation, req.MemberID)
		setTxnCommitErrors(resp, records, int16(code))
		rq.answer(id, resp)
		return
	}
	recs := make([]group.OffsetCommitRecord, len(records))
	for i, r := range records {
		recs[i] = r.rec
	}
	batch := txnOffsetsBatch(req.ProducerID, req.ProducerEpoch, env.Now(), recs)
	corr := rq.nextCorr()
	if rq.txnCommits == nil {
		rq.txnCommits = map[int64]txnCommitWait{}
	}
	rq.txnCommits[corr] = txnCommitWait{id: id, resp: resp, records: records, broker: b.ID(), incarnation: b.Incarnation()}
	err := b.wake(s, env.Now()).Step(replica.Message{Type: replica.MsgProduce, From: clientNode(x.Client), To: b.ID(), CorrelationID: corr,
		Records: []replica.Record{{Batch: batch}}, Acks: replica.AcksAll, TimeoutMs: RequestTimeoutMs})
	if err == nil {
		err = b.processReady(env, s)
	}
	if err != nil {
		delete(rq.txnCommits, corr)
		env.InternalError(b.ID(), err)
	}
}

// txnOffsetsBatch is the transactional batch of producer pid (epoch
// epoch, no sequence) holding the offset commit records recs, as
// GroupMetadataManager.storeOffsets builds it for a TxnOffsetCommit; pid
// -1 makes a plain batch, an offset commit's.
func txnOffsetsBatch(pid int64, epoch int16, nowMs int64, recs []group.OffsetCommitRecord) []byte {
	batch := kafkalog.RecordBatch{}
	batch.Attributes = kafkalog.NewAttributes(kafkalog.CompressionNone, kafkalog.CreateTime, pid >= 0, false)
	batch.PartitionLeaderEpoch = kafkalog.NoPartitionLeaderEpoch
	batch.ProducerID, batch.ProducerEpoch, batch.BaseSequence = pid, epoch, kafkalog.NoSequence
	for i, r := range recs {
		batch.AppendRecord(int64(i), nowMs, group.AppendOffsetCommitKey(nil, r.Group, r.TopicPartition), group.AppendOffsetCommitValue(nil, r))
	}
	return batch.AppendTo(nil)
}

// txnOffset is one offset of a TxnOffsetCommit: its place in the request
// and its record.
type txnOffset struct {
	ti, pi int
	rec    group.OffsetCommitRecord
}

// txnCommitWait is a TxnOffsetCommit waiting for its append.
type txnCommitWait struct {
	id          uint64
	resp        *kmsg.TxnOffsetCommitResponse
	records     []txnOffset
	broker      int32
	incarnation int
}

// setTxnCommitErrors answers every offset of records with code.
func setTxnCommitErrors(resp *kmsg.TxnOffsetCommitResponse, records []txnOffset, code int16) {
	for _, r := range records {
		resp.Topics[r.ti].Partitions[r.pi].ErrorCode = code
	}
}

// txnCommitAnswered takes the answer to a TxnOffsetCommit's append,
// reporting whether corr was one; the append's error maps as
// [txn.OffsetsAppendError] says.
func (rq *Requests) txnCommitAnswered(corr int64, code replica.ErrorCode) bool {
	w, ok := rq.txnCommits[corr]
	if !ok {
		return false
	}
	delete(rq.txnCommits, corr)
	setTxnCommitErrors(w.resp, w.records, txn.OffsetsAppendError(code))
	rq.answer(w.id, w.resp)
	return true
}
