package broker

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/validator"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// waitsForReplica is the answer of producePartition for a partition whose
// replica will answer (its slot waits), or whose failure halted the broker.
const waitsForReplica int16 = -2

// produce handles a Produce (v3+) of client x at broker b, request id.
// Each partition's batch goes through the checks of Kafka 3.7's broker in
// its order (KafkaApis.handleProduceRequest, ReplicaManager.appendRecords,
// Partition.appendRecordsToLeader, LogValidator), then to the partition's
// leader replica as the client's bytes ([replica.Record.Batch]): the log
// stamps the offsets and the leader epoch into them in place and keeps
// everything else, so that compression, headers, timestamps and the
// producer id, epoch and sequence survive, on the followers too. The
// replica's idempotence rules answer a retry of a batch it holds with the
// original offset. The answer waits for the replicas that answer later
// (acks=1 after the append, acks=all once the ISR has it:
// DelayedProduce).
func (rq *Requests) produce(env APIEnv, b *Broker, id uint64, x *Request, req *kmsg.ProduceRequest) {
	rq.clientAt(x.Client).Acks = acksLabel(req.Acks) // Serve has just counted x: the client is there
	resp := kmsg.NewPtrProduceResponse()
	p := &pending{id: id, client: x.Client, broker: b.ID(), incarnation: b.Incarnation(), produce: resp}
	copyOut := mostlyOversized(env, x, req)
	for ti, t := range req.Topics {
		rt := kmsg.NewProduceResponseTopic()
		rt.Topic = t.Topic
		for _, part := range t.Partitions {
			rp := kmsg.NewProduceResponseTopicPartition()
			rp.Partition, rp.BaseOffset, rp.LogAppendTime, rp.LogStartOffset = part.Partition, -1, -1, -1
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
		for pi := range t.Partitions {
			rq.producePart(env, b, p, x, req, ti, pi, copyOut, false)
		}
	}
	resp.SetVersion(x.Version)
	if p.open > 0 {
		rq.park(p)
		return
	}
	rq.answerProduce(env, b, p)
}

// producePart takes partition pi of topic ti of produce p (verified: its
// transaction coordinator said it may be appended) and settles it unless
// it waits.
func (rq *Requests) producePart(env APIEnv, b *Broker, p *pending, x *Request, req *kmsg.ProduceRequest, ti, pi int, copyOut, verified bool) {
	t, part := &req.Topics[ti], &req.Topics[ti].Partitions[pi]
	v, ok := x.refusal(ti, pi)
	if !ok {
		v = rq.producePartition(env, b, p, x, req, ti, pi, copyOut, verified)
	}
	if v.note != "" {
		env.Record(event.Produce, b.ID(), &tp{Topic: t.Topic, Partition: part.Partition}, "%s", v.note)
	}
	if v.errs != nil {
		p.produce.Topics[ti].Partitions[pi].ErrorRecords = v.errs
	}
	if v.code != waitsForReplica {
		rq.settleProduce(env, b, p, ti, pi, v.code, v.msg, -1, v.records)
	}
	if v.code != waitsForReplica && v.code != 0 && len(part.Records) > 0 {
		v.topic, v.part = ti, pi
		rq.refused.add(x, req, v)
	}
}

// answerProduce answers a produce b took whose partitions are all
// settled, with KIP-951's leader hints from Produce v10.
func (rq *Requests) answerProduce(env APIEnv, b *Broker, p *pending) {
	if p.produce.Version >= produceLeaderHintsVersion {
		addProduceLeaderHints(env, b, p.produce)
	}
	rq.answer(p.id, p.produce)
}

// mostlyOversized reports whether less than half of x's body (decoded as
// req) is batches within their topic's max.message.bytes: the batches
// appended are then copied out of it, so that the logs keeping them do
// not keep the refused bytes beside them (refusal.go).
func mostlyOversized(env APIEnv, x *Request, req *kmsg.ProduceRequest) bool {
	n := 0
	for _, t := range req.Topics {
		limit := env.Settings(t.Topic).Log.MaxMessageBytes
		for _, p := range t.Partitions {
			if len(p.Records) <= int(limit) {
				n += len(p.Records)
			}
		}
	}
	return 2*n < len(x.Body)
}

// producePartition checks and sends one partition's batch. Its verdict's
// code is waitsForReplica when a replica will answer (the slot is
// waiting), else the code to answer at once (0 for acks=0 after the
// append), with the number of records the batch held, the event to record
// and the records to name in the answer when it is refused.
//
// With copyOut, a batch appended is copied out of the body it came in.
// Unless verified, a transactional batch the leader must verify first
// waits for its coordinator (verify.go).
func (rq *Requests) producePartition(env APIEnv, b *Broker, p *pending, x *Request, req *kmsg.ProduceRequest, ti, pi int, copyOut, verified bool) verdict {
	t, part := &req.Topics[ti], &req.Topics[ti].Partitions[pi]
	c := rq.clientAt(x.Client) // Serve has just counted x: the client is there
	topic := topicNamed(env, t.Topic)
	if !hasPartition(topic, part.Partition) {
		return verdict{code: kafkaerr.UnknownTopicOrPartition}
	}
	k := tp{Topic: t.Topic, Partition: part.Partition}
	if topic.Internal {
		// ReplicaManager.appendToLocalLog: clients may not write to
		// internal topics.
		return verdict{code: kafkaerr.InvalidTopicException, msg: fmt.Sprintf("Cannot append to internal topic %s", t.Topic)}
	}
	// ProduceRequest.validateRecords: v3+ carries exactly one batch of
	// magic 2.
	cb := rq.clientBatch(x, req, ti, pi)
	h, n, err := cb.header, cb.n, cb.checkErr
	switch {
	case len(part.Records) == 0:
		return verdict{code: kafkaerr.InvalidRecord, msg: "Produce requests with version 3 and above must contain exactly one record batch"}
	case err != nil && errors.Is(err, kafkalog.ErrUnknownMagic):
		return verdict{code: kafkaerr.InvalidRecord, msg: "Produce requests with version 3 and above must use magic 2"}
	case err == nil && n != len(part.Records):
		return verdict{code: kafkaerr.InvalidRecord, msg: "Produce requests with version 3 and above must contain exactly one record batch"}
	}
	if req.Acks != 0 && req.Acks != 1 && req.Acks != replica.AcksAll {
		return verdict{code: kafkaerr.InvalidRequiredAcks}
	}
	s := b.Partition(k)
	if s == nil {
		return verdict{code: kafkaerr.NotLeaderOrFollower}
	}
	if code := s.Node.ProduceCheck(req.Acks); code != replica.None {
		return verdict{code: int16(code)}
	}
	cfg := env.Settings(t.Topic).Log
	if size, _, perr := kafkalog.PeekBatch(part.Records); perr == nil && size > int64(cfg.MaxMessageBytes) {
		return verdict{code: kafkaerr.MessageTooLarge}
	}
	if int64(len(part.Records)) > cfg.SegmentBytes {
		// UnifiedLog.append (Kafka 3.7): an append no segment could hold is
		// a RecordBatchTooLargeException.
		return verdict{code: kafkaerr.RecordListTooLarge}
	}
	if err != nil {
		// LogValidator: a batch that fails its CRC or whose lengths do
		// not hold is a CorruptRecordException.
		return verdict{code: kafkaerr.CorruptMessage, note: fmt.Sprintf("client %d: refused a batch: CORRUPT_MESSAGE (%v)", x.Client, err)}
	}
	if why := validator.BatchProblem(&h, k.String()); why != "" {
		// LogValidator.validateBatch (Kafka 3.7) throws an
		// InvalidRecordException: INVALID_RECORD, no message to the client
		return verdict{code: kafkaerr.InvalidRecord, records: cb.records, note: fmt.Sprintf("client %d: refused a batch: INVALID_RECORD (%s)", x.Client, why)}
	}
	// The records were read from the world's bytes of the batch (a copy,
	// or the handed-over body's own), which go to the log as they are
	// (replicaLog.AppendBatchAsLeader).
	if !cb.decoded || cb.decodeErr != nil {
		// The CRC and lengths hold, the records do not: Kafka 3.7's
		// record iterators throw InvalidRecordException (INVALID_RECORD),
		// or a KafkaException when the codec refuses the stream
		// (UNKNOWN_SERVER_ERROR); neither carries a message to the client.
		code, msg := kafkaerr.InvalidRecord, ""
		switch {
		case errors.Is(cb.decodeErr, kafkalog.ErrDecompress):
			code = kafkaerr.UnknownServerError
		case errors.Is(cb.decodeErr, kafkalog.ErrTooLarge):
			msg = fmt.Sprintf("the records decompress to more than kafkalive reads of a batch (%d bytes)", kafkalog.DefaultMaxDecompressedBytes)
		}
		return verdict{code: code, msg: msg, note: fmt.Sprintf("client %d: refused a batch: %s (%v)", x.Client, kafkaerr.Name(code), cb.decodeErr)}
	}
	raw := cb.raw
	switch {
	case cb.handedOver && cfg.MessageTimestampType == kafkalog.LogAppendTime:
		// the leader would stamp the time and a new CRC into the body
		// itself: a replay is to read the timestamps the client sent
		raw = slices.Clone(raw)
	case cb.handedOver && copyOut:
		// the body is mostly batches that will be refused: the log keeps
		// this one on its own, not the body with them
		raw = slices.Clone(raw)
	}
	count := cb.records
	if before, after := cfg.TimestampBounds(); cfg.Compact() && cb.nullKey || h.Attributes.TimestampType() == kafkalog.LogAppendTime ||
		before != math.MaxInt64 || after != math.MaxInt64 {
		if code, msg, errs := validator.RecordErrors(cb.raw, cfg, k, env.Now()); code != 0 {
			return verdict{code: code, msg: msg, records: count, errs: errs}
		}
	}
	if add := x.Version >= produceAddsPartitionVersion; !verified && req.TransactionID != nil && b.needsVerification(s, *req.TransactionID, h.Attributes, h.ProducerID, h.ProducerEpoch, add) {
		ask := txnAsk{id: *req.TransactionID, pid: h.ProducerID, epoch: h.ProducerEpoch, add: add, startMs: env.Now()}
		return rq.verifyProduce(env, b, p, x, req, ti, pi, copyOut, ask, count)
	}
	c.Sent += count
	c.ProducerID, c.Idempotent = h.ProducerID, h.ProducerID >= 0
	if cb.outOfOrder >= 0 {
		if h.Attributes.Compression() == kafkalog.CompressionNone {
			// Kafka stores an uncompressed batch as it is, its records
			// at the offsets they say, repeated or not
			// (assignOffsetsNonCompressed); the simulation refuses it,
			// as the offsets of a log's records here always increase.
			return verdict{code: kafkaerr.InvalidRecord, msg: fmt.Sprintf("record %d of the batch has offset delta other than %d: kafkalive keeps a log's offsets increasing", cb.outOfOrder, cb.outOfOrder), records: count}
		}
		// The leader writes a compressed batch whose records' offset
		// deltas are not 0, 1, 2... anew, the same records at offsets in
		// order (3.7's validateMessagesAndAssignOffsetsCompressed and
		// buildRecordsAndAssignOffsets: "some older clients do not
		// implement the V1 internal offsets correctly"), as Kafka 0.11 to
		// 2.3 did and 2.6 on does; 2.4 and 2.5 refused it as
		// INVALID_RECORD.
		rebuilt, err := validator.RebuildInOrder(cb.raw)
		if err != nil {
			env.InternalError(b.ID(), err)
			return verdict{code: waitsForReplica, records: count}
		}
		raw = rebuilt
	}
	if raw, err = validator.WithLargestTimestamp(raw, &h, cb.maxTimestamp, cfg); err != nil {
		env.InternalError(b.ID(), err)
		return verdict{code: waitsForReplica, records: count}
	}
	rq.corr++
	corr := rq.corr
	if req.Acks != 0 {
		if rq.waiting == nil {
			rq.waiting = map[int64]produceSlot{}
		}
		rq.waiting[corr] = produceSlot{id: p.id, topic: ti, part: pi, records: count}
		p.open++
	}
	env.Record(event.Produce, b.ID(), &k, "client %d (%s) sends a batch of %d record(s) to %s (acks=%s)", x.Client, x.ClientID, count, k, acksLabel(req.Acks))
	timeout := int64(req.TimeoutMillis)
	err = b.wake(s, env.Now()).Step(replica.Message{Type: replica.MsgProduce, From: clientNode(x.Client), To: b.ID(), CorrelationID: corr,
		Batch: &replica.ProducerBatch{Count: count, Producer: cb.producer, Bytes: raw}, Acks: req.Acks, TimeoutMs: timeout})
	if err == nil {
		err = b.processReady(env, s)
	}
	if err != nil {
		env.InternalError(b.ID(), err)
		return verdict{code: waitsForReplica, records: count}
	}
	if req.Acks == 0 {
		c.SentNoAck += count
		return verdict{code: 0, records: count}
	}
	return verdict{code: waitsForReplica, records: count}
}

// settleProduce fills in one partition of a produce answer and counts it.
func (rq *Requests) settleProduce(env APIEnv, b *Broker, p *pending, ti, pi int, code int16, msg string, base int64, records int) {
	rp := &p.produce.Topics[ti].Partitions[pi]
	rp.ErrorCode, rp.BaseOffset = code, base
	if msg != "" {
		rp.ErrorMessage = &msg
	}
	if code != 0 {
		rp.BaseOffset = -1
		if c := rq.clientAt(p.client); c != nil { // a client with a request waiting is remembered
			c.Failed += records
			c.LastError = kafkaerr.Name(code)
		}
		return
	}
	k := tp{Topic: p.produce.Topics[ti].Topic, Partition: rp.Partition}
	if s := b.Partition(k); s != nil {
		rp.LogStartOffset = s.Log.LogStartOffset()
	}
	if env.Settings(k.Topic).Log.MessageTimestampType == kafkalog.LogAppendTime && base >= 0 {
		rp.LogAppendTime = env.Now()
	}
}

// StepAnswer takes a leader replica's answer to a client's produce
// (brokers[i] is broker i+1).
func (rq *Requests) StepAnswer(env APIEnv, brokers []*Broker, e *netsim.Envelope) {
	switch e.Kind {
	case netsim.KindTxnResponse, netsim.KindTxnMarkersResponse:
		if !rq.produceVerified(env, brokers, e) {
			rq.txnAnswered(e)
		}
		return
	case netsim.KindProduceResp:
	default:
		return
	}
	if rq.txnCommitAnswered(e.Resp.CorrelationID, e.Resp.Error) {
		return
	}
	slot, ok := rq.waiting[e.Resp.CorrelationID]
	if !ok {
		return
	}
	delete(rq.waiting, e.Resp.CorrelationID)
	p := rq.pending[slot.id]
	if p == nil {
		return
	}
	code := int16(e.Resp.Error)
	rq.settleProduce(env, brokers[p.broker-1], p, slot.topic, slot.part, code, "", e.Resp.BaseOffset, slot.records)
	k := tp{Topic: p.produce.Topics[slot.topic].Topic, Partition: p.produce.Topics[slot.topic].Partitions[slot.part].Partition}
	if code == 0 {
		if c := rq.clientAt(p.client); c != nil { // a client with a request waiting is remembered
			c.Acked += slot.records
			c.noteAcked(k, e.Resp.BaseOffset, slot.records)
		}
		env.Record(event.Produce, 0, &k, "client %d: %d record(s) acknowledged at offset %d", p.client, slot.records, e.Resp.BaseOffset)
	} else {
		env.Record(event.Produce, 0, &k, "client %d: %d record(s) got %s", p.client, slot.records, kafkaerr.Name(code))
	}
	if p.open--; p.open == 0 {
		delete(rq.pending, p.id)
		rq.answerProduce(env, brokers[p.broker-1], p)
	}
}

// acksLabel prints a produce's acks as the producer's config says it
// ("all" for -1).
func acksLabel(a int16) string {
	if a == replica.AcksAll {
		return "all"
	}
	return fmt.Sprint(a)
}
