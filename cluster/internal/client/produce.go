package client

import (
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/cluster/internal/validator"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/partitioner"
	"github.com/kafkalive/kafkalive/replica"
)

// CheckProduce checks a record before [Producer.Produce]: its partition
// (-1: the partitioner's choice), its timestamp, if the application sets
// one, and that a transactional producer may send (its transaction is not
// ending, it was not fenced). A record it accepts, Produce takes.
func (p *Producer) CheckProduce(env Env, partition int32, timestampMs *int64) error {
	if err := p.checkTransactionalSend(); err != nil {
		return err
	}
	if err := p.checkCopierProduce(); err != nil {
		return err
	}
	if n, ok := env.PartitionCount(p.cfg.Topic); ok && partition >= n {
		return fmt.Errorf("%w: produce: topic %s has no partition %d", metadata.ErrInvalidConfig, p.cfg.Topic, partition)
	}
	if timestampMs != nil && *timestampMs < 0 {
		//lint:ignore ST1005 ProducerRecord's own words, as Kafka's client throws them
		return fmt.Errorf("%w: produce: ProducerRecord: Invalid timestamp: %d. Timestamp should always be non-negative or null.", metadata.ErrInvalidConfig, *timestampMs)
	}
	return nil
}

// Produce sends one record now: key "" with Keys configured takes the next
// of them; partition < 0 lets the partitioner choose; null makes the value
// null (a tombstone).
//
// A record without a key sent to a compacted topic is refused by the
// leader with INVALID_RECORD (LogValidator's validateKey: "Compacted topic
// cannot accept message without key"); here it fails at once.
//
// timestampMs, when not nil, is the record's timestamp set by the
// application (ProducerRecord's timestamp; a backfill sends records
// stamped days or weeks ago, out of order). Such a record's batch travels
// as the bytes the producer encodes (with [Settings.EncodeBatch] when
// given, else the library's encoder), its timestamp deltas relative to the
// batch's first record (Kafka 3.7's MemoryRecordsBuilder: baseTimestamp is
// the first record's, so deltas may be negative and span weeks). The
// leader checks it against message.timestamp.before.max.ms and
// after.max.ms (KIP-937; LogValidator.validateTimestamp): Kafka 3.7 bounds
// neither by default, Kafka 4 refuses a record more than an hour ahead of
// its clock (KIP-1030); a record outside the bounds fails with
// INVALID_TIMESTAMP. A world's clock starts where its config says
// (Config.ClockStartMs in the cluster package: 1970 for scenarios, the
// wall clock for the served world); a timestamp ahead of it that is taken
// keeps its segment from retention by time (retention.ms, counted from a
// segment's largest timestamp) until the clock passes it.
func (p *Producer) Produce(env Env, key, value string, null bool, partition int32, timestampMs *int64) error {
	if err := p.checkTransactionalSend(); err != nil {
		return err
	}
	if key == "" && len(p.cfg.Keys) > 0 {
		key = p.cfg.Keys[p.sent%len(p.cfg.Keys)]
	}
	partition, err := p.partition(env, key, value, null, partition)
	if err != nil {
		return err
	}
	now := env.Now()
	p.sent++
	if null {
		value = "∅"
	}
	p.results.Append(Result{Key: key, Value: value, Null: null, Partition: partition, Offset: -1, Acks: p.acks, firstSentMs: now, timestampMs: now, Sequence: -1})
	i := p.dropped + p.results.Len() - 1
	r := p.result(i)
	p.wakeAt(now + p.cfg.DeliveryTimeoutMs)
	if timestampMs != nil {
		r.timestampMs, r.stamped = *timestampMs, true
	}
	tp := p.tp(partition)
	if key == "" && env.LogConfig(p.cfg.Topic).Compact() {
		r.Failed, r.Error = true, "INVALID_RECORD"
		env.Record(event.Produce, 0, tp, "%s: %s refused: INVALID_RECORD (a compacted topic needs keys)", p.cfg.Name, value)
		p.txnFailed()
		return nil
	}
	if cfg := env.LogConfig(p.cfg.Topic); cfg.MessageTimestampType == kafkalog.CreateTime && timestampMs != nil && *timestampMs != kafkalog.NoTimestamp {
		// LogValidator's validateTimestamp: a CreateTime timestamp further
		// from the leader's clock than message.timestamp.before.max.ms or
		// after.max.ms is INVALID_TIMESTAMP; here it fails at once
		if _, hi, ok := validator.TimestampWithin(cfg, env.Now(), *timestampMs); !ok {
			r.Failed, r.Error = true, "INVALID_TIMESTAMP"
			before, after := cfg.TimestampBounds()
			why := fmt.Sprintf("%d ms behind the leader's clock %d, more than message.timestamp.before.max.ms %d", env.Now()-*timestampMs, env.Now(), before)
			if *timestampMs > hi {
				why = fmt.Sprintf("%d ms ahead of the leader's clock %d, more than message.timestamp.after.max.ms %d", *timestampMs-env.Now(), env.Now(), after)
			}
			env.Record(event.Produce, 0, tp, "%s: %s refused: INVALID_TIMESTAMP (timestamp %d is %s)", p.cfg.Name, value, *timestampMs, why)
			p.txnFailed()
			return nil
		}
	}
	if p.refuseRecordTooLarge(env, r) {
		p.txnFailed()
		return nil
	}
	if p.txn != nil && p.txnHold(env, i, partition) {
		return nil
	}
	if p.idempotent() {
		r.ProducerEpoch, r.Sequence = p.nextSequence(partition)
	}
	p.open = append(p.open, i)
	env.Record(event.Produce, 0, tp, "%s sends %s (acks=%s)", p.cfg.Name, Label{key, value}, AcksLabel(p.acks))
	if p.cfg.LingerMs > 0 {
		p.linger(env, i, batchSize(key, value, null))
		return nil
	}
	p.enqueue(i)
	p.drain(env)
	return nil
}

// partition is the partition of a record with key: partition when it is
// at least 0, else the key's (murmur2), else the keyless partitioner's.
func (p *Producer) partition(env Env, key, value string, null bool, partition int32) (int32, error) {
	topic := p.cfg.Topic
	n, _ := env.PartitionCount(topic)
	p.rng.lend(env.Rand())
	defer p.rng.release()
	var err error
	switch {
	case partition >= 0 && partition < n:
	case partition >= 0:
		return 0, fmt.Errorf("%w: topic %s has no partition %d", metadata.ErrInvalidConfig, topic, partition)
	case key != "":
		partition, err = partitioner.Partition([]byte(key), n)
	case p.uniform != nil:
		partition, err = p.uniform.Partition(topic, n, nil)
		if err == nil {
			// The batch is sent at once: the partition's queue is empty
			// again before the next record (allBatchesFull).
			p.uniform.Appended(topic, partition, batchSize(key, value, null), true, n, nil)
		}
	default:
		partition, err = p.sticky.Partition(topic, n, nil)
		if err == nil && p.lingering[partition] == nil {
			_, err = p.sticky.OnNewBatch(topic, partition, n, nil) // the record starts a new batch
		}
	}
	return partition, err
}

// tp names the producer's partition.
func (p *Producer) tp(partition int32) *kafkalog.TopicPartition {
	return &kafkalog.TopicPartition{Topic: p.cfg.Topic, Partition: partition}
}

// linger adds result i (size bytes as a batch of its own) to the batch open
// for its partition, first sending that batch if i would take it past
// batch.size (RecordAccumulator.tryAppend finds no room: a new batch).
func (p *Producer) linger(env Env, i, size int) {
	r := p.result(i)
	b := p.lingering[r.Partition]
	if b != nil {
		// The record's timestamp delta from the batch's first record
		// (MemoryRecordsBuilder.hasRoomFor counts it); size counted 0.
		size += varintSize(int(r.timestampMs-p.result(b.results[0]).timestampMs)) - varintSize(0)
	}
	if b != nil && b.bytes+size-recordBatchOverhead > p.cfg.BatchSize {
		p.sendLingering(env, r.Partition)
		b = nil
	}
	if b == nil {
		if p.lingering == nil {
			p.lingering = map[int32]*lingerBatch{}
		}
		b = &lingerBatch{createdMs: env.Now(), bytes: recordBatchOverhead}
		p.lingering[r.Partition] = b
	}
	b.results = append(b.results, i)
	b.bytes += size - recordBatchOverhead
	r.lingering = true
	// The delivery timeout counts from the batch's creation (ProducerBatch.createdMs).
	r.firstSentMs = b.createdMs
	p.wakeAt(b.createdMs + p.cfg.DeliveryTimeoutMs)
}

// sendLingering sends the batch open for partition.
func (p *Producer) sendLingering(env Env, partition int32) {
	b := p.lingering[partition]
	delete(p.lingering, partition)
	if b == nil {
		return
	}
	for _, i := range b.results {
		r := p.result(i)
		r.batch, r.lingering = b.results, false
		p.enqueue(i)
	}
	p.drain(env)
}

// sendDueBatches sends the batches whose linger.ms is over, by partition.
func (p *Producer) sendDueBatches(env Env) {
	var due []int32
	for partition, b := range p.lingering {
		if env.Now()-b.createdMs >= p.cfg.LingerMs {
			due = append(due, partition)
		}
	}
	slices.Sort(due)
	for _, partition := range due {
		p.sendLingering(env, partition)
	}
}

// refuseRecordTooLarge is the producer's own check of the record r it just
// took: a batch larger than max.request.size fails at once with
// RecordTooLargeException, whose code is MESSAGE_TOO_LARGE, and is never
// sent (KafkaProducer.doSend, ensureValidRecordSize, after the partitioner
// chose). It reports whether it refused the record.
func (p *Producer) refuseRecordTooLarge(env Env, r *Result) bool {
	rec := replica.Record{Value: []byte(r.Value)}
	if r.Key != "" {
		rec.Key = []byte(r.Key)
	}
	n := replicalog.EncodedSize(env.Now(), []replica.Record{rec})
	if n <= DefaultMaxRequestSize {
		return false
	}
	r.Failed, r.Error = true, replica.MessageTooLarge.String()
	env.Record(event.Produce, 0, p.tp(r.Partition), "%s: a record of %d bytes refused: %s (larger than max.request.size %d)", p.cfg.Name, n, r.Error, DefaultMaxRequestSize)
	return true
}
