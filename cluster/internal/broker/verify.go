package broker

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// A partition leader verifies a transactional batch with the producer's
// transaction coordinator before it appends it (KIP-890 part 1, Kafka
// 3.7's ReplicaManager.appendRecords and AddPartitionsToTxnManager, on by
// default since 3.6: transaction.partition.verification.enable): when the
// partition has no open transaction of the batch's producer
// (UnifiedLog.maybeStartTransactionVerification), the leader asks the
// coordinator (the leader of the transactional id's __transaction_state
// partition) with an AddPartitionsToTxn v4 of VerifyOnly whether the
// partition is in the producer's transaction at that epoch, and appends
// the batch only once it says yes. The coordinator's refusal reaches the
// producer as AddPartitionsToTxnManager and appendEntries translate it:
// PRODUCER_FENCED as INVALID_PRODUCER_EPOCH, INVALID_TXN_STATE as itself
// ("Partition was not added to the transaction"), and the coordinator's
// retriable errors as NOT_ENOUGH_REPLICAS, so that the producer retries. A
// verification whose answer never comes (the coordinator's broker went
// down, a link is cut) fails with NETWORK_EXCEPTION after the leader's
// request.timeout.ms, as the inter-broker client does. A batch of a
// transaction already open on the partition is appended at once; so is
// every batch when verification is off, and then a late write of an ended
// transaction opens one its coordinator never ends: a hanging
// transaction.
//
// Under transaction.version 2 (KIP-890 part 2, Kafka 4.0 and on) a
// producer sends no AddPartitionsToTxn: its Produce v12+ has the leader add
// the partition itself (AddPartitionsToTxnManager's
// produceRequestVersionToTransactionSupportedOperation: ADD_PARTITION from
// v12, which asks without VerifyOnly), and the coordinator writes the
// transaction's new state before it answers. The producer's epoch goes up
// at every transaction's end, so a batch of a newer epoch than the open
// transaction's on the partition is the next transaction's: it waits for
// the coordinator too, which answers CONCURRENT_TRANSACTIONS until the
// previous transaction's markers are written; the leader asks again every
// add.partitions.to.txn.retry.backoff.ms (20) for up to
// add.partitions.to.txn.retry.backoff.max.ms (100) before it hands the
// error to the producer (as NOT_ENOUGH_REPLICAS, which it retries). A
// zombie's late batch at the old epoch is refused: the coordinator
// answers PRODUCER_FENCED, and the partition's producer state holds the
// newer epoch once the marker is written.
//
// The world's own producers' batches wait at the leader (Broker.verifies);
// an external client's produce waits in Requests (verifyWait), its
// verification carrying the client's node so that the answer comes back
// to the request, as the answers of the transaction APIs do.

// The leader's retries of an implicit add the coordinator answered
// CONCURRENT_TRANSACTIONS: Kafka 4.0's add.partitions.to.txn.retry.backoff.ms
// and add.partitions.to.txn.retry.backoff.max.ms.
const (
	addPartitionsRetryBackoffMs    = 20
	addPartitionsRetryBackoffMaxMs = 100
)

// produceTransactionAbortableVersion is the first Produce version whose
// client knows TRANSACTION_ABORTABLE (KIP-890: genericErrorSupported): a
// partition not in the transaction is answered with it.
const produceTransactionAbortableVersion = 11

// produceAddsPartitionVersion is the first Produce version whose
// transactional batch has the leader add its partition to the
// transaction (transaction.version 2).
const produceAddsPartitionVersion = 12

// txnAsk is one question of a leader to a transaction coordinator about a
// transactional batch: the producer's transactional id, id and epoch, and
// whether the partition is to be added (Produce v12+) rather than only
// verified. startMs is when the first was sent, retryAtMs when to send it
// again after CONCURRENT_TRANSACTIONS (0: not waiting to).
type txnAsk struct {
	id                 string
	pid                int64
	epoch              int16
	add                bool
	startMs, retryAtMs int64
}

// noteRetry records that leader b asks again later to add k.
func (b *Broker) noteRetry(env Env, k tp, a txnAsk) {
	env.Record(event.Transaction, b.id, &k, "the transaction coordinator answered CONCURRENT_TRANSACTIONS (producer id %d's previous transaction is still completing): the leader asks again in %d ms",
		a.pid, addPartitionsRetryBackoffMs)
}

// retryLater reports whether the leader asks again later rather than
// settle on code (CONCURRENT_TRANSACTIONS to an add, within the retries'
// time), and sets when.
func (a *txnAsk) retryLater(code int16, nowMs int64) bool {
	if !a.add || code != kafkaerr.ConcurrentTransactions || nowMs-a.startMs >= addPartitionsRetryBackoffMaxMs {
		return false
	}
	a.retryAtMs = nowMs + addPartitionsRetryBackoffMs
	return true
}

// simVerify is a simulated producer's produce waiting at its leader for
// the coordinator's answer.
type simVerify struct {
	e          netsim.Envelope
	ask        txnAsk
	deadlineMs int64
}

// verifies are the simulated producers' batches a broker's leaders wait to
// verify, by the verification's correlation id.
type verifies struct {
	corr  int64
	waits map[int64]simVerify
}

// clone copies the waits (the envelopes are values; their batches are
// not changed before they are appended).
func (v verifies) clone() verifies {
	return verifies{corr: v.corr, waits: maps.Clone(v.waits)}
}

// batchAttributes reads a record batch's attributes from its bytes.
func batchAttributes(batch []byte) kafkalog.Attributes {
	const attributesAt = 21
	if len(batch) < attributesAt+2 {
		return 0
	}
	return kafkalog.Attributes(binary.BigEndian.Uint16(batch[attributesAt:]))
}

// needsVerification reports whether leader s asks the coordinator about
// a batch of producer pid at epoch (transactional id id, attributes a)
// before appending it: when the partition has no transaction of the
// producer open (Kafka 3.7's UnifiedLog.hasOngoingTransaction) or, for a
// batch that adds its partition (transaction.version 2), none open at the
// batch's epoch: a newer epoch is the producer's next transaction. A batch
// that adds its partition always asks, transaction.partition.verification.enable
// or not: the add is how its partition joins the transaction at all.
func (b *Broker) needsVerification(s *Partition, id string, a kafkalog.Attributes, pid int64, epoch int16, add bool) bool {
	if !b.cfg.TransactionPartitionVerification && !add || id == "" || !a.IsTransactional() || a.IsControl() || pid < 0 {
		return false
	}
	if !slices.ContainsFunc(s.Log.Kafka().OngoingTxns(), func(o kafkalog.OngoingTxn) bool { return o.ProducerID == pid }) {
		return true
	}
	if !add {
		return false
	}
	e, _ := s.Log.Kafka().Producer(pid)
	return e.ProducerEpoch != epoch
}

// askVerification sends the coordinator of a.id the question whether k is
// in producer a.pid's transaction at a.epoch, or (a.add) to add it, from
// node from with correlation id corr; false when no broker leads the id's
// __transaction_state partition (COORDINATOR_NOT_AVAILABLE:
// AddPartitionsToTxnManager.getTransactionCoordinator).
func (b *Broker) askVerification(env Env, from int32, corr int64, a txnAsk, k tp) bool {
	coord := env.Leader(metadata.TxnStatePartition(a.id, b.cfg.Txn.NumPartitions))
	if coord == replica.NoLeader {
		return false
	}
	if a.add {
		env.Record(event.Transaction, b.id, &k, "leader asks broker %d's transaction coordinator to add %s to producer id %d's transaction (epoch %d) before appending its batch (AddPartitionsToTxn from a Produce v12+, transaction.version 2)",
			coord, k, a.pid, a.epoch)
	} else {
		env.Record(event.Transaction, b.id, &k, "leader asks broker %d's transaction coordinator whether %s is in producer id %d's transaction (epoch %d) before appending its batch (AddPartitionsToTxn VerifyOnly)",
			coord, k, a.pid, a.epoch)
	}
	env.Send(netsim.Envelope{From: from, To: coord, Kind: netsim.KindTxnRequest, Txn: txn.AddPartitions{Corr: corr, TransactionalID: a.id,
		ProducerID: a.pid, Epoch: a.epoch, Partitions: []tp{k}, VerifyOnly: !a.add}})
	return true
}

// verificationError is what the producer hears for the coordinator's
// answer code to a verification (0: verified), and the message.
func verificationError(code int16) (int16, string) {
	switch code {
	case 0:
		return 0, ""
	case kafkaerr.ProducerFenced:
		return kafkaerr.InvalidProducerEpoch, ""
	case kafkaerr.InvalidTxnState:
		return code, "Partition was not added to the transaction"
	case kafkaerr.ConcurrentTransactions, kafkaerr.CoordinatorLoadInProgress, kafkaerr.CoordinatorNotAvailable, kafkaerr.NotCoordinator:
		return kafkaerr.NotEnoughReplicas, fmt.Sprintf("Unable to verify the partition has been added to the transaction. Underlying error: %s", kafkaerr.Name(code))
	}
	return code, ""
}

// answerCode is the code of a verification's answer for its one
// partition.
func answerCode(m netsim.TxnMessage) int16 {
	a, ok := m.(txn.AddPartitionsResponse)
	if !ok || len(a.Partitions) == 0 {
		return kafkaerr.UnknownServerError
	}
	return a.Partitions[0].Error
}

// gateProduce holds a simulated producer's produce e at leader s while
// its coordinator verifies it; it reports whether it did (the caller then
// does not append it now).
func (b *Broker) gateProduce(env Env, s *Partition, e *netsim.Envelope) bool {
	m := e.Msg
	if m.Type != replica.MsgProduce || len(m.Records) == 0 || m.Records[0].Producer == nil || s.Node.Status().Role != replica.RoleLeader {
		return false
	}
	ps := m.Records[0].Producer
	if !b.needsVerification(s, e.TransactionalID, batchAttributes(m.Records[0].Batch), ps.ID, ps.Epoch, e.TxnV2) {
		return false
	}
	b.verify.corr++
	corr := b.verify.corr
	ask := txnAsk{id: e.TransactionalID, pid: ps.ID, epoch: ps.Epoch, add: e.TxnV2, startMs: env.Now()}
	if !b.askVerification(env, b.id, corr, ask, e.TP) {
		b.refuseProduce(env, e, kafkaerr.CoordinatorNotAvailable)
		return true
	}
	if b.verify.waits == nil {
		b.verify.waits = map[int64]simVerify{}
	}
	b.verify.waits[corr] = simVerify{e: *e, ask: ask, deadlineMs: env.Now() + RequestTimeoutMs}
	return true
}

// refuseProduce answers a simulated producer's produce e with the
// producer's error for the coordinator's code.
func (b *Broker) refuseProduce(env Env, e *netsim.Envelope, coordCode int16) {
	code, _ := verificationError(coordCode)
	env.Record(event.Transaction, b.id, &e.TP, "leader refuses producer id %d's transactional batch: %s (the coordinator answered %s)",
		e.Msg.Records[0].Producer.ID, kafkaerr.Name(code), kafkaerr.Name(coordCode))
	env.Send(netsim.Envelope{From: b.id, To: e.From, Kind: netsim.KindProduceResp, TP: e.TP,
		Resp: replica.ProduceResponse{To: e.Msg.From, CorrelationID: e.Msg.CorrelationID, Error: replica.ErrorCode(code), BaseOffset: -1}})
}

// verified takes a coordinator's answer to one of b's verifications of a
// simulated producer's batch: it appends the batch, or refuses it.
func (b *Broker) verified(env Env, e *netsim.Envelope) error {
	a, ok := e.Txn.(txn.AddPartitionsResponse)
	if !ok {
		return nil
	}
	w, ok := b.verify.waits[a.Corr]
	if !ok || w.ask.retryAtMs != 0 {
		return nil
	}
	code := answerCode(a)
	if w.ask.retryLater(code, env.Now()) {
		b.verify.waits[a.Corr] = w
		b.noteRetry(env, w.e.TP, w.ask)
		return nil
	}
	delete(b.verify.waits, a.Corr)
	if code != 0 {
		b.refuseProduce(env, &w.e, code)
		return nil
	}
	s := b.replicas[w.e.TP]
	if s == nil {
		return nil
	}
	b.wake(s, env.Now())
	if err := s.Node.Step(w.e.Msg); err != nil {
		return err
	}
	return b.processReady(env, s)
}

// expireVerifications asks again the adds due a retry, and fails the
// simulated producers' verifications unanswered for request.timeout.ms
// with NETWORK_EXCEPTION.
func (b *Broker) expireVerifications(env Env) {
	for _, corr := range slices.Sorted(maps.Keys(b.verify.waits)) {
		w := b.verify.waits[corr]
		if w.ask.retryAtMs != 0 && env.Now() >= w.ask.retryAtMs {
			w.ask.retryAtMs, w.deadlineMs = 0, env.Now()+RequestTimeoutMs
			b.verify.waits[corr] = w
			if !b.askVerification(env, b.id, corr, w.ask, w.e.TP) {
				delete(b.verify.waits, corr)
				b.refuseProduce(env, &w.e, kafkaerr.CoordinatorNotAvailable)
			}
			continue
		}
		if w.ask.retryAtMs != 0 || env.Now() < w.deadlineMs {
			continue
		}
		delete(b.verify.waits, corr)
		b.refuseProduce(env, &w.e, kafkaerr.NetworkException)
	}
}

// produceVerify is a partition of an external client's produce waiting
// for its coordinator's verification.
type produceVerify struct {
	id      uint64
	x       *Request
	req     *kmsg.ProduceRequest
	ti, pi  int
	copyOut bool
	records int
	ask     txnAsk
	// k is the partition asked about, broker the broker asking.
	k      tp
	broker int32
	// offsets is set for a TxnOffsetCommit's add of its offsets partition
	// (transaction.version 2), which is settled by taking the request
	// again.
	offsets *offsetsAdd
	// coord is the coordinator's broker asked: the question is lost when
	// it goes down.
	coord      int32
	deadlineMs int64
}

// verifyProduce asks the coordinator of x's transactional id to verify
// partition pi of topic ti of produce p; the partition waits for the
// answer (waitsForReplica), or fails at once when no broker coordinates
// the id.
func (rq *Requests) verifyProduce(env APIEnv, b *Broker, p *pending, x *Request, req *kmsg.ProduceRequest, ti, pi int, copyOut bool, ask txnAsk, records int) verdict {
	k := tp{Topic: req.Topics[ti].Topic, Partition: req.Topics[ti].Partitions[pi].Partition}
	corr := rq.nextCorr()
	if !b.askVerification(env, clientNode(x.Client), corr, ask, k) {
		code, msg := verificationError(kafkaerr.CoordinatorNotAvailable)
		return verdict{code: code, msg: msg, records: records}
	}
	if rq.verifies == nil {
		rq.verifies = map[int64]produceVerify{}
	}
	rq.verifies[corr] = produceVerify{id: p.id, x: x, req: req, ti: ti, pi: pi, copyOut: copyOut, records: records, ask: ask, k: k, broker: b.ID(),
		coord: coordinatorOf(env, b, ask.id), deadlineMs: env.Now() + RequestTimeoutMs}
	p.open++
	return verdict{code: waitsForReplica, records: records}
}

// produceVerified takes a coordinator's answer to the verification of an
// external client's produce (false: e answers something else): the
// partition is appended, or refused; the produce is answered once its
// last partition is settled.
func (rq *Requests) produceVerified(env APIEnv, brokers []*Broker, e *netsim.Envelope) bool {
	a, ok := e.Txn.(txn.AddPartitionsResponse)
	if !ok {
		return false
	}
	w, ok := rq.verifies[a.Corr]
	if !ok || w.ask.retryAtMs != 0 {
		return ok
	}
	code := answerCode(a)
	if w.ask.retryLater(code, env.Now()) {
		rq.verifies[a.Corr] = w
		brokers[w.broker-1].noteRetry(env, w.k, w.ask)
		return true
	}
	delete(rq.verifies, a.Corr)
	rq.settleVerified(env, brokers, w, code)
	return true
}

// settleVerified appends (code 0) or refuses the partition w waited to
// verify.
func (rq *Requests) settleVerified(env APIEnv, brokers []*Broker, w produceVerify, code int16) {
	if w.offsets != nil {
		rq.offsetsPartitionSettled(env, brokers[w.broker-1], w, code)
		return
	}
	p := rq.pending[w.id]
	if p == nil {
		return
	}
	b := brokers[p.broker-1]
	p.open--
	if code == 0 {
		rq.producePart(env, b, p, w.x, w.req, w.ti, w.pi, w.copyOut, true)
	} else {
		k := tp{Topic: w.req.Topics[w.ti].Topic, Partition: w.req.Topics[w.ti].Partitions[w.pi].Partition}
		perr, msg := verificationError(code)
		if perr == kafkaerr.InvalidTxnState && w.x.Version >= produceTransactionAbortableVersion {
			// the coordinator's TRANSACTION_ABORTABLE, which Kafka 4's
			// AddPartitionsToTxnManager turns into INVALID_TXN_STATE only
			// for the clients that do not know it
			perr, msg = kafkaerr.TransactionAbortable, ""
		}
		env.Record(event.Transaction, b.ID(), &k, "leader refuses client %d's transactional batch: %s (the coordinator answered %s)",
			w.x.Client, kafkaerr.Name(perr), kafkaerr.Name(code))
		rq.settleProduce(env, b, p, w.ti, w.pi, perr, msg, -1, w.records)
	}
	if p.open == 0 {
		delete(rq.pending, p.id)
		rq.answerProduce(env, b, p)
	}
}

// expireVerifications asks again the adds due a retry, and fails the
// external verifications whose coordinator went down or that waited
// request.timeout.ms, with NETWORK_EXCEPTION.
func (rq *Requests) expireVerifications(env APIEnv, brokers []*Broker) {
	for _, corr := range slices.Sorted(maps.Keys(rq.verifies)) {
		w := rq.verifies[corr]
		if w.ask.retryAtMs != 0 {
			if env.Now() >= w.ask.retryAtMs {
				rq.askAgain(env, brokers, corr, w)
			}
			continue
		}
		if brokers[w.coord-1].State() == BrokerRunning && env.Now() < w.deadlineMs {
			continue
		}
		delete(rq.verifies, corr)
		rq.settleVerified(env, brokers, w, kafkaerr.NetworkException)
	}
}

// askAgain sends the add w waits for again (after CONCURRENT_TRANSACTIONS),
// to the id's coordinator now.
func (rq *Requests) askAgain(env APIEnv, brokers []*Broker, corr int64, w produceVerify) {
	b := brokers[w.broker-1]
	w.ask.retryAtMs, w.deadlineMs = 0, env.Now()+RequestTimeoutMs
	if !b.askVerification(env, clientNode(w.x.Client), corr, w.ask, w.k) {
		delete(rq.verifies, corr)
		rq.settleVerified(env, brokers, w, kafkaerr.CoordinatorNotAvailable)
		return
	}
	w.coord = coordinatorOf(env, b, w.ask.id)
	rq.verifies[corr] = w
}

// coordinatorOf is the broker leading transactional id id's
// __transaction_state partition.
func coordinatorOf(env Env, b *Broker, id string) int32 {
	return env.Leader(metadata.TxnStatePartition(id, b.cfg.Txn.NumPartitions))
}
