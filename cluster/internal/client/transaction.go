package client

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// Transactions (KIP-98), the smallest faithful piece of them, as Kafka 3.7
// runs them:
//
//   - A producer with a transactional.id ([ProducerConfig.TransactionalID])
//     is idempotent; InitProducerId gives it its producer id and epoch 0
//     (here at once, when it is added). Its batches carry the transactional
//     attribute (DefaultRecordBatch's bit 4) with the producer id, epoch and
//     sequences.
//   - A transaction begins with the first record the producer sends after
//     the previous one ended (beginTransaction is local to the client; the
//     partition joins the transaction with AddPartitionsToTxn).
//   - commitTransaction ([Producer.EndTransaction] with commit) sends the
//     batches still lingering, waits for every record of the transaction
//     to be answered, then the transaction coordinator has the leader of
//     each partition the transaction wrote to append a control batch: one
//     record whose key is version 0 and COMMIT, whose value is version 0
//     and the coordinator epoch (EndTransactionMarker), transactional and
//     control attributes, the producer's id and epoch, baseSequence -1
//     (Kafka's WriteTxnMarkers, appended by ReplicaManager.appendRecords
//     with origin COORDINATOR, acks -1). A marker that fails or gets no
//     answer is sent again after retry.backoff.ms, as
//     TransactionMarkerChannelManager retries it. abortTransaction fails
//     the batches not sent yet with TransactionAbortedException
//     (Sender.runOnce: RecordAccumulator.abortUndrainedBatches), waits for
//     those in flight, and writes ABORT markers. A commit in which a
//     record failed ends as an abort: the Java client's commitTransaction
//     throws, and the application is told to abort.
//   - Markers are replicated like any batch. Consumers read as
//     read_uncommitted does (the Java default): they see the records of
//     open and aborted transactions, hand no control record to the
//     application, and move their position past it (a fetch at a marker's
//     offset returns the marker's batch: CompletedFetch.nextFetchedRecord).
//
// Not modelled: the transaction coordinator itself and its
// __transaction_state log (its state is the producer's here, and the
// coordinator epoch of every marker is 0: that of the first leader of
// its __transaction_state partition); transaction.timeout.ms; a second
// producer with the same transactional.id fencing the first (InitProducerId
// bumping the epoch); read_committed consumers and the last stable offset
// (LSO), with the .txnindex of aborted transactions; the leader's producer
// state checking markers. The markers travel on the producer's network
// link here (in Kafka, the coordinator's broker's).

// txnCoordinatorEpoch is the coordinator epoch of every marker.
const txnCoordinatorEpoch = 0

// txnState is a transactional producer's transaction.
type txnState struct {
	// partitions the open transaction wrote to, in the order it first did
	// (AddPartitionsToTxn).
	partitions []int32
	// ending is set by commitTransaction or abortTransaction; marker is
	// the marker they write (COMMIT, ABORT), failed counts the
	// transaction's records that failed.
	ending bool
	marker kafkalog.ControlRecordType
	failed int
	// markers are the marker writes, created once every record of the
	// transaction was answered.
	markers []*txnMarker
	// committed and aborted count the transactions ended.
	committed, aborted int
}

// txnMarker is one marker's write to one partition's leader.
type txnMarker struct {
	partition int32
	corr      int64 // correlation id in flight, 0 if none
	sentMs    int64
	retryAtMs int64
	offset    int64 // where the leader appended it, once done
	done      bool
}

// transactional reports whether p has a transactional.id.
func (p *Producer) transactional() bool { return p.cfg.TransactionalID != "" }

// txnAddPartition notes that p's open transaction writes to partition.
func (p *Producer) txnAddPartition(env Env, partition int32) {
	if !p.transactional() {
		return
	}
	if p.txn == nil {
		p.txn = &txnState{}
	}
	if slices.Contains(p.txn.partitions, partition) {
		return
	}
	p.txn.partitions = append(p.txn.partitions, partition)
	tp := p.tp(partition)
	env.Record(event.Produce, 0, tp, "%s: AddPartitionsToTxn %s-%d (transactional.id %s)", p.cfg.Name, tp.Topic, tp.Partition, p.cfg.TransactionalID)
}

// txnSendFailed notes a record of p's transaction refused before it was sent
// (KafkaProducer.doSend: an ApiException puts the transaction in an abortable
// error state): the transaction cannot commit.
func (p *Producer) txnSendFailed() {
	if !p.transactional() {
		return
	}
	if p.txn == nil {
		p.txn = &txnState{}
	}
	p.txn.failed++
}

// CheckEndTransaction checks a commit or abort of the producer's
// transaction; kind names the action in the error.
func (p *Producer) CheckEndTransaction(kind string) error {
	switch {
	case !p.transactional():
		return fmt.Errorf("%w: %s: producer %s has no transactional.id: transactions need one (KafkaProducer.initTransactions)", metadata.ErrInvalidConfig, kind, p.cfg.Name)
	case p.txn != nil && p.txn.ending:
		return fmt.Errorf("%w: %s: producer %s is already ending its transaction (%s)", metadata.ErrInvalidConfig, kind, p.cfg.Name, markerVerb(p.txn.marker))
	}
	return nil
}

// checkTransactionalSend refuses a record of a producer whose transaction
// is ending: KafkaProducer.send fails in state COMMITTING_TRANSACTION or
// ABORTING_TRANSACTION.
func (p *Producer) checkTransactionalSend() error {
	if p.txn != nil && p.txn.ending {
		return fmt.Errorf("%w: produce: producer %s is ending its transaction (%s): a record waits for the next", metadata.ErrInvalidConfig, p.cfg.Name, markerVerb(p.txn.marker))
	}
	return nil
}

func markerVerb(t kafkalog.ControlRecordType) string {
	if t == kafkalog.ControlCommit {
		return "commitTransaction"
	}
	return "abortTransaction"
}

// EndTransaction starts commitTransaction (commit) or abortTransaction of
// a transactional producer ([Producer.CheckEndTransaction] first).
func (p *Producer) EndTransaction(env Env, commit bool) {
	if p.txn == nil {
		p.txn = &txnState{}
	}
	t := p.txn
	t.marker = kafkalog.ControlAbort
	if commit {
		t.marker = kafkalog.ControlCommit
	}
	if len(t.partitions) == 0 {
		// No partition joined: the client sends no EndTxn.
		if commit && t.failed > 0 {
			env.Record(event.Produce, 0, nil, "%s: commitTransaction failed: %d record(s) of the transaction failed; the application aborts it", p.cfg.Name, t.failed)
		}
		env.Record(event.Produce, 0, nil, "%s: %s: the transaction wrote nothing, no marker to write", p.cfg.Name, markerVerb(t.marker))
		t.failed = 0
		return
	}
	t.ending = true
	env.Record(event.Produce, 0, nil, "%s: %s (transactional.id %s, producer id %d, epoch %d) on %s", p.cfg.Name, markerVerb(t.marker),
		p.cfg.TransactionalID, p.id, p.epoch, p.txnPartitionsText())
	if commit {
		for _, partition := range p.sortedLingering() {
			p.sendLingering(env, partition) // flush
		}
	} else {
		for _, partition := range p.sortedLingering() {
			b := p.lingering[partition]
			delete(p.lingering, partition)
			for _, i := range b.results {
				r := p.result(i)
				r.lingering = false
				p.failRecord(env, i, "TransactionAbortedException")
			}
		}
	}
	p.tickTransaction(env)
}

func (p *Producer) sortedLingering() []int32 {
	return slices.Sorted(maps.Keys(p.lingering))
}

func (p *Producer) txnPartitionsText() string {
	parts := make([]string, len(p.txn.partitions))
	for i, q := range p.txn.partitions {
		parts[i] = fmt.Sprintf("%s-%d", p.cfg.Topic, q)
	}
	return strings.Join(parts, ", ")
}

// tickTransaction moves an ending transaction on: once every record is
// answered, the markers are written, sent again when they failed or timed
// out, and the transaction ends when every partition holds its marker.
func (p *Producer) tickTransaction(env Env) {
	t := p.txn
	if t == nil || !t.ending {
		return
	}
	if t.markers == nil {
		for _, i := range p.open {
			if r := p.result(i); !r.Acked && !r.Failed {
				return // EndTxn waits for the transaction's records
			}
		}
		if t.marker == kafkalog.ControlCommit && t.failed > 0 {
			env.Record(event.Produce, 0, nil, "%s: commitTransaction failed: %d record(s) of the transaction failed; the application aborts it", p.cfg.Name, t.failed)
			t.marker = kafkalog.ControlAbort
		}
		for _, q := range t.partitions {
			t.markers = append(t.markers, &txnMarker{partition: q, offset: -1})
		}
	}
	now := env.Now()
	done := true
	for _, m := range t.markers {
		switch {
		case m.done:
			continue
		case m.corr != 0 && now-m.sentMs >= p.cfg.RequestTimeoutMs:
			m.corr, m.retryAtMs = 0, now // no answer: write it again
		}
		done = false
		if m.corr == 0 && now >= m.retryAtMs {
			p.sendMarker(env, m)
		}
	}
	if !done {
		return
	}
	var at []string
	for _, m := range t.markers {
		at = append(at, fmt.Sprintf("%s-%d at %d", p.cfg.Topic, m.partition, m.offset))
	}
	verb := "aborted"
	if t.marker == kafkalog.ControlCommit {
		verb = "committed"
		t.committed++
	} else {
		t.aborted++
	}
	env.Record(event.Produce, 0, nil, "%s: transaction %s (%s markers: %s)", p.cfg.Name, verb, t.marker, strings.Join(at, ", "))
	t.partitions, t.markers, t.ending, t.failed = nil, nil, false, 0
}

// sendMarker has the partition's leader append m's control batch.
func (p *Producer) sendMarker(env Env, m *txnMarker) {
	tp := kafkalog.TopicPartition{Topic: p.cfg.Topic, Partition: m.partition}
	leader := env.PartitionLeader(tp.Topic, tp.Partition)
	if leader == replica.NoLeader {
		m.retryAtMs = env.Now() + p.cfg.RetryBackoffMs
		return
	}
	b := kafkalog.NewEndTxnMarkerBatch(0, env.Now(), int64(p.id), p.epoch, p.txn.marker, txnCoordinatorEpoch)
	p.corr++
	m.corr, m.sentMs = p.corr, env.Now()
	env.Send(netsim.Envelope{From: p.id, To: leader, Kind: netsim.KindReplica, TP: tp, Msg: replica.Message{Type: replica.MsgProduce,
		From: p.id, To: leader, CorrelationID: p.corr, Records: []replica.Record{{Batch: b.AppendTo(nil)}},
		Acks: replica.AcksAll, TimeoutMs: p.cfg.RequestTimeoutMs}})
}

// deliverTxnMarker handles a leader's answer to a marker write, reporting
// whether e was one.
func (p *Producer) deliverTxnMarker(env Env, e *netsim.Envelope) bool {
	if p.txn == nil {
		return false
	}
	for _, m := range p.txn.markers {
		if m.corr == 0 || m.corr != e.Resp.CorrelationID {
			continue
		}
		m.corr = 0
		if e.Resp.Error == replica.None {
			m.done, m.offset = true, e.Resp.BaseOffset
			env.Record(event.Produce, 0, &e.TP, "%s marker of %s (coordinator epoch %d) at offset %d", p.txn.marker, p.cfg.Name, txnCoordinatorEpoch, m.offset)
		} else {
			m.retryAtMs = env.Now() + p.cfg.RetryBackoffMs
			env.Record(event.Produce, 0, &e.TP, "%s marker of %s got %s, written again", p.txn.marker, p.cfg.Name, e.Resp.Error)
		}
		p.tickTransaction(env)
		return true
	}
	return false
}

// ControlEntry reports whether e is the record of a control batch (a
// transaction marker), and its type. Only the first entry of a batch
// carries the batch's bytes, and a control batch holds one record.
func ControlEntry(e *replica.Entry) (kafkalog.ControlRecordType, bool) {
	const attributesAt = 21
	if len(e.Batch) < attributesAt+2 || !kafkalog.Attributes(binary.BigEndian.Uint16(e.Batch[attributesAt:])).IsControl() {
		return 0, false
	}
	k, err := kafkalog.ParseControlRecordKey(e.Key)
	if err != nil {
		return kafkalog.ControlUnknown, true
	}
	return k.Type, true
}
