package broker

import (
	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
)

// An operator aborts a hanging transaction (kafka-transactions abort,
// Kafka 3.7's Admin.abortTransaction through AbortTransactionHandler): a
// WriteTxnMarkers with one ABORT marker, the producer's id and epoch and
// a coordinator epoch, goes to the leader of the partition the
// transaction hangs on, which appends it as it appends a coordinator's
// markers (markers.go: acks=all, the log checking the epochs) and answers
// the cluster's admin node (netsim.AdminNode) once it is written or
// refused.

// AbortHanging has b, the leader of k, write an ABORT marker for m's
// producer on k, as an admin client's WriteTxnMarkers.
func (b *Broker) AbortHanging(env Env, k tp, m txn.Marker) {
	m.Commit, m.Partitions = false, []tp{k}
	env.Record(event.Transaction, b.id, &k, "admin: WriteTxnMarkers ABORT for producer id %d, epoch %d, coordinator epoch %d (kafka-transactions abort)",
		m.ProducerID, m.Epoch, m.CoordinatorEpoch)
	b.WriteMarkers(env, netsim.AdminNode, txn.WriteMarkers{Markers: []txn.Marker{m}})
}

// AdminAnswered records a leader's answer to an admin client's
// WriteTxnMarkers (e, at the admin node).
func AdminAnswered(env Env, e *netsim.Envelope) {
	a, ok := e.Txn.(txn.WriteMarkersResponse)
	if !ok {
		return
	}
	for _, r := range a.Results {
		for _, p := range r.Partitions {
			k := p.TP
			if p.Error == 0 {
				env.Record(event.Transaction, e.From, &k, "admin: the hanging transaction of producer id %d is aborted", r.ProducerID)
				continue
			}
			env.Record(event.Transaction, e.From, &k, "admin: the abort of producer id %d's transaction failed: %s", r.ProducerID, kafkaerr.Name(p.Error))
		}
	}
}
