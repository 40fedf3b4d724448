package txn

import (
	"fmt"
	"maps"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// The error codes the coordinator answers with.
const (
	producerFenced           = kafkaerr.ProducerFenced
	concurrentTransactions   = kafkaerr.ConcurrentTransactions
	invalidProducerIDMapping = kafkaerr.InvalidProducerIDMapping
	invalidTxnState          = kafkaerr.InvalidTxnState
	notCoordinator           = kafkaerr.NotCoordinator
)

// Coordinator is one broker process's transaction coordinator.
type Coordinator struct {
	cfg Config
	// inc is its broker's incarnation, in the high bits of every
	// correlation id, so that an answer meant for an earlier process is
	// never taken for one of this one's.
	inc  int
	corr int64
	// epochs are the partitions of __transaction_state it coordinates,
	// with their coordinator epoch (the partition's leader epoch).
	epochs map[int32]int32
	// txns are the transactional ids of those partitions.
	txns map[string]*Metadata
	// appends are its log writes in flight, by correlation id.
	appends map[int64]*pendingAppend
	// jobs are the transactions whose markers it is writing, by
	// transactional id.
	jobs map[string]*markerJob
	// nextAbortCheckMs is when it next looks for timed out transactions.
	nextAbortCheckMs int64
}

// New returns the coordinator of a broker process at incarnation inc,
// coordinating nothing yet.
func New(cfg Config, inc int, nowMs int64) *Coordinator {
	cfg = cfg.withDefaults()
	return &Coordinator{cfg: cfg, inc: inc, epochs: map[int32]int32{}, txns: map[string]*Metadata{}, appends: map[int64]*pendingAppend{},
		jobs: map[string]*markerJob{}, nextAbortCheckMs: nowMs + cfg.AbortTimedOutIntervalMs}
}

// Config returns the coordinator's settings.
func (c *Coordinator) Config() Config { return c.cfg }

// nextCorr returns a new correlation id.
func (c *Coordinator) nextCorr() int64 {
	c.corr++
	return int64(c.inc)<<40 | c.corr
}

// partitionOf is the __transaction_state partition of a transactional id.
func (c *Coordinator) partitionOf(id string) int32 {
	return metadata.TxnStatePartition(id, c.cfg.NumPartitions).Partition
}

// Coordinates reports whether the coordinator coordinates transactional id
// id (its broker leads the id's partition, loaded), and the coordinator
// epoch.
func (c *Coordinator) Coordinates(id string) (int32, bool) {
	e, ok := c.epochs[c.partitionOf(id)]
	return e, ok
}

// reply is where an answer goes: a client's node (a producer, an external
// client, a leader broker verifying a batch), or nowhere (the coordinator's
// own aborts).
type reply struct {
	to   int32
	corr int64
	none bool
}

func replyTo(e *netsim.Envelope, corr int64) reply { return reply{to: e.From, corr: corr} }

// send answers r with msg.
func (c *Coordinator) send(env Env, r reply, msg netsim.TxnMessage) {
	if r.none {
		return
	}
	env.Send(netsim.Envelope{From: c.cfg.BrokerID, To: r.to, Kind: netsim.KindTxnResponse, Txn: msg})
}

// Step handles a message for the coordinator: a client's request, the
// answer to one of its log appends, a leader's answer to its markers.
func (c *Coordinator) Step(env Env, e *netsim.Envelope) error {
	switch e.Kind {
	case netsim.KindTxnRequest:
		return c.stepRequest(env, e)
	case netsim.KindProduceResp:
		return c.appended(env, e.Resp.CorrelationID, int16(e.Resp.Error))
	case netsim.KindTxnMarkersResponse:
		r, ok := e.Txn.(WriteMarkersResponse)
		if !ok {
			return fmt.Errorf("txn: a markers answer carrying %T", e.Txn)
		}
		return c.markersAnswered(env, e.From, r)
	}
	return nil
}

func (c *Coordinator) stepRequest(env Env, e *netsim.Envelope) error {
	switch r := e.Txn.(type) {
	case InitProducerID:
		return c.initProducerID(env, replyTo(e, r.Corr), r)
	case AddPartitions:
		if r.VerifyOnly {
			c.verify(env, replyTo(e, r.Corr), r)
			return nil
		}
		return c.addPartitions(env, replyTo(e, r.Corr), r)
	case AddOffsets:
		return c.addOffsets(env, replyTo(e, r.Corr), r)
	case EndTxn:
		return c.endTxn(env, replyTo(e, r.Corr), r.TransactionalID, r.ProducerID, r.Epoch, r.Commit, true, tvOf(r.TV2))
	}
	return fmt.Errorf("txn: a request carrying %T", e.Txn)
}

func tvOf(tv2 bool) int16 {
	if tv2 {
		return 2
	}
	return 0
}

// metadataOf returns the state of a transactional id it coordinates, nil if
// it has none, or NOT_COORDINATOR.
func (c *Coordinator) metadataOf(id string) (*Metadata, int16) {
	if _, ok := c.Coordinates(id); !ok {
		return nil, notCoordinator
	}
	return c.txns[id], 0
}

// Tick moves the coordinator's clock: it aborts the transactions that timed
// out and sends (again) the markers due.
func (c *Coordinator) Tick(env Env) error {
	if env.Now() >= c.nextAbortCheckMs {
		c.nextAbortCheckMs = env.Now() + c.cfg.AbortTimedOutIntervalMs
		if err := c.abortTimedOut(env); err != nil {
			return err
		}
	}
	return c.sendMarkers(env)
}

// Transactions returns the states of the transactional ids it coordinates,
// by id. The caller must not modify them.
func (c *Coordinator) Transactions() []*Metadata {
	out := make([]*Metadata, 0, len(c.txns))
	for _, id := range slices.Sorted(maps.Keys(c.txns)) {
		out = append(out, c.txns[id])
	}
	return out
}

// Transaction returns the state of transactional id id, and false if it
// coordinates none.
func (c *Coordinator) Transaction(id string) (*Metadata, bool) {
	m, ok := c.txns[id]
	return m, ok
}

// record notes what happened to a transactional id.
func record(env Env, broker int32, format string, args ...any) {
	env.Record(event.Transaction, broker, nil, format, args...)
}

// appendError maps the error of an append to __transaction_state to the
// client's (TransactionStateManager.appendTransactionToLog).
func appendError(code int16) int16 {
	switch replica.ErrorCode(code) {
	case replica.None:
		return 0
	case replica.NotEnoughReplicas, replica.NotEnoughReplicasAfterAppend, replica.RequestTimedOut:
		return kafkaerr.CoordinatorNotAvailable
	case replica.NotLeaderOrFollower:
		return notCoordinator
	case replica.MessageTooLarge, replica.RecordListTooLarge:
		return kafkaerr.UnknownServerError
	}
	if code == kafkaerr.UnknownTopicOrPartition {
		return kafkaerr.CoordinatorNotAvailable
	}
	return code
}

// allPartitions answers every partition of ps with code.
func allPartitions(ps []kafkalog.TopicPartition, code int16) []PartitionError {
	out := make([]PartitionError, len(ps))
	for i, tp := range ps {
		out[i] = PartitionError{TP: tp, Error: code}
	}
	return out
}
