package client

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// Transactions (KIP-98) as Kafka 3.7's producer runs them
// (TransactionManager at tag 3.7.0), through the cluster's transaction
// coordinator:
//
//   - A producer with a transactional.id ([ProducerConfig.TransactionalID])
//     calls initTransactions when it is added: it finds the coordinator of
//     its id (FindCoordinator key type 1, which creates
//     __transaction_state) and sends InitProducerId, which gives it its
//     producer id and epoch, bumping the epoch of a previous producer with
//     the same id (that one is fenced, its open transaction aborted). The
//     records produced meanwhile wait for it.
//   - A transaction begins with the first record after the previous one
//     ended. A record for a partition not yet in the transaction waits in
//     the accumulator until the coordinator answered AddPartitionsToTxn for
//     it (Sender.maybeSendAndPollTransactionalRequest sends it before any
//     batch of the partition is drained); its batches carry the
//     transactional attribute with the producer id, epoch and sequences.
//   - commitTransaction ([Producer.EndTransaction] with commit) sends the
//     batches still lingering, waits for every record of the transaction
//     to be answered, then sends EndTxn; the coordinator answers once
//     PrepareCommit is in its log, and has each partition's leader append
//     the COMMIT marker (WriteTxnMarkers): the producer writes no marker.
//     abortTransaction fails the batches not sent yet with
//     TransactionAbortedException (RecordAccumulator.abortUndrainedBatches),
//     waits for those in flight, and sends EndTxn(abort).
//   - A record that fails puts the transaction in an abortable error
//     (maybeTransitionToErrorState): a commit then ends as an abort (the
//     Java client's commitTransaction throws and the application aborts),
//     and the producer's epoch is not bumped at once, as an idempotent
//     producer's is: after the abort, InitProducerId with the current
//     producer id and epoch (KIP-360) has the coordinator bump it, and the
//     sequences start again at 0 (beginCompletingTransaction,
//     completeTransaction).
//   - COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS
//     and CONCURRENT_TRANSACTIONS are retried after retry.backoff.ms, the
//     coordinator looked up again; a request unanswered after
//     request.timeout.ms, or whose broker went away, is sent again.
//     PRODUCER_FENCED or INVALID_PRODUCER_EPOCH from the coordinator is
//     fatal (ProducerFencedException): every record not yet answered
//     fails, and the producer refuses to send or end a transaction again.
//     A leader's INVALID_PRODUCER_EPOCH on a batch (a zombie's, whose epoch
//     a newer producer bumped) is an abortable error of the transaction.
//
// Under transaction.version 2 (KIP-890 part 2: a cluster of Kafka 4's
// rules finalizes it, and the producer reads it at initTransactions, as
// Kafka 4.0's TransactionManager.isTransactionV2Enabled does) the producer
// sends no AddPartitionsToTxn: a partition joins the transaction with its
// first record, and its batches (Produce v12) have the leader add it. Its
// EndTxn (v5) has the coordinator bump the epoch and answers with the
// producer id and epoch of the next transaction (a new producer id once
// the epochs ran out), whose records start again at sequence 0; an abort
// after a failed record needs no InitProducerId, the EndTxn bumps.
//
// A copier's transactions carry its consumer's offsets too
// (sendOffsetsToTransaction: AddOffsetsToTxn, then TxnOffsetCommit to the
// group's coordinator; txnoffsets.go, copier.go).
//
// Not modelled: the sequences of in-flight batches adjusted after a failed batch
// (TxnPartitionMap.adjustSequencesDueToFailedBatch: the transaction aborts
// anyway).

// txnState is a transactional producer's TransactionManager.
type txnState struct {
	// pid is the producer id InitProducerId gave (-1 before); the epoch
	// is the producer's. initNeeded: InitProducerId is to be sent (first,
	// or after an abort that needs an epoch bump).
	pid        int64
	initNeeded bool
	// fatal is the fatal error's name once the producer was fenced.
	fatal string
	// tv2: the producer uses transaction.version 2 (KIP-890 part 2).
	tv2 bool
	// req is the transactional request in flight (one at a time), nil if
	// none; retryAtMs when the next may go.
	req       *txnRequest
	retryAtMs int64
	// partitions are those in the open transaction (AddPartitionsToTxn
	// answered), in the order they joined; pending those still to add,
	// adding those in the AddPartitionsToTxn in flight.
	partitions, pending, adding []int32
	// held are the results waiting for the producer id or for their
	// partition to join the transaction.
	held []int
	// ending is set by commitTransaction or abortTransaction; marker is
	// the result asked (COMMIT, ABORT), failed counts the transaction's
	// records that failed; bumpRequired: a record failed, the epoch is
	// bumped after the abort.
	ending       bool
	marker       kafkalog.ControlRecordType
	failed       int
	bumpRequired bool
	// committed and aborted count the transactions ended.
	committed, aborted int
	// offsets are the consumer offsets the transaction is to commit
	// (sendOffsetsToTransaction), nil if none or once they were appended;
	// offsetsFailed: they were refused, the transaction can only abort.
	offsets       *txnOffsets
	offsetsFailed bool
}

// txnRequest is a request to the transaction coordinator in flight.
type txnRequest struct {
	corr   int64
	broker int32
	sentMs int64
	name   string
}

// newTxnState is the TransactionManager of a producer about to call
// initTransactions.
func newTxnState() *txnState { return &txnState{pid: -1, initNeeded: true} }

// transactional reports whether p has a transactional.id.
func (p *Producer) transactional() bool { return p.cfg.TransactionalID != "" }

// producerID is the producer id p's batches carry: the coordinator's for
// a transactional producer, else the producer's node (an idempotent
// producer's InitProducerId is answered at once here).
func (p *Producer) producerID() int64 {
	if p.txn != nil {
		return p.txn.pid
	}
	return int64(p.id)
}

// TxnProducerID returns a transactional producer's producer id (-1 before
// InitProducerId was answered, or without a transactional.id), its epoch,
// and its fatal error ("" if none).
func (p *Producer) TxnProducerID() (id int64, epoch int16, fatal string) {
	if p.txn == nil {
		return -1, -1, ""
	}
	return p.txn.pid, p.epoch, p.txn.fatal
}

// TxnCounts returns how many transactions the producer committed and
// aborted.
func (p *Producer) TxnCounts() (committed, aborted int) {
	if p.txn == nil {
		return 0, 0
	}
	return p.txn.committed, p.txn.aborted
}

// txnHold keeps result i for partition waiting when the producer has no
// producer id yet or the partition has not joined the transaction
// (AddPartitionsToTxn), reporting whether it did.
func (p *Producer) txnHold(env Env, i int, partition int32) bool {
	t := p.txn
	if t.pid >= 0 && !t.initNeeded && t.tv2 && !slices.Contains(t.partitions, partition) {
		t.partitions = append(t.partitions, partition) // its batch adds it
	}
	if t.pid >= 0 && !t.initNeeded && slices.Contains(t.partitions, partition) {
		return false
	}
	if !slices.Contains(t.partitions, partition) && !slices.Contains(t.pending, partition) && !slices.Contains(t.adding, partition) {
		t.pending = append(t.pending, partition)
	}
	r := p.result(i)
	r.held = true
	t.held = append(t.held, i)
	p.open = append(p.open, i)
	tp := p.tp(partition)
	env.Record(event.Produce, 0, tp, "%s: %s waits in the accumulator for %s", p.cfg.Name, RecordLabel(r.Key, r.Value), p.txnWaitReason(partition))
	p.tickTransaction(env)
	return true
}

func (p *Producer) txnWaitReason(partition int32) string {
	if p.txn.pid < 0 || p.txn.initNeeded {
		return "InitProducerId"
	}
	return fmt.Sprintf("AddPartitionsToTxn %s-%d", p.cfg.Topic, partition)
}

// txnRelease sends the held records the transaction now allows, partition
// by partition, in the order they were produced.
func (p *Producer) txnRelease(env Env) {
	t := p.txn
	if t.pid < 0 || t.initNeeded {
		return
	}
	if t.tv2 {
		t.partitions, t.pending = append(t.partitions, t.pending...), nil
	}
	var kept []int
	released := map[int32]bool{}
	for _, i := range t.held {
		if i < p.dropped {
			continue // failed, and forgotten since (Forget keeps only open results)
		}
		r := p.result(i)
		if r.Failed || r.Acked {
			continue
		}
		if !slices.Contains(t.partitions, r.Partition) {
			kept = append(kept, i)
			continue
		}
		r.held = false
		r.ProducerEpoch, r.Sequence = p.nextSequence(r.Partition)
		p.linger(env, i, batchSize(r.Key, r.Value, r.Null))
		released[r.Partition] = true
	}
	t.held = kept
	if p.cfg.LingerMs > 0 {
		return
	}
	for _, partition := range slices.Sorted(maps.Keys(released)) {
		p.sendLingering(env, partition)
	}
}

// txnFailed notes a record of p's transaction that failed: the
// transaction is in an abortable error, and (KIP-360) the epoch is to be
// bumped after the abort unless the transaction is already ending
// (maybeTransitionToErrorState).
func (p *Producer) txnFailed() {
	t := p.txn
	if t == nil {
		return
	}
	t.failed++
	if !t.ending {
		t.bumpRequired = true
	}
}

// CheckEndTransaction checks a commit or abort of the producer's
// transaction; kind names the action in the error.
func (p *Producer) CheckEndTransaction(kind string) error {
	switch {
	case !p.transactional():
		return fmt.Errorf("%w: %s: producer %s has no transactional.id: transactions need one (KafkaProducer.initTransactions)", metadata.ErrInvalidConfig, kind, p.cfg.Name)
	case p.txn.fatal != "":
		return p.fatalError(kind)
	case p.txn.ending:
		return fmt.Errorf("%w: %s: producer %s is already ending its transaction (%s)", metadata.ErrInvalidConfig, kind, p.cfg.Name, markerVerb(p.txn.marker))
	}
	return nil
}

// fatalError is the refusal of a fenced producer's call named kind.
func (p *Producer) fatalError(kind string) error {
	return fmt.Errorf("%w: %s: producer %s: Cannot execute transactional method because we are in an error state (%s): the producer must be closed", metadata.ErrInvalidConfig, kind, p.cfg.Name, p.txn.fatal)
}

// checkTransactionalSend refuses a record of a producer whose transaction
// is ending (KafkaProducer.send fails in state COMMITTING_TRANSACTION or
// ABORTING_TRANSACTION) or that was fenced.
func (p *Producer) checkTransactionalSend() error {
	switch {
	case p.txn == nil:
		return nil
	case p.txn.fatal != "":
		return p.fatalError("produce")
	case p.txn.ending:
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
	t := p.txn
	t.marker = kafkalog.ControlAbort
	if commit {
		t.marker = kafkalog.ControlCommit
		p.commitCopy(env)
	}
	if len(t.partitions) == 0 && len(t.pending) == 0 && len(t.adding) == 0 && len(t.held) == 0 && t.offsets == nil {
		// No partition joined: the client sends no EndTxn.
		if commit && t.failed > 0 {
			env.Record(event.Produce, 0, nil, "%s: commitTransaction failed: %d record(s) of the transaction failed; the application aborts it", p.cfg.Name, t.failed)
		}
		env.Record(event.Produce, 0, nil, "%s: %s: the transaction wrote nothing, no EndTxn to send", p.cfg.Name, markerVerb(t.marker))
		t.failed, t.offsetsFailed = 0, false
		t.initNeeded = t.initNeeded || t.bumpRequired
		t.bumpRequired = false
		p.copyEnded(false, env.Now())
		return
	}
	t.ending = true
	env.Record(event.Transaction, 0, nil, "%s: %s (transactional.id %s, producer id %d, epoch %d) on %s", p.cfg.Name, markerVerb(t.marker),
		p.cfg.TransactionalID, t.pid, p.epoch, p.txnPartitionsText())
	if commit {
		for _, partition := range p.sortedLingering() {
			p.sendLingering(env, partition) // flush
		}
	} else {
		for _, partition := range p.sortedLingering() {
			b := p.lingering[partition]
			delete(p.lingering, partition)
			for _, i := range b.results {
				p.result(i).lingering = false
				p.failRecord(env, i, "TransactionAbortedException")
			}
		}
		for _, i := range t.held {
			if i < p.dropped {
				continue
			}
			if r := p.result(i); !r.Failed {
				r.held = false
				p.failRecord(env, i, "TransactionAbortedException")
			}
		}
		t.held = nil
	}
	p.tickTransaction(env)
}

func (p *Producer) sortedLingering() []int32 {
	return slices.Sorted(maps.Keys(p.lingering))
}

func (p *Producer) txnPartitionsText() string {
	ps := slices.Concat(p.txn.partitions, p.txn.adding, p.txn.pending)
	parts := make([]string, len(ps))
	for i, q := range ps {
		parts[i] = fmt.Sprintf("%s-%d", p.cfg.Topic, q)
	}
	return strings.Join(parts, ", ")
}

// tickTransaction sends the transactional request due, if any:
// InitProducerId, AddPartitionsToTxn, or EndTxn once every record of an
// ending transaction was answered; a request unanswered after
// request.timeout.ms is given up and sent again.
func (p *Producer) tickTransaction(env Env) {
	t := p.txn
	if t == nil || t.fatal != "" {
		return
	}
	now := env.Now()
	if t.req != nil {
		if now-t.req.sentMs < p.cfg.RequestTimeoutMs {
			return
		}
		env.Record(event.Transaction, 0, nil, "%s: %s to b%d got no answer within request.timeout.ms: sent again", p.cfg.Name, t.req.name, t.req.broker)
		p.txnRequestLost()
	}
	if now < t.retryAtMs {
		return
	}
	switch {
	case t.initNeeded:
		id, epoch := int64(-1), int16(-1)
		if t.pid >= 0 {
			id, epoch = t.pid, p.epoch // KIP-360: bump my epoch
		}
		p.sendTxn(env, "InitProducerId", func(corr int64) netsim.TxnMessage {
			return txn.InitProducerID{Corr: corr, TransactionalID: p.cfg.TransactionalID, TimeoutMs: txn.DefaultTimeoutMs, ProducerID: id, Epoch: epoch}
		})
	case len(t.pending) > 0:
		t.adding, t.pending = t.pending, nil
		tps := make([]kafkalog.TopicPartition, len(t.adding))
		for i, q := range t.adding {
			tps[i] = *p.tp(q)
		}
		p.sendTxn(env, "AddPartitionsToTxn", func(corr int64) netsim.TxnMessage {
			return txn.AddPartitions{Corr: corr, TransactionalID: p.cfg.TransactionalID, ProducerID: t.pid, Epoch: p.epoch, Partitions: tps}
		})
	case t.offsets != nil && t.ending && t.marker == kafkalog.ControlAbort:
		t.offsets = nil // an abort commits no offsets
		p.tickTransaction(env)
	case t.offsets != nil:
		p.sendOffsets(env)
	case t.ending && len(t.adding) == 0 && p.txnRecordsAnswered():
		if t.marker == kafkalog.ControlCommit && t.failed > 0 {
			env.Record(event.Transaction, 0, nil, "%s: commitTransaction failed: %s; the application aborts it", p.cfg.Name, t.failedText())
			t.marker = kafkalog.ControlAbort
		}
		p.sendTxn(env, "EndTxn", func(corr int64) netsim.TxnMessage {
			return txn.EndTxn{Corr: corr, TransactionalID: p.cfg.TransactionalID, ProducerID: t.pid, Epoch: p.epoch, Commit: t.marker == kafkalog.ControlCommit, TV2: t.tv2}
		})
	}
}

// failedText says what failed in the transaction: its records, or its
// offsets (a copier's).
func (t *txnState) failedText() string {
	if t.offsetsFailed {
		return "its offsets were refused"
	}
	return fmt.Sprintf("%d record(s) of the transaction failed", t.failed)
}

// txnRecordsAnswered reports whether every record of the transaction was
// answered (EndTxn waits for them).
func (p *Producer) txnRecordsAnswered() bool {
	for _, i := range p.open {
		if r := p.result(i); !r.Acked && !r.Failed {
			return false
		}
	}
	return true
}

// sendTxn sends the request msg makes to the coordinator of the
// producer's transactional.id, or, when none is known, has
// __transaction_state created and tries again after retry.backoff.ms.
func (p *Producer) sendTxn(env Env, name string, msg func(corr int64) netsim.TxnMessage) {
	t := p.txn
	broker, ok := env.TxnCoordinator(p.cfg.TransactionalID)
	if !ok {
		if err := env.EnsureTxnStateTopic(); err != nil {
			env.Record(event.Transaction, 0, nil, "%s: FindCoordinator (transaction) fails: %v", p.cfg.Name, err)
		}
		t.retryAtMs = env.Now() + p.cfg.RetryBackoffMs
		p.txnUnsend(name)
		return
	}
	p.corr++
	t.req = &txnRequest{corr: p.corr, broker: broker, sentMs: env.Now(), name: name}
	env.Send(netsim.Envelope{From: p.id, To: broker, Kind: netsim.KindTxnRequest, Txn: msg(p.corr)})
}

// txnUnsend puts back the partitions of an AddPartitionsToTxn that could
// not go.
func (p *Producer) txnUnsend(name string) {
	if t := p.txn; name == "AddPartitionsToTxn" {
		t.pending, t.adding = append(t.adding, t.pending...), nil
	}
}

// txnRequestLost forgets the request in flight: it is sent again.
func (p *Producer) txnRequestLost() {
	t := p.txn
	p.txnUnsend(t.req.name)
	t.req = nil
}

// TxnRequestDropped takes a transactional request of the producer that
// the network could not deliver (its broker does not run, or restarted):
// the connection is refused, and the request goes again after
// retry.backoff.ms to the coordinator found then.
func (p *Producer) TxnRequestDropped(env Env, e *netsim.Envelope, reason string) {
	t := p.txn
	if t == nil || t.req == nil || t.req.corr != txn.CorrOf(e.Txn) {
		return
	}
	env.Record(event.Transaction, 0, nil, "%s: %s to b%d fails (%s): looks the coordinator up again", p.cfg.Name, t.req.name, t.req.broker, reason)
	p.txnRequestLost()
	t.retryAtMs = env.Now() + p.cfg.RetryBackoffMs
}

// txnAnswered takes the coordinator's answer to the request in flight.
func (p *Producer) txnAnswered(env Env, e *netsim.Envelope) {
	t := p.txn
	if t == nil || t.req == nil || t.req.corr != txn.CorrOf(e.Txn) {
		return
	}
	t.req = nil
	switch m := e.Txn.(type) {
	case txn.InitProducerIDResponse:
		if m.Error != 0 {
			p.txnError(env, "InitProducerId", m.Error)
			break
		}
		t.pid, p.epoch, t.initNeeded, t.tv2 = m.ProducerID, m.Epoch, false, env.TransactionVersion() >= 2
		p.nextSeq = nil
		env.Record(event.Transaction, 0, nil, "%s: InitProducerId (transactional.id %s): producer id %d, epoch %d", p.cfg.Name, p.cfg.TransactionalID, t.pid, p.epoch)
	case txn.AddPartitionsResponse:
		p.partitionsAdded(env, m)
	case txn.AddOffsetsResponse:
		p.offsetsAdded(env, m.Error)
	case txn.EndTxnResponse:
		if m.Error != 0 {
			p.txnError(env, "EndTxn", m.Error)
			break
		}
		p.completeTransaction(env, m)
	}
	p.txnRelease(env)
	p.tickTransaction(env)
}

// partitionsAdded takes AddPartitionsToTxn's answer, partition by
// partition.
func (p *Producer) partitionsAdded(env Env, m txn.AddPartitionsResponse) {
	t := p.txn
	adding := t.adding
	t.adding = nil
	codes := map[int32]int16{}
	for _, pe := range m.Partitions {
		codes[pe.TP.Partition] = pe.Error
	}
	for _, q := range adding {
		code := codes[q]
		switch {
		case code == 0:
			t.partitions = append(t.partitions, q)
			env.Record(event.Transaction, 0, p.tp(q), "%s: AddPartitionsToTxn %s-%d (transactional.id %s): in the transaction", p.cfg.Name, p.cfg.Topic, q, p.cfg.TransactionalID)
		case retriableTxnError(code):
			t.pending = append(t.pending, q)
			t.retryAtMs = env.Now() + p.cfg.RetryBackoffMs
			env.Record(event.Transaction, 0, p.tp(q), "%s: AddPartitionsToTxn %s-%d got %s: retried", p.cfg.Name, p.cfg.Topic, q, kafkaerr.Name(code))
		case fencedTxnError(code):
			p.txnError(env, "AddPartitionsToTxn", code)
			return
		default:
			// An abortable error: the partition's records fail.
			env.Record(event.Transaction, 0, p.tp(q), "%s: AddPartitionsToTxn %s-%d got %s", p.cfg.Name, p.cfg.Topic, q, kafkaerr.Name(code))
			for _, i := range t.held {
				if i < p.dropped {
					continue
				}
				if r := p.result(i); r.Partition == q && !r.Failed {
					r.held = false
					p.failRecord(env, i, kafkaerr.Name(code))
				}
			}
		}
	}
}

// completeTransaction ends the transaction once EndTxn is answered: the
// coordinator has written PrepareCommit or PrepareAbort and writes the
// markers (completeTransaction); under transaction.version 2 the answer
// carries the producer id and epoch of the next transaction.
func (p *Producer) completeTransaction(env Env, m txn.EndTxnResponse) {
	t := p.txn
	verb := "aborted"
	if t.marker == kafkalog.ControlCommit {
		verb = "committed"
		t.committed++
	} else {
		t.aborted++
	}
	env.Record(event.Transaction, 0, nil, "%s: transaction %s (EndTxn answered; the coordinator has the leaders write the %s markers on %s)", p.cfg.Name, verb, t.marker, p.txnPartitionsText())
	t.partitions, t.ending, t.failed, t.offsetsFailed = nil, false, 0, false
	if t.tv2 {
		p.nextEpoch(env, m.ProducerID, m.Epoch)
		t.bumpRequired = false
	}
	p.copyEnded(t.marker == kafkalog.ControlCommit, env.Now())
	if t.bumpRequired {
		t.initNeeded, t.bumpRequired = true, false
	}
}

// nextEpoch takes the producer id and epoch a transaction.version 2 EndTxn
// answered with: the next transaction's records are numbered from 0 in
// them (a new producer id forgets every sequence).
func (p *Producer) nextEpoch(env Env, pid int64, epoch int16) {
	t := p.txn
	if pid != t.pid {
		env.Record(event.Transaction, 0, nil, "%s: the epochs of producer id %d ran out: the next transaction is producer id %d's, epoch %d", p.cfg.Name, t.pid, pid, epoch)
		p.nextSeq = nil
	} else {
		env.Record(event.Transaction, 0, nil, "%s: the next transaction is at epoch %d (EndTxn v5 bumped it: a late batch of epoch %d is fenced)", p.cfg.Name, epoch, p.epoch)
	}
	t.pid, p.epoch = pid, epoch
}

// txnError takes a coordinator's error answer to the request named name.
func (p *Producer) txnError(env Env, name string, code int16) {
	t := p.txn
	if retriableTxnError(code) {
		env.Record(event.Transaction, 0, nil, "%s: %s got %s: retried after retry.backoff.ms", p.cfg.Name, name, kafkaerr.Name(code))
		t.retryAtMs = env.Now() + p.cfg.RetryBackoffMs
		return
	}
	fatal := kafkaerr.Name(code)
	if fencedTxnError(code) {
		fatal = kafkaerr.Name(kafkaerr.ProducerFenced) // the client's ProducerFencedException
	}
	t.fatal = fatal
	env.Record(event.Transaction, 0, nil, "%s: %s got %s: fatal (the producer must be closed)", p.cfg.Name, name, kafkaerr.Name(code))
	for _, i := range slices.Clone(p.open) {
		if r := p.result(i); !r.Acked && !r.Failed {
			r.held, r.lingering = false, false
			p.failRecord(env, i, fatal)
		}
	}
	p.lingering, t.held = nil, nil
}

// retriableTxnError reports whether a coordinator's code is retried.
func retriableTxnError(code int16) bool {
	switch code {
	case kafkaerr.CoordinatorNotAvailable, kafkaerr.NotCoordinator, kafkaerr.CoordinatorLoadInProgress, kafkaerr.ConcurrentTransactions:
		return true
	}
	return false
}

// fencedTxnError reports whether a coordinator's code fences the producer.
func fencedTxnError(code int16) bool {
	return code == kafkaerr.ProducerFenced || code == kafkaerr.InvalidProducerEpoch
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
