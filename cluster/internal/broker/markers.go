package broker

import (
	"encoding/binary"
	"maps"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// A partition leader writes a transaction's markers when a coordinator asks
// (WriteTxnMarkers, from a coordinator's broker, or from an admin client
// aborting a hanging transaction): for each producer and partition, a
// control batch of one record, COMMIT or ABORT with the coordinator epoch
// (EndTransactionMarker), the producer's id and epoch, appended by the
// leader replica with acks=all (Kafka 3.7's
// KafkaApis.handleWriteTxnMarkersRequest, ReplicaManager.appendRecords with
// origin COORDINATOR). The leader's log checks it (an older producer epoch
// is INVALID_PRODUCER_EPOCH, an older coordinator epoch
// TRANSACTION_COORDINATOR_FENCED); the request is answered once every
// marker is, partition by partition. A marker on a __consumer_offsets
// partition is what makes a transaction's offsets committed (or not): the
// group coordinator reads them from the log (offsetstore.go).

// markerWrites are the WriteTxnMarkers a broker is writing.
type markerWrites struct {
	// writes are the requests, by the leader's correlation id of the
	// first append of each; slots the appends in flight, by correlation
	// id.
	writes map[int64]*markerWrite
	slots  map[int64]markerSlot
	corr   int64
}

// markerWrite is one WriteTxnMarkers being written.
type markerWrite struct {
	// to is the node the answer goes to, corr the request's correlation id.
	to   int32
	corr int64
	// results are the answer, open the appends not answered yet.
	results []txn.MarkerResult
	open    int
	// commits says, marker by marker, whether it is COMMIT.
	commits []bool
}

// markerSlot is one append of a markerWrite: marker i, partition j.
type markerSlot struct {
	write int64
	i, j  int
}

// clone copies the writes in flight.
func (m markerWrites) clone() markerWrites {
	out := markerWrites{corr: m.corr, slots: maps.Clone(m.slots), writes: make(map[int64]*markerWrite, len(m.writes))}
	for k, w := range m.writes {
		cp := *w
		cp.results = make([]txn.MarkerResult, len(w.results))
		for i, r := range w.results {
			cp.results[i] = txn.MarkerResult{ProducerID: r.ProducerID, Partitions: slices.Clone(r.Partitions)}
		}
		cp.commits = slices.Clone(w.commits)
		out.writes[k] = &cp
	}
	return out
}

// writeTxnMarkers starts writing the markers of a WriteTxnMarkers envelope.
func (b *Broker) writeTxnMarkers(env Env, e *netsim.Envelope) {
	req, ok := e.Txn.(txn.WriteMarkers)
	if !ok {
		return
	}
	b.WriteMarkers(env, e.From, req)
}

// WriteMarkers has b's leader replicas append the markers of req and
// answers node to (a coordinator's broker, or an external client's node)
// with a txn.WriteMarkersResponse once every one is written or refused.
func (b *Broker) WriteMarkers(env Env, to int32, req txn.WriteMarkers) {
	// Each map on its own: a clone of a broker that never wrote a marker
	// has writes made and slots nil.
	if b.markers.writes == nil {
		b.markers.writes = map[int64]*markerWrite{}
	}
	if b.markers.slots == nil {
		b.markers.slots = map[int64]markerSlot{}
	}
	b.markers.corr++
	key := b.markers.corr
	w := &markerWrite{to: to, corr: req.Corr, results: make([]txn.MarkerResult, len(req.Markers))}
	b.markers.writes[key] = w
	for i, m := range req.Markers {
		w.commits = append(w.commits, m.Commit)
		w.results[i] = txn.MarkerResult{ProducerID: m.ProducerID, Partitions: make([]txn.PartitionError, len(m.Partitions))}
		for j, k := range m.Partitions {
			w.results[i].Partitions[j] = txn.PartitionError{TP: k}
			code := b.appendMarker(env, key, i, j, m, k)
			if code != 0 {
				w.results[i].Partitions[j].Error = code
				continue
			}
			w.open++
		}
	}
	b.maybeAnswerMarkers(env, key)
}

// appendMarker hands marker m's control batch for partition k to b's
// leader replica of it; a partition it does not lead is answered with the
// code returned.
func (b *Broker) appendMarker(env Env, key int64, i, j int, m txn.Marker, k tp) int16 {
	if !hasPartition(topicNamed(env, k.Topic), k.Partition) {
		return kafkaerr.UnknownTopicOrPartition
	}
	s := b.replicas[k]
	if s == nil || s.Node.Status().Role != replica.RoleLeader {
		return kafkaerr.NotLeaderOrFollower
	}
	batch := kafkalog.NewEndTxnMarkerBatch(0, env.Now(), m.ProducerID, m.Epoch, markerType(m.Commit), m.CoordinatorEpoch)
	b.markers.corr++
	corr := b.markers.corr
	b.markers.slots[corr] = markerSlot{write: key, i: i, j: j}
	err := b.wake(s, env.Now()).Step(replica.Message{Type: replica.MsgProduce, From: netsim.TxnMarkerNode(b.id), To: b.id, CorrelationID: corr,
		Records: []replica.Record{{Batch: batch.AppendTo(nil)}}, Acks: replica.AcksAll, TimeoutMs: RequestTimeoutMs})
	if err == nil {
		err = b.processReady(env, s)
	}
	if err != nil {
		delete(b.markers.slots, corr)
		env.InternalError(b.id, err)
		return kafkaerr.UnknownServerError
	}
	return 0
}

// StepTxnMarkerAppend takes the leader's answer to one marker's append.
func (b *Broker) StepTxnMarkerAppend(env Env, e *netsim.Envelope) {
	if b.state != BrokerRunning || e.Kind != netsim.KindProduceResp {
		return
	}
	slot, ok := b.markers.slots[e.Resp.CorrelationID]
	if !ok {
		return
	}
	delete(b.markers.slots, e.Resp.CorrelationID)
	w := b.markers.writes[slot.write]
	if w == nil {
		return
	}
	pe := &w.results[slot.i].Partitions[slot.j]
	pe.Error = int16(e.Resp.Error)
	w.open--
	if pe.Error == 0 {
		env.Record(event.Transaction, b.id, &e.TP, "%s marker of producer id %d written at offset %d", markerType(w.commits[slot.i]), w.results[slot.i].ProducerID, e.Resp.BaseOffset)
	} else {
		env.Record(event.Transaction, b.id, &e.TP, "marker of producer id %d refused: %s", w.results[slot.i].ProducerID, kafkaerr.Name(pe.Error))
	}
	b.maybeAnswerMarkers(env, slot.write)
}

// markerType is a marker's name in the log (COMMIT, ABORT).
func markerType(commit bool) kafkalog.ControlRecordType {
	if commit {
		return kafkalog.ControlCommit
	}
	return kafkalog.ControlAbort
}

// maybeAnswerMarkers answers a WriteTxnMarkers whose every append was
// answered.
func (b *Broker) maybeAnswerMarkers(env Env, key int64) {
	w := b.markers.writes[key]
	if w == nil || w.open > 0 {
		return
	}
	delete(b.markers.writes, key)
	env.Send(netsim.Envelope{From: b.id, To: w.to, Kind: netsim.KindTxnMarkersResponse, Txn: txn.WriteMarkersResponse{Corr: w.corr, Results: w.results}})
}

// isControl reports whether e is the record of a control batch (a
// transaction marker). Only the first entry of a batch carries the
// batch's bytes, and a control batch holds one record.
func isControl(e *replica.Entry) bool {
	const attributesAt = 21
	return len(e.Batch) >= attributesAt+2 && kafkalog.Attributes(binary.BigEndian.Uint16(e.Batch[attributesAt:])).IsControl()
}
