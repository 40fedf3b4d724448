package broker

import (
	"maps"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// This file serves the transaction APIs to clients outside the simulation
// (Kafka 3.7's KafkaApis and TransactionCoordinator): InitProducerId with
// a transactional id, AddPartitionsToTxn, AddOffsetsToTxn and EndTxn go to
// the broker's transaction coordinator (txn.Coordinator) as the messages
// the world's own producers send, from the client's node; the
// coordinator's answer comes back over the network
// ([Requests.StepAnswer]) and is turned into the request's response.
// WriteTxnMarkers (an admin client's abort of a hanging transaction) goes
// to the broker's leaders the same way. A request at a broker that goes
// down is never answered: the connection closes or hangs.

// txnWait is one client's request waiting for a transaction coordinator's
// (or a leader's markers') answer. A batched AddPartitionsToTxn (v4+, one
// part per transaction) is answered when its last part is.
type txnWait struct {
	id          uint64
	broker      int32
	incarnation int
	req         kmsg.Request
	resp        kmsg.Response
	part        int
	open        *int
}

// sendTxn hands msg, with correlation id corr, to b's transaction
// coordinator as a request of client x, for part part of request id.
func (rq *Requests) sendTxn(env Env, b *Broker, id uint64, x *Request, req kmsg.Request, resp kmsg.Response, part int, open *int, corr int64, msg netsim.TxnMessage) {
	rq.waitTxn(b, id, req, resp, part, open, corr)
	b.stepTxn(env, &netsim.Envelope{From: clientNode(x.Client), To: b.ID(), Kind: netsim.KindTxnRequest, Txn: msg})
}

// waitTxn keeps part part of request id waiting for the answer carrying
// corr.
func (rq *Requests) waitTxn(b *Broker, id uint64, req kmsg.Request, resp kmsg.Response, part int, open *int, corr int64) {
	if rq.txns == nil {
		rq.txns = map[int64]*txnWait{}
	}
	if open == nil {
		n := 1
		open = &n
	}
	rq.txns[corr] = &txnWait{id: id, broker: b.ID(), incarnation: b.Incarnation(), req: req, resp: resp, part: part, open: open}
}

// nextCorr is a new correlation id of the clients' requests.
func (rq *Requests) nextCorr() int64 {
	rq.corr++
	return rq.corr
}

// txnAnswered takes a coordinator's (or a leader's markers') answer to a
// client's request.
func (rq *Requests) txnAnswered(e *netsim.Envelope) {
	corr := txn.CorrOf(e.Txn)
	w, ok := rq.txns[corr]
	if !ok {
		return
	}
	delete(rq.txns, corr)
	fillTxnAnswer(w.req, w.resp, w.part, e.Txn)
	*w.open--
	if *w.open == 0 {
		rq.answer(w.id, w.resp)
	}
}

// isTxnKey reports whether key is one of the transaction APIs a
// coordinator or a leader answers later (InitProducerId, AddPartitionsToTxn,
// AddOffsetsToTxn, EndTxn, WriteTxnMarkers, TxnOffsetCommit).
func isTxnKey(key int16) bool {
	switch key {
	case 22, 24, 25, 26, 27, 28:
		return true
	}
	return false
}

// sweepTxns forgets the requests waiting at brokers that went down or
// restarted: they are never answered.
func (rq *Requests) sweepTxns(brokers []*Broker) {
	for _, corr := range slices.Sorted(maps.Keys(rq.txns)) {
		w := rq.txns[corr]
		if b := brokers[w.broker-1]; b.State() != BrokerRunning || b.Incarnation() != w.incarnation {
			delete(rq.txns, corr)
		}
	}
	for _, corr := range slices.Sorted(maps.Keys(rq.txnCommits)) {
		w := rq.txnCommits[corr]
		if b := brokers[w.broker-1]; b.State() != BrokerRunning || b.Incarnation() != w.incarnation {
			delete(rq.txnCommits, corr)
		}
	}
}

// fencedFor is the code a client of version v of an API hears for
// PRODUCER_FENCED: the versions before since (which added it) hear
// INVALID_PRODUCER_EPOCH, as KafkaApis answers them.
func fencedFor(code int16, v, since int16) int16 {
	if code == kafkaerr.ProducerFenced && v < since {
		return kafkaerr.InvalidProducerEpoch
	}
	return code
}

// fillTxnAnswer writes a coordinator's answer ans into resp, part part of
// request req.
func fillTxnAnswer(req kmsg.Request, resp kmsg.Response, part int, ans netsim.TxnMessage) {
	switch r := resp.(type) {
	case *kmsg.InitProducerIDResponse:
		a := ans.(txn.InitProducerIDResponse)
		r.ErrorCode, r.ProducerID, r.ProducerEpoch = fencedFor(a.Error, r.Version, 4), a.ProducerID, a.Epoch
	case *kmsg.AddPartitionsToTxnResponse:
		fillAddPartitions(req.(*kmsg.AddPartitionsToTxnRequest), r, part, ans.(txn.AddPartitionsResponse))
	case *kmsg.AddOffsetsToTxnResponse:
		r.ErrorCode = fencedFor(ans.(txn.AddOffsetsResponse).Error, r.Version, 2)
	case *kmsg.EndTxnResponse:
		a := ans.(txn.EndTxnResponse)
		r.ErrorCode, r.ProducerID, r.ProducerEpoch = fencedFor(a.Error, r.Version, 2), a.ProducerID, a.Epoch
	case *kmsg.WriteTxnMarkersResponse:
		fillWriteMarkers(r, ans.(txn.WriteMarkersResponse))
	}
}

// txnPartitions lists the partitions of topics, in the request's order.
func txnPartitions[T any](topics []T, each func(T) (string, []int32)) []kafkalog.TopicPartition {
	var out []kafkalog.TopicPartition
	for _, t := range topics {
		name, ps := each(t)
		for _, p := range ps {
			out = append(out, kafkalog.TopicPartition{Topic: name, Partition: p})
		}
	}
	return out
}

// errorsByPartition maps an answer's partitions to their codes.
func errorsByPartition(ps []txn.PartitionError) map[kafkalog.TopicPartition]int16 {
	out := make(map[kafkalog.TopicPartition]int16, len(ps))
	for _, p := range ps {
		out[p.TP] = p.Error
	}
	return out
}

// noteTxn records a transaction request of a client.
func noteTxn(env Env, x *Request, format string, args ...any) {
	env.Record(event.Transaction, x.Broker, nil, "client %d (%s): "+format, append([]any{x.Client, x.ClientID}, args...)...)
}
