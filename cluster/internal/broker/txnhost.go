package broker

import (
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// A broker process runs a transaction coordinator (txn.Coordinator), as
// every Kafka broker does: it coordinates the transactional ids of the
// __transaction_state partitions the broker leads, loading one when the
// broker becomes its leader and forgetting it when it stops. It lives and
// dies with the process; its state is in the log. Its appends to
// __transaction_state go through the broker's own leader replica from the
// node netsim.TxnCoordinatorNode, whose answers come back to
// [Broker.StepTxnCoordinator].

// txnEnv is the world as the broker's transaction coordinator sees it.
type txnEnv struct {
	Env
	b *Broker
}

// AppendLog implements txn.Env: the record goes to the broker's leader
// replica of the __transaction_state partition, acks=all, its answer to
// the coordinator's node.
func (t txnEnv) AppendLog(p int32, corr int64, key, value []byte) int16 {
	k := tp{Topic: metadata.TxnStateTopic, Partition: p}
	s := t.b.replicas[k]
	if s == nil || s.Node.Status().Role != replica.RoleLeader {
		return int16(replica.NotLeaderOrFollower)
	}
	err := t.b.wake(s, t.Now()).Step(replica.Message{Type: replica.MsgProduce, From: netsim.TxnCoordinatorNode(t.b.id), To: t.b.id, CorrelationID: corr,
		Records: []replica.Record{{Key: key, Value: value}}, Acks: replica.AcksAll, TimeoutMs: RequestTimeoutMs})
	if err == nil {
		err = t.b.processReady(t.Env, s)
	}
	if err != nil {
		t.InternalError(t.b.id, err)
		return kafkaerr.UnknownServerError
	}
	return 0
}

// ReadLog implements txn.Env: the records of the broker's replica, to its
// log end, markers left out.
func (t txnEnv) ReadLog(p int32) []txn.LogRecord {
	s := t.b.replicas[tp{Topic: metadata.TxnStateTopic, Partition: p}]
	if s == nil {
		return nil
	}
	s.changing()
	var out []txn.LogRecord
	for _, e := range s.Log.Mirror().From(0) {
		if isControl(e) {
			continue
		}
		out = append(out, txn.LogRecord{Key: e.Key, Value: e.Value})
	}
	return out
}

// PartitionLeader implements txn.Env.
func (t txnEnv) PartitionLeader(k kafkalog.TopicPartition) (int32, bool) {
	if !hasPartition(topicNamed(t, k.Topic), k.Partition) {
		return replica.NoLeader, false
	}
	return t.Leader(k), true
}

// startTxnCoordinator starts the process's transaction coordinator, which
// coordinates nothing until the broker leads a partition of
// __transaction_state.
func (b *Broker) startTxnCoordinator(env Env) {
	cfg := b.cfg.Txn
	cfg.BrokerID, cfg.OffsetsTopicNumPartitions = b.id, b.cfg.OffsetsTopicNumPartitions
	b.txn = txn.New(cfg, b.incarnation, env.Now())
	b.markers = markerWrites{}
}

// TxnCoordinator returns the broker's transaction coordinator, nil while
// its process does not run.
func (b *Broker) TxnCoordinator() *txn.Coordinator { return b.txn }

// CoordinatesTxn reports whether b's transaction coordinator coordinates
// transactional id id: b runs, leads the id's __transaction_state
// partition, and loaded it.
func (b *Broker) CoordinatesTxn(id string) bool {
	if b.state != BrokerRunning || b.txn == nil {
		return false
	}
	_, ok := b.txn.Coordinates(id)
	return ok
}

// txnElections tells the coordinator that the broker became the leader of
// a __transaction_state partition (it loads it, the leader epoch its
// coordinator epoch), or stopped being it (it forgets it).
func (b *Broker) txnElections(env Env, s *Partition) {
	if b.txn == nil || s.TP.Topic != metadata.TxnStateTopic {
		return
	}
	st := s.Node.Status()
	if st.Role != replica.RoleLeader {
		b.txn.OnResignation(txnEnv{env, b}, s.TP.Partition)
		return
	}
	if err := b.txn.OnElection(txnEnv{env, b}, s.TP.Partition, st.LeaderEpoch); err != nil {
		env.InternalError(b.id, err)
	}
}

// stepTxn hands the broker a message of the transaction protocol: a
// request to its coordinator, markers to write, or a leader's answer to
// its coordinator's markers.
func (b *Broker) stepTxn(env Env, e *netsim.Envelope) {
	switch e.Kind {
	case netsim.KindTxnRequest, netsim.KindTxnMarkersResponse:
		if m, ok := e.Txn.(txn.TxnOffsetCommit); ok {
			b.simTxnOffsetCommit(env, e, m) // for the group coordinator
			return
		}
		if err := b.txn.Step(txnEnv{env, b}, e); err != nil {
			env.InternalError(b.id, err)
		}
	case netsim.KindTxnMarkers:
		b.writeTxnMarkers(env, e)
	}
}

// StepTxnCoordinator hands the coordinator the answer to one of its
// appends to __transaction_state.
func (b *Broker) StepTxnCoordinator(env Env, e *netsim.Envelope) {
	if b.state != BrokerRunning || b.txn == nil {
		return
	}
	if err := b.txn.Step(txnEnv{env, b}, e); err != nil {
		env.InternalError(b.id, err)
	}
}

// tickTxn moves the coordinator's clock: timed out transactions, markers
// due again.
func (b *Broker) tickTxn(env Env) {
	if b.txn == nil {
		return
	}
	if err := b.txn.Tick(txnEnv{env, b}); err != nil {
		env.InternalError(b.id, err)
	}
}
