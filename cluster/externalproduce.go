package cluster

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
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
func (w *World) extProduce(id uint64, x *ExternalRequest, b *broker, req *kmsg.ProduceRequest) {
	c := &w.ext.clients[x.Client-1]
	c.Acks = acksLabel(req.Acks)
	resp := kmsg.NewPtrProduceResponse()
	p := &extPending{id: id, client: x.Client, broker: b.id, incarnation: b.incarnation, produce: resp}
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
func (w *World) extProducePartition(p *extPending, x *ExternalRequest, b *broker, req *kmsg.ProduceRequest, ti, pi int) (int16, string, int) {
	t, part := &req.Topics[ti], &req.Topics[ti].Partitions[pi]
	c := &w.ext.clients[x.Client-1]
	topic := w.topic(t.Topic)
	if topic == nil || part.Partition < 0 || int(part.Partition) >= len(topic.Assignment) {
		return errUnknownTopicOrPartition, "", 0
	}
	tp := partitionKey{Topic: t.Topic, Partition: part.Partition}
	if topic.Internal {
		// ReplicaManager.appendToLocalLog: clients may not write to
		// internal topics.
		return errInvalidTopicException, fmt.Sprintf("Cannot append to internal topic %s", t.Topic), 0
	}
	// ProduceRequest.validateRecords: v3+ carries exactly one batch of
	// magic 2.
	cb := w.clientBatch(x, req, ti, pi)
	h, n, err := cb.header, cb.n, cb.checkErr
	switch {
	case len(part.Records) == 0:
		return errInvalidRecord, "Produce requests with version 3 and above must contain exactly one record batch", 0
	case err != nil && errors.Is(err, kafkalog.ErrUnknownMagic):
		return errInvalidRecord, "Produce requests with version 3 and above must use magic 2", 0
	case err == nil && n != len(part.Records):
		return errInvalidRecord, "Produce requests with version 3 and above must contain exactly one record batch", 0
	}
	if req.Acks != 0 && req.Acks != 1 && req.Acks != replica.AcksAll {
		return errInvalidRequiredAcks, "", 0
	}
	s := b.replicas[tp]
	if s == nil {
		return errNotLeaderOrFollower, "", 0
	}
	if code := s.node.ProduceCheck(req.Acks); code != replica.None {
		return int16(code), "", 0
	}
	cfg := w.logConfig(t.Topic)
	if size, _, perr := kafkalog.PeekBatch(part.Records); perr == nil && size > int64(cfg.MaxMessageBytes) {
		return errMessageTooLarge, "", 0
	}
	if int64(len(part.Records)) > cfg.SegmentBytes {
		// UnifiedLog.append (Kafka 3.7): an append no segment could hold is
		// a RecordBatchTooLargeException.
		return errRecordListTooLarge, "", 0
	}
	if err != nil {
		// LogValidator: a batch that fails its CRC or whose lengths do
		// not hold is a CorruptRecordException.
		w.record(EventProduce, b.id, &tp, "client %d: refused a batch: CORRUPT_MESSAGE (%v)", x.Client, err)
		return errCorruptMessage, "", 0
	}
	if why := batchProblem(&h, tp.String()); why != "" {
		// LogValidator.validateBatch (Kafka 3.7) throws an
		// InvalidRecordException: INVALID_RECORD, no message to the client
		w.record(EventProduce, b.id, &tp, "client %d: refused a batch: INVALID_RECORD (%s)", x.Client, why)
		return errInvalidRecord, "", cb.records
	}
	// The records were read from the world's bytes of the batch (a copy,
	// or the handed-over body's own), which go to the log as they are
	// (replicaLog.AppendBatchAsLeader).
	if !cb.decoded || cb.decodeErr != nil {
		// The CRC and lengths hold, the records do not: Kafka 3.7's
		// record iterators throw InvalidRecordException (INVALID_RECORD),
		// or a KafkaException when the codec refuses the stream
		// (UNKNOWN_SERVER_ERROR); neither carries a message to the client.
		code, msg := errInvalidRecord, ""
		switch {
		case errors.Is(cb.decodeErr, kafkalog.ErrDecompress):
			code = errUnknownServerError
		case errors.Is(cb.decodeErr, kafkalog.ErrTooLarge):
			msg = fmt.Sprintf("the records decompress to more than kafkalive reads of a batch (%d bytes)", kafkalog.DefaultMaxDecompressedBytes)
		}
		w.record(EventProduce, b.id, &tp, "client %d: refused a batch: %s (%v)", x.Client, errName(code), cb.decodeErr)
		return code, msg, 0
	}
	raw := cb.raw
	if cb.handedOver && cfg.MessageTimestampType == kafkalog.LogAppendTime {
		// the leader would stamp the time and a new CRC into the body
		// itself: a replay is to read the timestamps the client sent
		raw = slices.Clone(raw)
	}
	if h.Attributes.IsTransactional() {
		return errInvalidRecord, "transactions are not modelled: a client batch may not be transactional", cb.records
	}
	count := cb.records
	if before, after := cfg.TimestampBounds(); cfg.Compact() && cb.nullKey || h.Attributes.TimestampType() == kafkalog.LogAppendTime ||
		before != math.MaxInt64 || after != math.MaxInt64 {
		if code, msg, errs := recordErrors(cb.raw, cfg, tp, w.now); code != 0 {
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
			return errInvalidRecord, fmt.Sprintf("record %d of the batch has offset delta other than %d: kafkalive keeps a log's offsets increasing", cb.outOfOrder, cb.outOfOrder), count
		}
		// The leader writes a compressed batch whose records' offset
		// deltas are not 0, 1, 2... anew, the same records at offsets in
		// order (3.7's validateMessagesAndAssignOffsetsCompressed and
		// buildRecordsAndAssignOffsets: "some older clients do not
		// implement the V1 internal offsets correctly"), as Kafka 0.11 to
		// 2.3 did and 2.6 on does; 2.4 and 2.5 refused it as
		// INVALID_RECORD.
		rebuilt, err := rebuildInOrder(cb.raw)
		if err != nil {
			w.internalError(b, err)
			return -2, "", count
		}
		raw = rebuilt
	}
	if raw, err = withLargestTimestamp(raw, &h, cb.maxTimestamp, cfg); err != nil {
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
	w.record(EventProduce, b.id, &tp, "client %d (%s) sends a batch of %d record(s) to %s (acks=%s)", x.Client, x.ClientID, count, tp, acksLabel(req.Acks))
	timeout := int64(req.TimeoutMillis)
	err = s.node.Step(replica.Message{Type: replica.MsgProduce, From: ExternalNode(x.Client), To: b.id, CorrelationID: corr,
		Batch: &replica.ProducerBatch{Count: count, Producer: cb.producer, Bytes: raw}, Acks: req.Acks, TimeoutMs: timeout})
	if err == nil {
		err = w.processReady(b, s)
	}
	if err != nil {
		w.internalError(b, err)
		return -2, "", count
	}
	if req.Acks == 0 {
		c.Acked += count
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
		c.LastError = errName(code)
		return
	}
	tp := partitionKey{Topic: p.produce.Topics[ti].Topic, Partition: rp.Partition}
	if s := w.brokers[p.broker-1].replicas[tp]; s != nil {
		rp.LogStartOffset = s.log.LogStartOffset()
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
		w.ext.clients[p.client-1].Acked += slot.records
		w.record(EventProduce, 0, &tp, "client %d: %d record(s) acknowledged at offset %d", p.client, slot.records, e.Resp.BaseOffset)
	} else {
		w.record(EventProduce, 0, &tp, "client %d: %d record(s) got %s", p.client, slot.records, errName(code))
	}
	if p.open--; p.open == 0 {
		delete(w.ext.pending, p.id)
		w.answer(p.id, p.produce)
	}
}

// withLargestTimestamp is raw, a producer's batch of header h whose records'
// largest timestamp is largest, as the leader appends it to a topic of cfg:
// in a CreateTime topic, Kafka 3.7's LogValidator sets the batch to
// CreateTime and its maxTimestamp to largest, whatever the producer wrote
// there (setMaxTimestamp, with a new CRC), here on a copy, so that the
// timeline keeps the batch the producer sent; else raw itself.
func withLargestTimestamp(raw []byte, h *kafkalog.BatchHeader, largest int64, cfg kafkalog.Config) ([]byte, error) {
	if cfg.MessageTimestampType != kafkalog.CreateTime || h.MaxTimestamp == largest && h.Attributes.TimestampType() == kafkalog.CreateTime {
		return raw, nil
	}
	raw = slices.Clone(raw)
	return raw, kafkalog.SetMaxTimestamp(raw, kafkalog.CreateTime, largest)
}

// rebuildInOrder is the batch raw (compressed, valid) written anew as
// Kafka's LogValidator.buildRecordsAndAssignOffsets writes it: its
// records, each with the timestamp the batch gives it, at offset deltas 0,
// 1, 2..., in a CreateTime batch of the same compression and producer
// fields (the leader then stamps it as any other).
func rebuildInOrder(raw []byte) ([]byte, error) {
	var dec kafkalog.Decoder
	var in kafkalog.RecordBatch
	if _, err := dec.Decode(raw, &in); err != nil {
		return nil, fmt.Errorf("rebuild a batch whose offsets are out of order: %w", err)
	}
	var out kafkalog.RecordBatch
	out.Attributes = kafkalog.Attributes(0).WithCompression(in.Attributes.Compression())
	out.PartitionLeaderEpoch, out.ProducerID, out.ProducerEpoch, out.BaseSequence = -1, in.ProducerID, in.ProducerEpoch, in.BaseSequence
	for i := range in.Records {
		r := &in.Records[i]
		out.AppendRecord(int64(i), in.Timestamp(r), r.Key, r.Value, r.Headers...)
	}
	return out.AppendTo(nil), nil
}

// recordErrors checks each record of raw (a client's batch, valid) as Kafka
// 3.7's LogValidator.validateRecord does, and returns the answer to a
// batch with records in error: INVALID_TIMESTAMP when any record's
// timestamp is refused, else INVALID_RECORD, with Kafka's message and one
// error record for each record refused (its index in the batch and why);
// code 0 when every record passes. A record of a compacted topic needs a
// key; a CreateTime record's timestamp (other than -1) must lie within
// message.timestamp.before.max.ms before the leader's clock now and
// after.max.ms after it; a batch may say LogAppendTime only with
// timestamps a CreateTime topic checks (validateTimestamp: "Producer
// should not set timestamp type to LogAppendTime").
func recordErrors(raw []byte, cfg kafkalog.Config, tp partitionKey, now int64) (int16, string, []kmsg.ProduceResponseTopicPartitionErrorRecord) {
	var dec kafkalog.Decoder
	var b kafkalog.RecordBatch
	if _, err := dec.Decode(raw, &b); err != nil {
		return errCorruptMessage, "", nil
	}
	var errs []kmsg.ProduceResponseTopicPartitionErrorRecord
	var shown []string
	timestamp := false
	for i := range b.Records {
		r := &b.Records[i]
		ts := b.Timestamp(r)
		var why string
		switch {
		case cfg.Compact() && r.Key == nil:
			why = fmt.Sprintf("Compacted topic cannot accept message without key in topic partition %s.", tp)
		case cfg.MessageTimestampType == kafkalog.CreateTime && ts != kafkalog.NoTimestamp:
			if lo, hi, ok := timestampWithin(cfg, now, ts); !ok {
				why = fmt.Sprintf("Timestamp %d of message with offset %d is out of range. The timestamp should be within [%d, %d]", ts, b.BaseOffset+int64(r.OffsetDelta), lo, hi)
				timestamp = true
			}
		case b.Attributes.TimestampType() == kafkalog.LogAppendTime:
			why = fmt.Sprintf("Invalid timestamp type in message DefaultRecord(offset=%d, timestamp=%d, key=%d bytes, value=%d bytes). Producer should not set timestamp type to LogAppendTime.", b.BaseOffset+int64(r.OffsetDelta), ts, len(r.Key), len(r.Value))
			timestamp = true
		}
		if why == "" {
			continue
		}
		errs = append(errs, kmsg.ProduceResponseTopicPartitionErrorRecord{RelativeOffset: int32(i), ErrorMessage: kmsg.StringPtr(why)})
		if len(shown) < 3 {
			shown = append(shown, fmt.Sprintf("RecordError(batchIndex=%d, message='%s')", i, why))
		}
	}
	switch {
	case len(errs) == 0:
		return 0, "", nil
	case timestamp: // LogValidator.processRecordErrors
		return errInvalidTimestamp, "One or more records have been rejected due to invalid timestamp", errs
	}
	return errInvalidRecord, fmt.Sprintf("One or more records have been rejected due to %d record errors in total, and only showing the first three errors at most: [%s]", len(errs), strings.Join(shown, ", ")), errs
}

// timestampWithin reports whether a CreateTime record's timestamp ts lies
// within the topic's bounds around the leader's clock now
// (message.timestamp.before.max.ms and after.max.ms; LogValidator's
// validateTimestamp, in Java's long arithmetic, which wraps as Go's does),
// and the window [lo, hi] as Kafka's message prints it.
func timestampWithin(cfg kafkalog.Config, now, ts int64) (lo, hi int64, ok bool) {
	before, after := cfg.TimestampBounds()
	diff := now - ts
	return now - before, now + after, diff <= before && -diff <= after
}

// batchProblem is why Kafka 3.7's LogValidator.validateBatch refuses h, a
// client's batch, in its words; "" if it does not: the offsets the header
// spans must be as many as the records it counts, at least one, a client
// may not write a control batch, and an idempotent producer's batch needs
// a sequence number.
func batchProblem(h *kafkalog.BatchHeader, tp string) string {
	first, last := h.BaseOffset, h.BaseOffset+int64(h.LastOffsetDelta)
	switch fromOffsets := last - first + 1; {
	case fromOffsets <= 0:
		return fmt.Sprintf("Batch has an invalid offset range: [%d, %d] in topic partition %s", first, last, tp)
	case h.NumRecords <= 0:
		return fmt.Sprintf("Invalid reported count for record batch: %d in topic partition %s", h.NumRecords, tp)
	case fromOffsets != int64(h.NumRecords):
		return fmt.Sprintf("Inconsistent batch offset range [%d, %d] and count of records %d in topic partition %s", first, last, h.NumRecords, tp)
	case h.Attributes.IsControl():
		return fmt.Sprintf("Clients are not allowed to write control records in topic partition %s", tp)
	case h.ProducerID >= 0 && h.BaseSequence < 0:
		return fmt.Sprintf("Invalid sequence number %d in record batch with producerId %d in topic partition %s", h.BaseSequence, h.ProducerID, tp)
	}
	return ""
}
