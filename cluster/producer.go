package cluster

import (
	"fmt"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/validator"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/partitioner"
	"github.com/kafkalive/kafkalive/replica"
)

// Producer defaults (Kafka's producer configs).
const (
	DefaultRequestTimeoutMs  = 30000  // request.timeout.ms
	DefaultDeliveryTimeoutMs = 120000 // delivery.timeout.ms
	DefaultRetryBackoffMs    = 100    // retry.backoff.ms
)

// ProducerConfig describes a producer. With linger.ms 0 (the default, as
// in Kafka 3.7) each record is sent alone, as one batch, to the leader the
// controller names (instant metadata); with [ProducerConfig.LingerMs] the
// records for one partition wait and travel together as one batch.
//
// The zero values of Acks, EnableIdempotence and Partitioner are the
// defaults of the client of the world's rule set ([Config.Rules]): under
// [replica.Modern] those of a current Java client (Kafka 3.7's
// ProducerConfig: acks=all and enable.idempotence=true since 3.0, KIP-679;
// the built-in uniform sticky partitioner since 3.3, KIP-794), under the
// older rule sets those of the clients of their time (acks=1,
// enable.idempotence=false, KIP-480's sticky partitioner).
type ProducerConfig struct {
	// Name identifies the producer in actions and the state.
	Name string
	// Topic is where it writes.
	Topic string
	// Acks is "0", "1" or "all" (default "all" under [replica.Modern],
	// Kafka 3.0+; "1" under older rules, as before 3.0).
	Acks string
	// Keys are "a few keys": record i gets key Keys[i mod len(Keys)] and the
	// partition murmur2(key) mod partitions. Without keys the keyless
	// partitioner ([ProducerConfig.Partitioner]) picks the partition.
	Keys []string
	// RecordsPerSec is the rate of records produced on their own while the
	// world runs (0: only explicit [World.Produce]).
	RecordsPerSec int
	// Rate, when above 0, is the rate as a fraction of records a second
	// (1.5), to a thousandth; it takes the place of RecordsPerSec.
	Rate float64
	// RequestTimeoutMs is request.timeout.ms (default 30000).
	RequestTimeoutMs int64
	// DeliveryTimeoutMs is delivery.timeout.ms (default 120000): retriable
	// errors are retried until then.
	DeliveryTimeoutMs int64
	// RetryBackoffMs is retry.backoff.ms (default 100).
	RetryBackoffMs int64
	// EnableIdempotence is enable.idempotence (KIP-98): each record carries
	// the producer's id, epoch 0 and a per-partition sequence number, so a
	// leader answers a retry of a record it holds with the original offset
	// instead of writing it again; the sequences travel in the record
	// batches, so a new leader knows them too. nil is the client's default:
	// on under [replica.Modern] (Kafka 3.0+) unless acks is not "all", in
	// which case it is quietly off, as ProducerConfig's
	// postProcessAndValidateIdempotenceConfigs does; off under older rules.
	// Set to true with acks other than "all" it is [ErrInvalidConfig]
	// (Kafka's ConfigException). A record that finally fails leaves a gap
	// in the sequence; the producer does not bump its epoch as Kafka's does.
	EnableIdempotence *bool
	// Partitioner picks the partition of records without a key:
	// [PartitionerUniformSticky] (the default under [replica.Modern]) or
	// [PartitionerSticky] (the default under older rules).
	Partitioner string
	// BatchSize is batch.size in bytes (default 16384), the uniform sticky
	// partitioner's switch point, and with LingerMs the most a batch holds.
	BatchSize int
	// LingerMs is linger.ms (default 0: every record is sent at once, alone).
	// Above 0 a record for a partition joins the batch open for it, and the
	// batch is sent linger.ms after its first record, or as soon as the next
	// record would take it past batch.size (that record starts the next
	// batch), as Kafka 3.7's RecordAccumulator.append and ready do. A batch
	// is retried, acknowledged and failed whole; its records get consecutive
	// offsets (ProduceResponse's baseOffset and their place in the batch).
	LingerMs int64
	// TransactionalID is transactional.id (KIP-98, Kafka 0.11+): the
	// producer is idempotent (enable.idempotence false with it is
	// [ErrInvalidConfig], Kafka's ConfigException), its batches are
	// transactional, and [ActCommitTransaction] and [ActAbortTransaction]
	// end a transaction with a marker on each partition it wrote to
	// (transaction.go says what is modelled). "" (the default): none.
	TransactionalID string
}

// Partitioners for records without a key ([ProducerConfig.Partitioner]).
const (
	// PartitionerSticky is KIP-480's (Kafka 2.4-3.2): a new partition with
	// each new batch; without linger.ms every record here is its own batch,
	// so every record.
	// The rule sets older than 2.4 use it too (their clients went
	// round-robin; nothing here depends on that).
	PartitionerSticky = "sticky"
	// PartitionerUniformSticky is KIP-794's built-in partitioner (3.3+): a
	// new partition, drawn uniformly, once batch.size bytes went to the
	// current one. Each record here is a batch sent at once, so the queue is
	// empty when the next record comes (RecordAccumulator's allBatchesFull)
	// and the switch happens at batch.size, not twice it. Adaptive
	// partitioning (partitioner.adaptive.partitioning.enable, leaning away
	// from brokers with long queues) is not modelled.
	PartitionerUniformSticky = "uniform-sticky"
)

// DefaultBatchSize is batch.size.
const DefaultBatchSize = 16384

// Bool returns a pointer to b, for [ProducerConfig.EnableIdempotence].
func Bool(b bool) *bool { return &b }

// Without idempotence a retry after NOT_ENOUGH_REPLICAS_AFTER_APPEND or a
// timeout may write a record twice, as Kafka before 3.0 did by default.

// Result is what a producer was told about one record.
type Result struct {
	Key, Value string
	Partition  int32
	// Offset is the acknowledged offset, -1 while pending, after an error,
	// and for acks=0 (no answer).
	Offset int64
	// Error is the final error ("" if acknowledged or pending).
	Error string
	// Acked and Failed say how it ended; neither means pending.
	Acked, Failed bool
	// Acks is the acks setting it was sent with (-1 = all).
	Acks int16
	// Attempts counts sends.
	Attempts int
	// LastError is the latest retriable error, if any.
	LastError string
	// Null marks a tombstone (null value; Value shows "∅").
	Null bool
	// Sequence is the idempotent producer's sequence number of the record
	// in its partition, -1 without idempotence.
	Sequence int32
	// ProducerEpoch is the idempotent producer's epoch the record was (last)
	// sent with: 0, one more after each record that finally failed.
	ProducerEpoch int16

	firstSentMs int64
	// timestampMs is the record's timestamp (CreateTime: when it was
	// produced, or what the application set, stamped).
	timestampMs int64
	// stamped: the application set timestampMs ([Action.TimestampMs]).
	stamped bool
	// batch lists the results sent together with this one, this one included
	// (nil: sent alone), by result index.
	batch     []int
	lingering bool  // waiting in an open batch (LingerMs)
	sentEpoch int16 // the producer epoch of the latest send
	retryAtMs int64 // >0: waiting to retry
	inflight  int64 // correlation id in flight, 0 if none
	sentMs    int64
}

// Producer is a producer client in the world.
type Producer struct {
	cfg ProducerConfig
	// idemDefault: enable.idempotence was left to the default, so it
	// follows acks when [World.SetProducer] changes them.
	idemDefault bool
	id          int32
	acks        int16
	sticky      *partitioner.Sticky
	uniform     *partitioner.UniformSticky
	results     []Result
	corr        int64
	carry       int // rate accumulator, in thousandths of records × ms
	sent        int
	// open indexes the results still in flight or waiting to retry.
	open []int
	// nextSeq is the next sequence number per partition and epoch the
	// current producer epoch (idempotence).
	nextSeq map[int32]int32
	epoch   int16
	// lingering holds, per partition, the batch waiting for linger.ms
	// (LingerMs above 0).
	lingering map[int32]*lingerBatch
	// txn is the transaction of a producer with a transactional.id.
	txn *txnState
	// dropped counts the results that fell off the front of results
	// ([TimelineConfig.KeepMs]), and how many of them were acknowledged
	// or failed; result indexes count them.
	dropped, droppedAcked, droppedFailed int
}

// lingerBatch is a batch of records for one partition waiting to be sent
// (RecordAccumulator's ProducerBatch): result indexes, when its first record
// came, and its size as the accumulator estimates it.
type lingerBatch struct {
	results   []int
	createdMs int64
	bytes     int
}

// result returns result i, counting those that fell off.
func (p *Producer) result(i int) *Result { return &p.results[i-p.dropped] }

// Name returns the producer's name.
func (p *Producer) Name() string { return p.cfg.Name }

// Config returns the producer's configuration, with defaults filled in.
func (p *Producer) Config() ProducerConfig { return p.cfg }

// Results returns what the producer was told, one entry per record in
// send order (without those that fell off a bounded timeline,
// [TimelineConfig.KeepMs]). The caller must not modify it.
func (p *Producer) Results() []Result { return p.results }

func parseAcks(s string) (int16, error) {
	switch s {
	case "", "all", "-1":
		return replica.AcksAll, nil
	case "1":
		return 1, nil
	case "0":
		return 0, nil
	}
	return 0, fmt.Errorf("%w: acks %q", ErrInvalidConfig, s)
}

func (w *World) addProducer(cfg ProducerConfig) error {
	explicit := cfg.EnableIdempotence
	cfg, err := w.producerDefaults(cfg)
	if err != nil {
		return err
	}
	acks, err := parseAcks(cfg.Acks)
	if err != nil {
		return err
	}
	if w.topic(cfg.Topic) == nil {
		return fmt.Errorf("%w: producer %q: no topic %q", ErrInvalidConfig, cfg.Name, cfg.Topic)
	}
	if w.producer(cfg.Name) != nil || cfg.Name == "" {
		return fmt.Errorf("%w: producer name %q empty or taken", ErrInvalidConfig, cfg.Name)
	}
	p := &Producer{cfg: cfg, idemDefault: explicit == nil, id: netsim.ProducerBase + int32(len(w.producers)), acks: acks, sticky: partitioner.NewSticky(w.rnd)}
	if cfg.Partitioner == PartitionerUniformSticky {
		p.uniform = partitioner.NewUniformSticky(w.rnd, cfg.BatchSize)
	}
	w.producers = append(w.producers, p)
	return nil
}

// producerDefaults fills in the zero fields of cfg with the defaults of
// the rule set's client (see [ProducerConfig]).
func (w *World) producerDefaults(cfg ProducerConfig) (ProducerConfig, error) {
	modern := w.cfg.Rules >= replica.Modern
	if cfg.Acks == "" {
		cfg.Acks = "1"
		if modern {
			cfg.Acks = "all"
		}
	}
	acks, err := parseAcks(cfg.Acks)
	if err != nil {
		return cfg, err
	}
	cfg.Acks = acksLabel(acks)
	if cfg.TransactionalID != "" {
		switch {
		case w.cfg.Rules < replica.V0_11:
			return cfg, fmt.Errorf("%w: producer %q: transactional.id needs Kafka 0.11+ (KIP-98), not %s", ErrInvalidConfig, cfg.Name, w.cfg.Rules)
		case cfg.EnableIdempotence != nil && !*cfg.EnableIdempotence:
			return cfg, fmt.Errorf("%w: producer %q: Cannot set a transactional.id without also enabling idempotence", ErrInvalidConfig, cfg.Name)
		case acks != replica.AcksAll:
			return cfg, fmt.Errorf("%w: producer %q: transactional.id needs acks=all, not acks=%s", ErrInvalidConfig, cfg.Name, cfg.Acks)
		}
		cfg.EnableIdempotence = Bool(true)
	}
	switch {
	case cfg.EnableIdempotence == nil:
		cfg.EnableIdempotence = Bool(modern && acks == replica.AcksAll)
	case *cfg.EnableIdempotence && acks != replica.AcksAll:
		return cfg, fmt.Errorf("%w: producer %q: enable.idempotence needs acks=all, not acks=%s", ErrInvalidConfig, cfg.Name, cfg.Acks)
	default:
		cfg.EnableIdempotence = Bool(*cfg.EnableIdempotence)
	}
	if cfg.Partitioner == "" {
		cfg.Partitioner = PartitionerSticky
		if modern {
			cfg.Partitioner = PartitionerUniformSticky
		}
	}
	if cfg.RequestTimeoutMs == 0 {
		cfg.RequestTimeoutMs = DefaultRequestTimeoutMs
	}
	if cfg.DeliveryTimeoutMs == 0 {
		cfg.DeliveryTimeoutMs = DefaultDeliveryTimeoutMs
	}
	if cfg.RetryBackoffMs == 0 {
		cfg.RetryBackoffMs = DefaultRetryBackoffMs
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	return cfg, nil
}

// idempotent reports whether p numbers its records.
func (p *Producer) idempotent() bool {
	return p.cfg.EnableIdempotence != nil && *p.cfg.EnableIdempotence
}

func (w *World) producer(name string) *Producer {
	for _, p := range w.producers {
		if p.cfg.Name == name {
			return p
		}
	}
	return nil
}

// produce sends one record now. key "" with Keys configured takes the next
// of them; partition < 0 lets the partitioner choose.
func (w *World) produce(p *Producer, key, value string, partition int32) error {
	return w.produceRecord(p, key, value, false, partition)
}

// produceRecord is produce with a null value (a tombstone) when null is set.
// A record without a key sent to a compacted topic is refused by the
// leader with INVALID_RECORD (LogValidator's validateKey: "Compacted topic
// cannot accept message without key"); here it fails at once.
func (w *World) produceRecord(p *Producer, key, value string, null bool, partition int32) error {
	return w.produceStamped(p, key, value, null, partition, nil)
}

// produceStamped is produceRecord with the record's timestamp set by the
// application when timestampMs is not nil (ProducerRecord's timestamp; a
// backfill sends records stamped days or weeks ago, out of order). Such a
// record's batch travels as the bytes the producer encodes (with
// [Parts.EncodeBatch] when given, else the library's encoder), its
// timestamp deltas relative to the batch's first record (Kafka 3.7's
// MemoryRecordsBuilder: baseTimestamp is the first record's, so deltas may
// be negative and span weeks). The leader takes any timestamp unless the
// topic bounds it: Kafka 3.7's message.timestamp.before.max.ms and
// after.max.ms default to Long.MAX_VALUE (KIP-937;
// LogValidator.validateTimestamp); a record outside the bounds fails with
// INVALID_TIMESTAMP. The world's
// clock starts at 0 ms (1970-01-01), so a timestamp of a real date lies in
// its future, and retention by time (retention.ms, counted from a
// segment's largest timestamp) keeps it.
func (w *World) produceStamped(p *Producer, key, value string, null bool, partition int32, timestampMs *int64) error {
	if err := validateTransactionalSend(p); err != nil {
		return err
	}
	t := w.topic(p.cfg.Topic)
	if key == "" && len(p.cfg.Keys) > 0 {
		key = p.cfg.Keys[p.sent%len(p.cfg.Keys)]
	}
	n := int32(len(t.Assignment))
	var err error
	switch {
	case partition >= 0 && partition < n:
	case partition >= 0:
		return fmt.Errorf("%w: topic %s has no partition %d", ErrInvalidConfig, t.Name, partition)
	case key != "":
		partition, err = partitioner.Partition([]byte(key), n)
	case p.uniform != nil:
		partition, err = p.uniform.Partition(t.Name, n, nil)
		if err == nil {
			// The batch is sent at once: the partition's queue is empty
			// again before the next record (allBatchesFull).
			p.uniform.Appended(t.Name, partition, batchSize(key, value, null), true, n, nil)
		}
	default:
		partition, err = p.sticky.Partition(t.Name, n, nil)
		if err == nil && p.lingering[partition] == nil {
			_, err = p.sticky.OnNewBatch(t.Name, partition, n, nil) // the record starts a new batch
		}
	}
	if err != nil {
		return err
	}
	p.sent++
	if null {
		value = "∅"
	}
	p.results = append(p.results, Result{Key: key, Value: value, Null: null, Partition: partition, Offset: -1, Acks: p.acks, firstSentMs: w.now, timestampMs: w.now, Sequence: -1})
	if timestampMs != nil {
		r := &p.results[len(p.results)-1]
		r.timestampMs, r.stamped = *timestampMs, true
	}
	tp := partitionKey{Topic: t.Name, Partition: partition}
	if key == "" && w.logConfig(t.Name).Compact() {
		r := p.result(p.dropped + len(p.results) - 1)
		r.Failed, r.Error = true, "INVALID_RECORD"
		w.record(EventProduce, 0, &tp, "%s: %s refused: INVALID_RECORD (a compacted topic needs keys)", p.cfg.Name, value)
		w.txnSendFailed(p)
		return nil
	}
	if cfg := w.logConfig(t.Name); cfg.MessageTimestampType == kafkalog.CreateTime && timestampMs != nil && *timestampMs != kafkalog.NoTimestamp {
		// LogValidator's validateTimestamp: a CreateTime timestamp further
		// from the leader's clock than message.timestamp.before.max.ms or
		// after.max.ms is INVALID_TIMESTAMP; here it fails at once
		if lo, hi, ok := validator.TimestampWithin(cfg, w.now, *timestampMs); !ok {
			r := p.result(p.dropped + len(p.results) - 1)
			r.Failed, r.Error = true, "INVALID_TIMESTAMP"
			w.record(EventProduce, 0, &tp, "%s: %s refused: INVALID_TIMESTAMP (timestamp %d outside [%d, %d])", p.cfg.Name, value, *timestampMs, lo, hi)
			w.txnSendFailed(p)
			return nil
		}
	}
	if w.refuseRecordTooLarge(p, tp) {
		w.txnSendFailed(p)
		return nil
	}
	w.txnAddPartition(p, partition)
	if p.idempotent() {
		r := p.result(p.dropped + len(p.results) - 1)
		r.Sequence, r.ProducerEpoch = p.nextSequence(partition), p.epoch
	}
	i := p.dropped + len(p.results) - 1
	p.open = append(p.open, i)
	w.record(EventProduce, 0, &tp, "%s sends %s (acks=%s)", p.cfg.Name, recordLabel(key, value), acksLabel(p.acks))
	if p.cfg.LingerMs > 0 {
		w.linger(p, i, batchSize(key, value, null))
		return nil
	}
	w.sendRecord(p, i)
	return nil
}

// linger adds result i (size bytes as a batch of its own) to the batch open
// for its partition, first sending that batch if i would take it past
// batch.size (RecordAccumulator.tryAppend finds no room: a new batch).
func (w *World) linger(p *Producer, i, size int) {
	r := p.result(i)
	b := p.lingering[r.Partition]
	if b != nil {
		// The record's timestamp delta from the batch's first record
		// (MemoryRecordsBuilder.hasRoomFor counts it); size counted 0.
		size += varintSize(int(r.timestampMs-p.result(b.results[0]).timestampMs)) - varintSize(0)
	}
	if b != nil && b.bytes+size-recordBatchOverhead > p.cfg.BatchSize {
		w.sendLingering(p, r.Partition)
		b = nil
	}
	if b == nil {
		if p.lingering == nil {
			p.lingering = map[int32]*lingerBatch{}
		}
		b = &lingerBatch{createdMs: w.now, bytes: recordBatchOverhead}
		p.lingering[r.Partition] = b
	}
	b.results = append(b.results, i)
	b.bytes += size - recordBatchOverhead
	r.lingering = true
	// The delivery timeout counts from the batch's creation (ProducerBatch.createdMs).
	r.firstSentMs = b.createdMs
}

// recordBatchOverhead is the v2 batch header (DefaultRecordBatch.RECORD_BATCH_OVERHEAD).
const recordBatchOverhead = 61

// sendLingering sends the batch open for partition.
func (w *World) sendLingering(p *Producer, partition int32) {
	b := p.lingering[partition]
	delete(p.lingering, partition)
	if b == nil {
		return
	}
	for _, i := range b.results {
		r := p.result(i)
		r.batch, r.lingering = b.results, false
	}
	w.sendRecord(p, b.results[0])
}

// sendDueBatches sends the batches whose linger.ms is over, by partition.
func (w *World) sendDueBatches(p *Producer) {
	var due []int32
	for partition, b := range p.lingering {
		if w.now-b.createdMs >= p.cfg.LingerMs {
			due = append(due, partition)
		}
	}
	slices.Sort(due)
	for _, partition := range due {
		w.sendLingering(p, partition)
	}
}

func acksLabel(a int16) string {
	if a == replica.AcksAll {
		return "all"
	}
	return fmt.Sprint(a)
}

func recordLabel(key, value string) string {
	value = shortValue(value)
	if key == "" {
		return value
	}
	return shortValue(key) + "=" + value
}

// maxLabelBytes is the most of a key or value an event's text shows.
const maxLabelBytes = 64

// shortValue is s as an event shows it: whole up to maxLabelBytes, else
// its first bytes and its size, so that a megabyte value does not make a
// megabyte line in the terminal (the record itself is whole in the log).
func shortValue(s string) string {
	if len(s) <= maxLabelBytes {
		return s
	}
	cut := maxLabelBytes / 2
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", s[:cut], len(s))
}

// sendRecord sends (or re-sends) result i to the partition's leader, with
// the results of its batch when it has one (all of them in one request).
func (w *World) sendRecord(p *Producer, i int) {
	members := p.result(i).batch
	if members == nil {
		members = []int{i}
	}
	r := p.result(members[0])
	tp := partitionKey{Topic: p.cfg.Topic, Partition: r.Partition}
	leader := w.PartitionLeader(tp.Topic, tp.Partition)
	var live []int
	for _, j := range members {
		if m := p.result(j); !m.Acked && !m.Failed {
			m.Attempts++
			live = append(live, j)
		}
	}
	if len(live) == 0 {
		return
	}
	if leader == replica.NoLeader {
		for _, j := range live {
			w.retryOrFail(p, j, "LEADER_NOT_AVAILABLE", true)
		}
		return
	}
	p.corr++
	records := make([]replica.Record, 0, len(live))
	timestamps := make([]int64, 0, len(live))
	stamped := false
	for _, j := range live {
		m := p.result(j)
		stamped = stamped || m.stamped
		m.inflight, m.sentMs, m.retryAtMs, m.sentEpoch = p.corr, w.now, 0, m.ProducerEpoch
		rec := replica.Record{Value: []byte(m.Value)}
		if m.Null {
			rec.Value = nil
		}
		if m.Sequence >= 0 {
			rec.Producer = &replica.ProducerSequence{ID: int64(p.id), Epoch: m.ProducerEpoch, Sequence: m.Sequence}
		}
		if m.Key != "" {
			rec.Key = []byte(m.Key)
		}
		records = append(records, rec)
		timestamps = append(timestamps, m.timestampMs)
	}
	if w.encodedByPart(tp.Topic) || stamped || p.transactional() {
		records[0].Batch = w.encodeRecords(records, timestamps, p.transactional())
	}
	// The batch goes with the acks its records were sent with: a retry
	// after set-producer is still the old producer's record (Kafka fixes
	// acks for a producer's life).
	acks := r.Acks
	w.send(netsim.Envelope{From: p.id, To: leader, Kind: netsim.KindReplica, TP: tp, Msg: replica.Message{Type: replica.MsgProduce,
		From: p.id, To: leader, CorrelationID: p.corr, Records: records, Acks: acks, TimeoutMs: p.cfg.RequestTimeoutMs}})
	if acks == 0 {
		for _, j := range live {
			m := p.result(j)
			m.inflight, m.Acked = 0, true // acks=0: no answer comes; counted as sent, offset -1 as RecordMetadata has it
		}
	}
}

// retryOrFail retries a retriable error after retry.backoff.ms (the
// delivery timeout is [World.tickProducer]'s), else fails the record.
func (w *World) retryOrFail(p *Producer, i int, code string, retriable bool) {
	r := p.result(i)
	r.inflight, r.LastError = 0, code
	if retriable {
		r.retryAtMs = w.now + p.cfg.RetryBackoffMs
		return
	}
	w.failRecord(p, i, code)
}

// expire fails a record delivery.timeout.ms after it was first sent,
// whether it waits to be retried or is in flight, as Kafka's Sender does
// (sendProducerData expires both, with a TimeoutException "Expiring 1
// record(s) for orders-0:120000 ms has passed since batch creation"). Its
// Error is "TIMEOUT(last)", last being the latest error the broker
// answered, if any.
func (w *World) expire(p *Producer, i int) {
	r := p.result(i)
	r.inflight = 0
	tp := partitionKey{Topic: p.cfg.Topic, Partition: r.Partition}
	w.record(EventProduce, 0, &tp, "%s: %s: TimeoutException: Expiring 1 record(s) for %s-%d:%d ms has passed since batch creation",
		p.cfg.Name, recordLabel(r.Key, r.Value), tp.Topic, tp.Partition, w.now-r.firstSentMs)
	code := "TIMEOUT"
	if r.LastError != "" {
		code += "(" + r.LastError + ")"
	}
	w.failRecord(p, i, code)
}

// failRecord ends record i with error code; an idempotent producer then
// bumps its epoch.
func (w *World) failRecord(p *Producer, i int, code string) {
	r := p.result(i)
	r.Failed, r.Error, r.retryAtMs, r.inflight = true, code, 0, 0
	tp := partitionKey{Topic: p.cfg.Topic, Partition: r.Partition}
	w.record(EventProduce, 0, &tp, "%s: %s failed: %s", p.cfg.Name, recordLabel(r.Key, r.Value), r.Error)
	if p.txn != nil {
		p.txn.failed++ // an abortable error: the transaction cannot commit
	}
	if r.Sequence >= 0 {
		w.bumpProducerEpoch(p, i)
	}
}

// nextSequence hands out the next sequence number of partition.
func (p *Producer) nextSequence(partition int32) int32 {
	if p.nextSeq == nil {
		p.nextSeq = map[int32]int32{}
	}
	seq := p.nextSeq[partition]
	p.nextSeq[partition]++
	return seq
}

// bumpProducerEpoch follows a gap in a partition's sequence: result
// failed failed for good (skip it), or a leader answered
// OUT_OF_ORDER_SEQUENCE_NUMBER (failed -1). As Kafka's TransactionManager
// does for an idempotent producer without transactions (handleFailedBatch
// and canRetry call requestEpochBumpForPartition), the producer moves to
// the next epoch, whose sequences start at 0, and renumbers the records
// still waiting in send order (TxnPartitionMap.startSequencesAtBeginning).
// Kafka asks for the new epoch with InitProducerId; here it comes at once.
func (w *World) bumpProducerEpoch(p *Producer, failed int) {
	p.epoch++
	p.nextSeq = nil
	// p.open may be being compacted by tickProducer: visit each index once.
	seen := map[int]bool{failed: failed >= 0}
	for _, i := range p.open {
		if seen[i] {
			continue
		}
		seen[i] = true
		if r := p.result(i); !r.Acked && !r.Failed && r.Sequence >= 0 {
			r.Sequence, r.ProducerEpoch = p.nextSequence(r.Partition), p.epoch
		}
	}
	w.record(EventProduce, 0, nil, "%s: producer epoch bumped to %d (sequences start again at 0)", p.cfg.Name, p.epoch)
}

// deliverToProducer handles a leader's answer: to every record of the
// batch it answers.
func (w *World) deliverToProducer(e *netsim.Envelope) {
	p := w.producers[e.To-netsim.ProducerBase]
	if w.deliverTxnMarker(p, e) {
		return
	}
	var answered []int
	for _, i := range p.open {
		if r := p.result(i); r.inflight == e.Resp.CorrelationID && r.inflight != 0 {
			answered = append(answered, i)
		}
	}
	if len(answered) == 0 {
		return
	}
	if e.Resp.Error == replica.None {
		for k, i := range answered {
			r := p.result(i)
			r.inflight, r.Acked, r.Offset = 0, true, e.Resp.BaseOffset+int64(k)
			w.record(EventProduce, 0, &e.TP, "%s: %s acknowledged at offset %d", p.cfg.Name, recordLabel(r.Key, r.Value), r.Offset)
			if w.encodedByPart(e.TP.Topic) {
				w.markLast(PartEncoder)
			}
		}
		return
	}
	bumped := false
	// One line for the answer, as Kafka's Sender logs one per batch
	// ("Got error produce response ... retrying"): a producer whose
	// records wait out a long outage retries them all every
	// retry.backoff.ms, and a line per record and retry would fill the
	// history (twenty records a second for eight minutes: ten million).
	first := p.result(answered[0])
	if len(answered) == 1 {
		w.record(EventProduce, 0, &e.TP, "%s: %s got %s", p.cfg.Name, recordLabel(first.Key, first.Value), e.Resp.Error)
	} else {
		w.record(EventProduce, 0, &e.TP, "%s: %s and %d more records got %s", p.cfg.Name, recordLabel(first.Key, first.Value), len(answered)-1, e.Resp.Error)
	}
	if w.encodedByPart(e.TP.Topic) {
		w.markLast(PartEncoder)
	}
	for _, i := range answered {
		r := p.result(i)
		retriable := e.Resp.Error.Retriable()
		if e.Resp.Error == replica.OutOfOrderSequenceNumber && r.Sequence >= 0 {
			// Kafka 3.7's TransactionManager.canRetry: an idempotent
			// producer retries it; a gap in the sequence (the leader lost
			// records, e.g. after an unclean election) bumps the epoch
			// first, unless the sequence was reset since this send.
			retriable = true
			if r.sentEpoch == p.epoch && !bumped {
				w.bumpProducerEpoch(p, -1)
				bumped = true
			}
		}
		w.retryOrFail(p, i, e.Resp.Error.String(), retriable)
	}
}

// tickProducer produces at the configured rate, retries, and times out
// requests without an answer.
func (w *World) tickProducer(p *Producer) {
	open := p.open[:0]
	for _, i := range p.open {
		r := p.result(i)
		switch {
		case w.now-r.firstSentMs >= p.cfg.DeliveryTimeoutMs:
			w.expire(p, i)
		case r.inflight != 0 && w.now-r.sentMs >= p.cfg.RequestTimeoutMs:
			w.record(EventProduce, 0, &partitionKey{Topic: p.cfg.Topic, Partition: r.Partition}, "%s: %s got no answer within request.timeout.ms: REQUEST_TIMED_OUT", p.cfg.Name, recordLabel(r.Key, r.Value))
			w.retryOrFail(p, i, "REQUEST_TIMED_OUT", true)
		case r.retryAtMs != 0 && w.now >= r.retryAtMs:
			w.sendRecord(p, i)
		}
		if r.inflight != 0 || r.retryAtMs != 0 || r.lingering && !r.Failed {
			open = append(open, i)
		}
	}
	p.open = open
	w.sendDueBatches(p)
	w.tickTransaction(p)
	rate := p.cfg.milliRate()
	if rate <= 0 {
		return
	}
	p.carry += rate * int(w.cfg.TickMs)
	for p.carry >= 1000*1000 {
		p.carry -= 1000 * 1000
		_ = w.produce(p, "", fmt.Sprintf("%s-%d", p.cfg.Name, p.sent), -1)
	}
}

// milliRate is the rate in thousandths of records a second.
func (c ProducerConfig) milliRate() int {
	if c.Rate > 0 {
		return int(math.Round(c.Rate * 1000))
	}
	return c.RecordsPerSec * 1000
}

// batchSize is the size in bytes of a v2 record batch holding one record
// (61 bytes of batch header, then the record: its length, attributes,
// timestamp and offset deltas, key, value, no headers), which is what
// ProducerBatch.estimatedSizeInBytes counts toward batch.size for a new
// batch without compression.
func batchSize(key, value string, null bool) int {
	const batchHeader = 61
	keyLen, valueLen := -1, len(value)
	if key != "" {
		keyLen = len(key)
	}
	if null {
		valueLen = -1
	}
	body := 1 + varintSize(0) + varintSize(0) + varintSize(keyLen) + max(0, keyLen) + varintSize(valueLen) + max(0, valueLen) + varintSize(0)
	return batchHeader + varintSize(body) + body
}

// varintSize is the length of n as a zig-zag varint.
func varintSize(n int) int {
	z := uint64(n<<1) ^ uint64(n>>63)
	size := 1
	for z >= 0x80 {
		z >>= 7
		size++
	}
	return size
}
