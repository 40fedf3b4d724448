package cluster

import (
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/replica"
)

// DefaultMaxRequestSize is the producer's max.request.size (1 MiB): the
// producer refuses, itself, a record whose batch would be larger
// (KafkaProducer.ensureValidRecordSize, RecordTooLargeException).
const DefaultMaxRequestSize = 1 << 20

// produceBatchBytes is the size of the record batch a leader writes for
// records: the batch the cluster's log encodes, byte for byte.
func (w *World) produceBatchBytes(records []replica.Record) int {
	entries := make([]replica.Entry, len(records))
	for i, r := range records {
		entries[i] = replica.Entry{Offset: int64(i), Key: r.Key, Value: r.Value, Producer: r.Producer}
	}
	return len(replicalog.AppendBatch(nil, entries, w.now))
}

// produceSizeError is the leader's answer to a produce too large for the
// partition's log, as Kafka 3.7's UnifiedLog.append checks it: a batch
// above max.message.bytes is MESSAGE_TOO_LARGE
// (analyzeAndValidateRecords, RecordTooLargeException), an append above
// segment.bytes RECORD_LIST_TOO_LARGE (RecordBatchTooLargeException).
// The log is left as it was and the broker goes on. The replica's own
// checks come first (replica.Node.ProduceCheck): under acks=all with too
// few in-sync replicas the answer is NOT_ENOUGH_REPLICAS whatever the size.
func (w *World) produceSizeError(tp partitionKey, records []replica.Record) (replica.ErrorCode, int) {
	n := w.produceBatchBytes(records)
	cfg := w.logConfig(tp.Topic)
	switch {
	case n > int(cfg.MaxMessageBytes):
		return replica.MessageTooLarge, n
	case int64(n) > cfg.SegmentBytes:
		return replica.RecordListTooLarge, n
	}
	return replica.None, n
}

// refuseTooLarge answers, on the leader, a produce too large for the log.
// It reports whether it did.
func (w *World) refuseTooLarge(b *broker, s *replicaSlot, e *netsim.Envelope) bool {
	if e.Msg.Type != replica.MsgProduce || s.node.ProduceCheck(e.Msg.Acks) != replica.None {
		return false // the replica answers: not the leader, or NOT_ENOUGH_REPLICAS comes before the size
	}
	code, n := w.produceSizeError(s.tp, e.Msg.Records)
	if code == replica.None {
		return false
	}
	cfg := w.logConfig(s.tp.Topic)
	w.record(EventReplica, b.id, &s.tp, "refused a produce of %d bytes: %s (max.message.bytes %d, segment.bytes %d)", n, code, cfg.MaxMessageBytes, cfg.SegmentBytes)
	if e.Msg.Acks != 0 {
		w.send(netsim.Envelope{From: b.id, To: e.From, Kind: netsim.KindProduceResp, TP: s.tp,
			Resp: replica.ProduceResponse{To: e.From, CorrelationID: e.Msg.CorrelationID, Error: code, BaseOffset: -1}})
	}
	return true
}

// refuseRecordTooLarge is the producer's own check of the record it just
// took (its result is the last): a batch larger than max.request.size
// fails at once with RecordTooLargeException, whose code is
// MESSAGE_TOO_LARGE, and is never sent (KafkaProducer.doSend,
// ensureValidRecordSize, after the partitioner chose). It reports whether
// it refused the record.
func (w *World) refuseRecordTooLarge(p *Producer, tp partitionKey) bool {
	i := p.dropped + len(p.results) - 1
	r := p.result(i)
	rec := replica.Record{Value: []byte(r.Value)}
	if r.Key != "" {
		rec.Key = []byte(r.Key)
	}
	n := w.produceBatchBytes([]replica.Record{rec})
	if n <= DefaultMaxRequestSize {
		return false
	}
	r.Failed, r.Error = true, replica.MessageTooLarge.String()
	w.record(EventProduce, 0, &tp, "%s: a record of %d bytes refused: %s (larger than max.request.size %d)", p.cfg.Name, n, r.Error, DefaultMaxRequestSize)
	return true
}
