package client

import (
	"fmt"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// sendBatch sends the batch members (index order, unsettled) of one
// partition to its leader as part of request corr.
func (p *Producer) sendBatch(env Env, leader int32, corr int64, members []int) {
	r := p.result(members[0])
	tp := kafkalog.TopicPartition{Topic: p.cfg.Topic, Partition: r.Partition}
	now := env.Now()
	records := make([]replica.Record, 0, len(members))
	timestamps := make([]int64, 0, len(members))
	stamped := false
	for _, j := range members {
		m := p.result(j)
		m.Attempts++
		m.queued = false
		stamped = stamped || m.stamped
		m.inflight, m.sentMs, m.retryAtMs, m.sentEpoch, m.sentTo = corr, now, 0, m.ProducerEpoch, leader
		rec := replica.Record{Value: []byte(m.Value)}
		if m.Null {
			rec.Value = nil
		}
		if m.Sequence >= 0 {
			rec.Producer = &replica.ProducerSequence{ID: p.producerID(), Epoch: m.ProducerEpoch, Sequence: m.Sequence}
		}
		if m.Key != "" {
			rec.Key = []byte(m.Key)
		}
		records = append(records, rec)
		timestamps = append(timestamps, m.timestampMs)
	}
	if p.encodedByPart() || stamped || p.transactional() {
		records[0].Batch = p.encodeRecords(records, timestamps)
	}
	// The batch goes with the acks its records were sent with: a retry
	// after set-producer is still the old producer's record (Kafka fixes
	// acks for a producer's life).
	acks := r.Acks
	env.Send(netsim.Envelope{From: p.id, To: leader, Kind: netsim.KindReplica, TP: tp, Msg: replica.Message{Type: replica.MsgProduce,
		From: p.id, To: leader, CorrelationID: corr, Records: records, Acks: acks, TimeoutMs: p.cfg.RequestTimeoutMs},
		TransactionalID: p.cfg.TransactionalID, TxnV2: p.txn != nil && p.txn.tv2})
	if acks == 0 {
		for _, j := range members {
			m := p.result(j)
			m.inflight, m.Acked = 0, true // acks=0: no answer comes; counted as sent, offset -1 as RecordMetadata has it
		}
		return
	}
	p.inflight = append(p.inflight, sentBatch{corr: corr, broker: leader, partition: r.Partition, results: members})
	p.wakeAt(now + p.cfg.RequestTimeoutMs)
}

// encodedByPart reports whether the producer encodes its batches with
// [Settings.EncodeBatch] (never those of the internal topic).
func (p *Producer) encodedByPart() bool {
	return p.settings.EncodeBatch != nil && p.cfg.Topic != metadata.OffsetsTopic
}

// encodeRecords encodes records, with their timestamps, as the batch the
// producer sends (a transactional producer's is transactional), with
// [Settings.EncodeBatch] (the library's encoder if it declines or is not
// given).
func (p *Producer) encodeRecords(records []replica.Record, timestamps []int64) []byte {
	var b kafkalog.RecordBatch
	b.Attributes = kafkalog.NewAttributes(kafkalog.CompressionNone, kafkalog.CreateTime, p.transactional(), false)
	b.PartitionLeaderEpoch = kafkalog.NoPartitionLeaderEpoch
	b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, kafkalog.NoSequence
	if s := records[0].Producer; s != nil {
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = s.ID, s.Epoch, s.Sequence
	}
	for i, rec := range records {
		b.AppendRecord(int64(i), timestamps[i], rec.Key, rec.Value)
	}
	if encode := p.settings.EncodeBatch; encode != nil {
		if out, ok := encode(nil, &b); ok {
			return out
		}
	}
	return b.AppendTo(nil)
}

// acknowledged takes a leader's acknowledgement of the results answered,
// at the offsets of their places in the batch sent.
func (p *Producer) acknowledged(env Env, e *netsim.Envelope, answered, places []int) {
	for k, i := range answered {
		r := p.result(i)
		r.inflight, r.Acked, r.Offset = 0, true, e.Resp.BaseOffset+int64(places[k])
		env.Record(event.Produce, 0, &e.TP, "%s: %s acknowledged at offset %d", p.cfg.Name, Label{r.Key, r.Value}, r.Offset)
		if p.encodedByPart() {
			env.MarkLast(event.PartEncoder)
		}
	}
}

// refused takes a leader's error answer to the results answered: each is
// retried or fails.
func (p *Producer) refused(env Env, e *netsim.Envelope, answered []int) {
	bumped := false
	var failed []int
	// One line for the answer, as Kafka's Sender logs one per batch
	// ("Got error produce response ... retrying"): a producer whose
	// records wait out a long outage retries them all every
	// retry.backoff.ms, and a line per record and retry would fill the
	// history (twenty records a second for eight minutes: ten million).
	first := p.result(answered[0])
	if len(answered) == 1 {
		env.Record(event.Produce, 0, &e.TP, "%s: %s got %s", p.cfg.Name, Label{first.Key, first.Value}, e.Resp.Error)
	} else {
		env.Record(event.Produce, 0, &e.TP, "%s: %s and %d more records got %s", p.cfg.Name, Label{first.Key, first.Value}, len(answered)-1, e.Resp.Error)
	}
	if p.encodedByPart() {
		env.MarkLast(event.PartEncoder)
	}
	for _, i := range answered {
		r := p.result(i)
		retriable := e.Resp.Error.Retriable()
		if e.Resp.Error == replica.OutOfOrderSequenceNumber && r.Sequence >= 0 && p.txn == nil {
			// Kafka 3.7's TransactionManager.canRetry: an idempotent
			// producer retries it; a gap in the sequence (the leader lost
			// records, e.g. after an unclean election) bumps the epoch
			// first, unless the sequence was reset since this send.
			retriable = true
			if r.sentEpoch == p.partitionEpoch(r.Partition) && !bumped {
				p.bumpEpoch(env, r.Partition, -1)
				bumped = true
			}
		}
		if retriable {
			p.retryOrFail(env, i, e.Resp.Error.String(), true)
		} else {
			failed = append(failed, i)
		}
	}
	if len(failed) > 0 {
		p.failBatch(env, failed, e.Resp.Error.String())
	}
}

// retryOrFail puts a record that got a retriable error back in its
// partition's deque, to go again after its backoff ([Producer.retryBackoff];
// the delivery timeout is [Producer.Tick]'s), else fails it.
func (p *Producer) retryOrFail(env Env, i int, code string, retriable bool) {
	r := p.result(i)
	r.inflight, r.LastError = 0, code
	if retriable {
		r.retryAtMs = env.Now() + p.retryBackoff(r.Attempts)
		p.enqueue(i)
		return
	}
	p.failRecord(env, i, code)
}

// retryBackoff is how long a batch sent attempts times waits before its
// next attempt. From [replica.V3_7] it is Kafka 3.7's ExponentialBackoff
// (KIP-580, RecordAccumulator's retryBackoff): retry.backoff.ms doubled
// with each attempt after the first, at most retry.backoff.max.ms (a
// static retry.backoff.max.ms when it is the smaller; the ±20% jitter is
// not modelled); before, the clients' constant retry.backoff.ms.
func (p *Producer) retryBackoff(attempts int) int64 {
	base, most := p.cfg.RetryBackoffMs, p.cfg.RetryBackoffMaxMs
	if p.settings.Rules < replica.V3_7 {
		return base
	}
	if base >= most {
		return most
	}
	b := base
	for k := 1; k < attempts && b < most; k++ {
		b *= 2
	}
	return min(b, most)
}

// expire fails the batch of record i delivery.timeout.ms after its
// first record was produced (ProducerBatch.createdMs), whether it waits to
// be retried or is in flight, as Kafka's Sender does (sendProducerData
// expires both, with a TimeoutException "Expiring 1 record(s) for
// orders-0:120000 ms has passed since batch creation"): a batch ends
// whole, so that its retries are the batch the leader saw. Its records'
// Error is "TIMEOUT(last)", last being the latest error the broker
// answered, if any.
func (p *Producer) expire(env Env, i int) {
	r := p.result(i)
	members := []int{i}
	if r.batch != nil {
		members = members[:0]
		for _, j := range r.batch {
			if m := p.result(j); !m.Acked && !m.Failed {
				members = append(members, j)
			}
		}
	}
	tp := p.tp(r.Partition)
	first := p.result(members[0])
	what := Label{first.Key, first.Value}.String()
	if len(members) > 1 {
		what += fmt.Sprintf(" and %d more records", len(members)-1)
	}
	env.Record(event.Produce, 0, tp, "%s: %s: TimeoutException: Expiring %d record(s) for %s-%d:%d ms has passed since batch creation",
		p.cfg.Name, what, len(members), tp.Topic, tp.Partition, env.Now()-first.firstSentMs)
	code := "TIMEOUT"
	if r.LastError != "" {
		code += "(" + r.LastError + ")"
	}
	p.failBatch(env, members, code)
}

// failRecord ends record i with error code; an idempotent producer then
// bumps its epoch.
func (p *Producer) failRecord(env Env, i int, code string) { p.failBatch(env, []int{i}, code) }

// failBatch ends the records of one partition's batch with error code; an
// idempotent producer without transactions then bumps its epoch, once
// (TransactionManager.handleFailedBatch asks for one bump per partition).
func (p *Producer) failBatch(env Env, members []int, code string) {
	for _, i := range members {
		r := p.result(i)
		r.Failed, r.Error, r.retryAtMs, r.inflight, r.queued = true, code, 0, 0, false
		env.Record(event.Produce, 0, p.tp(r.Partition), "%s: %s failed: %s", p.cfg.Name, Label{r.Key, r.Value}, r.Error)
		if p.txn != nil {
			p.txnFailed() // an abortable error: the transaction cannot commit
		}
	}
	if r := p.result(members[0]); p.txn == nil && r.Sequence >= 0 {
		p.bumpEpoch(env, r.Partition, members[0])
	}
}

// partSeq is where a partition's numbering stands: the producer epoch and
// the next sequence number.
type partSeq struct {
	epoch int16
	next  int32
}

// nextSequence hands out the producer epoch and the next sequence number of
// a record of partition. A partition still numbered in an older epoch moves
// to the producer's latest, at sequence 0, once none of its records of the
// older epoch is unsettled, as Kafka's TransactionManager does
// (maybeUpdateProducerIdAndEpoch: the partition's in-flight batches finish
// in the old epoch first); until then its records continue the older
// epoch's sequence, which the partition's leader still expects.
func (p *Producer) nextSequence(partition int32) (epoch int16, seq int32) {
	if p.nextSeq == nil {
		p.nextSeq = map[int32]partSeq{}
	}
	s, ok := p.nextSeq[partition]
	if !ok || s.epoch != p.epoch && !p.unsettledIn(partition, s.epoch) {
		s = partSeq{epoch: p.epoch}
	}
	p.nextSeq[partition] = partSeq{epoch: s.epoch, next: s.next + 1}
	return s.epoch, s.next
}

// partitionEpoch is the producer epoch partition's records are numbered in.
func (p *Producer) partitionEpoch(partition int32) int16 {
	if s, ok := p.nextSeq[partition]; ok {
		return s.epoch
	}
	return p.epoch
}

// unsettledIn reports whether a record of partition numbered in epoch is
// neither acknowledged nor failed.
func (p *Producer) unsettledIn(partition int32, epoch int16) bool {
	for _, i := range p.open {
		if r := p.result(i); r.Partition == partition && r.Sequence >= 0 && r.ProducerEpoch == epoch && !r.Acked && !r.Failed {
			return true
		}
	}
	return false
}

// bumpEpoch follows a gap in partition's sequence: result failed failed for
// good (skip it), or a leader answered OUT_OF_ORDER_SEQUENCE_NUMBER (failed
// -1). As Kafka's TransactionManager does for an idempotent producer
// without transactions (handleFailedBatch and canRetry call
// requestEpochBumpForPartition, bumpIdempotentProducerEpoch bumps), the
// producer moves to the next epoch and renumbers the partition's records
// not yet settled, those in flight included, from 0 in send order
// (TxnPartitionMap.startSequencesAtBeginning); its other partitions move to
// the new epoch once their records of the old one are settled
// ([Producer.nextSequence]). The leader takes a new epoch only at sequence
// 0 (ProducerAppendInfo.checkSequence). Kafka asks for the new epoch with
// InitProducerId; here it comes at once.
func (p *Producer) bumpEpoch(env Env, partition int32, failed int) {
	p.epoch++
	if p.nextSeq == nil {
		p.nextSeq = map[int32]partSeq{}
	}
	p.nextSeq[partition] = partSeq{epoch: p.epoch}
	// p.open may be being compacted by Tick: visit each index once.
	seen := map[int]bool{failed: failed >= 0}
	for _, i := range p.open {
		if seen[i] {
			continue
		}
		seen[i] = true
		if r := p.result(i); r.Partition == partition && !r.Acked && !r.Failed && r.Sequence >= 0 && !r.held {
			r.ProducerEpoch, r.Sequence = p.nextSequence(partition)
		}
	}
	env.Record(event.Produce, 0, p.tp(partition), "%s: producer epoch bumped to %d (sequences of %s-%d start again at 0)", p.cfg.Name, p.epoch, p.cfg.Topic, partition)
}
