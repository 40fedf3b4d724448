package broker

import (
	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/replica"
)

// produceSizeError is the leader's answer to a produce too large for the
// partition's log, as Kafka 3.7's UnifiedLog.append checks it: a batch
// above max.message.bytes is MESSAGE_TOO_LARGE
// (analyzeAndValidateRecords, RecordTooLargeException), an append above
// segment.bytes RECORD_LIST_TOO_LARGE (RecordBatchTooLargeException).
// The log is left as it was and the broker goes on. The replica's own
// checks come first (replica.Node.ProduceCheck): under acks=all with too
// few in-sync replicas the answer is NOT_ENOUGH_REPLICAS whatever the size.
func (b *Broker) produceSizeError(env Env, tp tp, records []replica.Record) (replica.ErrorCode, int) {
	n := replicalog.EncodedSize(env.Now(), records)
	cfg := env.Settings(tp.Topic).Log
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
func (b *Broker) refuseTooLarge(env Env, s *Partition, e *netsim.Envelope) bool {
	if e.Msg.Type != replica.MsgProduce || s.Node.ProduceCheck(e.Msg.Acks) != replica.None {
		return false // the replica answers: not the leader, or NOT_ENOUGH_REPLICAS comes before the size
	}
	code, n := b.produceSizeError(env, s.TP, e.Msg.Records)
	if code == replica.None {
		return false
	}
	cfg := env.Settings(s.TP.Topic).Log
	env.Record(event.Replica, b.id, &s.TP, "refused a produce of %d bytes: %s (max.message.bytes %d, segment.bytes %d)", n, code, cfg.MaxMessageBytes, cfg.SegmentBytes)
	if e.Msg.Acks != 0 {
		env.Send(netsim.Envelope{From: b.id, To: e.From, Kind: netsim.KindProduceResp, TP: s.TP,
			Resp: replica.ProduceResponse{To: e.From, CorrelationID: e.Msg.CorrelationID, Error: code, BaseOffset: -1}})
	}
	return true
}
