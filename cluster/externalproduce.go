package cluster

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/client"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/validator"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// extProduce handles a Produce (v3+) of an external client at broker b.
// Each partition's batch goes through the checks of Kafka 3.7's broker in
// its order (KafkaApis.handleProduceRequest, ReplicaManager.appendRecords,
// Partition.appendRecordsToLeader, LogValidator), then to the partition's
// leader replica as the client's bytes ([replica.Record.Batch]): the log
// stamps the offsets and the leader epoch into them in place and keeps
// everything else, so that compression, headers, timestamps and the
// producer id, epoch and sequence survive, on the followers too. The
// replica's idempotence rules answer a retry of a batch it holds with the
// original offset.
func (w *World) extProduce(id uint64, x *ExternalRequest, b *broker.Broker, req *kmsg.ProduceRequest) {
	c := &w.ext.clients[x.Client-1]
	c.Acks = client.AcksLabel(req.Acks)
	resp := kmsg.NewPtrProduceResponse()
	p := &extPending{id: id, client: x.Client, broker: b.ID(), incarnation: b.Incarnation(), produce: resp}
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
			code, msg, records := w.extProducePartition(p, x, b, req, ti, pi)
			if code != -2 {
				w.settleProduce(p, ti, pi, code, msg, -1, records)
			}
		}
	}
	if p.open > 0 {
		if w.ext.pending == nil {
			w.ext.pending = map[uint64]*extPending{}
		}
		w.ext.pending[id] = p
		return
	}
	w.answer(id, resp)
}

// extProducePartition checks and sends one partition's batch. It returns
// -2 when a replica will answer (the slot is waiting), else the code to
// answer at once (0 for acks=0 after the append), with the number of
// records the batch held.
func (w *World) extProducePartition(p *extPending, x *ExternalRequest, b *broker.Broker, req *kmsg.ProduceRequest, ti, pi int) (int16, string, int) {
	t, part := &req.Topics[ti], &req.Topics[ti].Partitions[pi]
	c := &w.ext.clients[x.Client-1]
	topic := w.topic(t.Topic)
	if topic == nil || part.Partition < 0 || int(part.Partition) >= len(topic.Assignment) {
		return kafkaerr.UnknownTopicOrPartition, "", 0
	}
	tp := partitionKey{Topic: t.Topic, Partition: part.Partition}
	if topic.Internal {
		// ReplicaManager.appendToLocalLog: clients may not write to
		// internal topics.
		return kafkaerr.InvalidTopicException, fmt.Sprintf("Cannot append to internal topic %s", t.Topic), 0
	}
	// ProduceRequest.validateRecords: v3+ carries exactly one batch of
	// magic 2.
	cb := w.clientBatch(x, req, ti, pi)
	h, n, err := cb.header, cb.n, cb.checkErr
	switch {
	case len(part.Records) == 0:
		return kafkaerr.InvalidRecord, "Produce requests with version 3 and above must contain exactly one record batch", 0
	case err != nil && errors.Is(err, kafkalog.ErrUnknownMagic):
		return kafkaerr.InvalidRecord, "Produce requests with version 3 and above must use magic 2", 0
	case err == nil && n != len(part.Records):
		return kafkaerr.InvalidRecord, "Produce requests with version 3 and above must contain exactly one record batch", 0
	}
	if req.Acks != 0 && req.Acks != 1 && req.Acks != replica.AcksAll {
		return kafkaerr.InvalidRequiredAcks, "", 0
	}
	s := b.Partition(tp)
	if s == nil {
		return kafkaerr.NotLeaderOrFollower, "", 0
	}
	if code := s.Node.ProduceCheck(req.Acks); code != replica.None {
		return int16(code), "", 0
	}
	cfg := w.logConfig(t.Topic)
	if size, _, perr := kafkalog.PeekBatch(part.Records); perr == nil && size > int64(cfg.MaxMessageBytes) {
		return kafkaerr.MessageTooLarge, "", 0
	}
	if int64(len(part.Records)) > cfg.SegmentBytes {
		// UnifiedLog.append (Kafka 3.7): an append no segment could hold is
		// a RecordBatchTooLargeException.
		return kafkaerr.RecordListTooLarge, "", 0
	}
	if err != nil {
		// LogValidator: a batch that fails its CRC or whose lengths do
		// not hold is a CorruptRecordException.
		w.record(EventProduce, b.ID(), &tp, "client %d: refused a batch: CORRUPT_MESSAGE (%v)", x.Client, err)
		return kafkaerr.CorruptMessage, "", 0
	}
	if why := validator.BatchProblem(&h, tp.String()); why != "" {
		// LogValidator.validateBatch (Kafka 3.7) throws an
		// InvalidRecordException: INVALID_RECORD, no message to the client
		w.record(EventProduce, b.ID(), &tp, "client %d: refused a batch: INVALID_RECORD (%s)", x.Client, why)
		return kafkaerr.InvalidRecord, "", cb.records
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
		w.record(EventProduce, b.ID(), &tp, "client %d: refused a batch: %s (%v)", x.Client, kafkaerr.Name(code), cb.decodeErr)
		return code, msg, 0
	}
	raw := cb.raw
	if cb.handedOver && cfg.MessageTimestampType == kafkalog.LogAppendTime {
		// the leader would stamp the time and a new CRC into the body
		// itself: a replay is to read the timestamps the client sent
		raw = slices.Clone(raw)
	}
	if h.Attributes.IsTransactional() {
		return kafkaerr.InvalidRecord, "transactions are not modelled: a client batch may not be transactional", cb.records
	}
	count := cb.records
	if before, after := cfg.TimestampBounds(); cfg.Compact() && cb.nullKey || h.Attributes.TimestampType() == kafkalog.LogAppendTime ||
		before != math.MaxInt64 || after != math.MaxInt64 {
		if code, msg, errs := validator.RecordErrors(cb.raw, cfg, tp, w.now); code != 0 {
			p.produce.Topics[ti].Partitions[pi].ErrorRecords = errs
			return code, msg, count
		}
	}
	c.Sent += count
	c.ProducerID, c.Idempotent = h.ProducerID, h.ProducerID >= 0
	if cb.outOfOrder >= 0 {
		if h.Attributes.Compression() == kafkalog.CompressionNone {
			// Kafka stores an uncompressed batch as it is, its records
			// at the offsets they say, repeated or not
			// (assignOffsetsNonCompressed); the simulation refuses it,
			// as the offsets of a log's records here always increase.
			return kafkaerr.InvalidRecord, fmt.Sprintf("record %d of the batch has offset delta other than %d: kafkalive keeps a log's offsets increasing", cb.outOfOrder, cb.outOfOrder), count
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
			w.internalError(b, err)
			return -2, "", count
		}
		raw = rebuilt
	}
	if raw, err = validator.WithLargestTimestamp(raw, &h, cb.maxTimestamp, cfg); err != nil {
		w.internalError(b, err)
		return -2, "", count
	}
	w.ext.corr++
	corr := w.ext.corr
	if req.Acks != 0 {
		if w.ext.waiting == nil {
			w.ext.waiting = map[int64]extSlot{}
		}
		w.ext.waiting[corr] = extSlot{id: p.id, topic: ti, part: pi, records: count}
		p.open++
	}
	w.record(EventProduce, b.ID(), &tp, "client %d (%s) sends a batch of %d record(s) to %s (acks=%s)", x.Client, x.ClientID, count, tp, client.AcksLabel(req.Acks))
	timeout := int64(req.TimeoutMillis)
	err = s.Node.Step(replica.Message{Type: replica.MsgProduce, From: ExternalNode(x.Client), To: b.ID(), CorrelationID: corr,
		Batch: &replica.ProducerBatch{Count: count, Producer: cb.producer, Bytes: raw}, Acks: req.Acks, TimeoutMs: timeout})
	if err == nil {
		err = b.ProcessReady(w.env(), s)
	}
	if err != nil {
		w.internalError(b, err)
		return -2, "", count
	}
	if req.Acks == 0 {
		c.SentNoAck += count
		return 0, "", count
	}
	return -2, "", count
}

// settleProduce fills in one partition of a produce answer and counts it.
func (w *World) settleProduce(p *extPending, ti, pi int, code int16, msg string, base int64, records int) {
	rp := &p.produce.Topics[ti].Partitions[pi]
	rp.ErrorCode, rp.BaseOffset = code, base
	if msg != "" {
		rp.ErrorMessage = &msg
	}
	c := &w.ext.clients[p.client-1]
	if code != 0 {
		rp.BaseOffset = -1
		c.Failed += records
		c.LastError = kafkaerr.Name(code)
		return
	}
	tp := partitionKey{Topic: p.produce.Topics[ti].Topic, Partition: rp.Partition}
	if s := w.brokers[p.broker-1].Partition(tp); s != nil {
		rp.LogStartOffset = s.Log.LogStartOffset()
	}
	if w.logConfig(tp.Topic).MessageTimestampType == kafkalog.LogAppendTime && base >= 0 {
		rp.LogAppendTime = w.now
	}
}

// deliverToExternal takes a leader's answer to an external produce.
func (w *World) deliverToExternal(e *netsim.Envelope) {
	if e.Kind != netsim.KindProduceResp {
		return
	}
	slot, ok := w.ext.waiting[e.Resp.CorrelationID]
	if !ok {
		return
	}
	delete(w.ext.waiting, e.Resp.CorrelationID)
	p := w.ext.pending[slot.id]
	if p == nil {
		return
	}
	code := int16(e.Resp.Error)
	w.settleProduce(p, slot.topic, slot.part, code, "", e.Resp.BaseOffset, slot.records)
	tp := partitionKey{Topic: p.produce.Topics[slot.topic].Topic, Partition: p.produce.Topics[slot.topic].Partitions[slot.part].Partition}
	if code == 0 {
		c := &w.ext.clients[p.client-1]
		c.Acked += slot.records
		c.noteAcked(tp, e.Resp.BaseOffset, slot.records)
		w.record(EventProduce, 0, &tp, "client %d: %d record(s) acknowledged at offset %d", p.client, slot.records, e.Resp.BaseOffset)
	} else {
		w.record(EventProduce, 0, &tp, "client %d: %d record(s) got %s", p.client, slot.records, kafkaerr.Name(code))
	}
	if p.open--; p.open == 0 {
		delete(w.ext.pending, p.id)
		w.answer(p.id, p.produce)
	}
}
