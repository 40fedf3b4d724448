package client

import (
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/seq"
	"github.com/kafkalive/kafkalive/partitioner"
	"github.com/kafkalive/kafkalive/replica"
)

// Producer is a producer client in the world: it sends the records it is
// given ([Producer.Produce]) and those its rate makes ([Producer.Tick]),
// takes the leaders' answers ([Producer.Step]) and retries, times out and
// numbers its records as Kafka 3.7's producer does.
type Producer struct {
	cfg      ProducerConfig
	settings Settings
	// idemDefault: enable.idempotence was left to the default, so it
	// follows acks when [Producer.Set] changes them.
	idemDefault bool
	id          int32
	acks        int16
	// rng is the world's generator while a call runs (the partitioners
	// draw from it).
	rng     *worldRand
	sticky  *partitioner.Sticky
	uniform *partitioner.UniformSticky
	// results are its records' results, shared block by block with
	// its clones (a snapshot copies the few blocks that change).
	results seq.Vec[Result]
	corr    int64
	carry   int // rate accumulator, in thousandths of records × ms
	sent    int
	// open indexes the results not yet settled (and those settled since
	// the last walk of [Producer.Tick]), in produce order; openKept is
	// how many the last walk kept, wakeMs when the next walk is due (the
	// earliest request or delivery timeout among them).
	open     []int
	openKept int
	wakeMs   int64
	// queues are the partitions' deques: the results waiting to be sent,
	// in produce order ([Producer.drain]); an entry may have stopped
	// waiting (failed), and is dropped when it reaches the front.
	queues []*deque
	// inflight are the batches in flight, so that an answer finds its
	// records at once (a result still carries the request's correlation
	// id while it waits for that answer); those whose records all moved
	// on are forgotten at the next drain.
	inflight []sentBatch
	// conns are the brokers whose connection was refused, by id
	// ([Producer.connectionRefused]).
	conns map[int32]connState
	// nextSeq is, per partition, the producer epoch its records are
	// numbered in and the next sequence number (idempotence); epoch is the
	// producer's latest epoch. A partition moves to the latest epoch,
	// at sequence 0, when it triggered the bump or has no record of the
	// older epoch left unsettled ([Producer.nextSequence]).
	nextSeq map[int32]partSeq
	epoch   int16
	// lingering holds, per partition, the batch waiting for linger.ms
	// (LingerMs above 0).
	lingering map[int32]*lingerBatch
	// txn is the transaction of a producer with a transactional.id.
	txn *txnState
	// copy is the consumer of a consume-transform-produce loop (a
	// [CopySource]), nil for another producer.
	copy *copyState
	// dropped counts the results that fell off the front of results
	// ([Producer.Forget]), and droppedOutcomes how each ended; result
	// indexes count them.
	dropped         int
	droppedOutcomes OutcomeCounts
}

// NewProducer returns a producer of cfg (its defaults filled in from the
// settings' rules) whose network node is id. Its topic must exist.
func NewProducer(env Env, s Settings, cfg ProducerConfig, id int32) (*Producer, error) {
	explicit := cfg.EnableIdempotence
	cfg, err := cfg.withDefaults(s.Rules)
	if err != nil {
		return nil, err
	}
	acks, err := parseAcks(cfg.Acks)
	if err != nil {
		return nil, err
	}
	if _, ok := env.PartitionCount(cfg.Topic); !ok {
		return nil, fmt.Errorf("%w: producer %q: no topic %q", metadata.ErrInvalidConfig, cfg.Name, cfg.Topic)
	}
	p := &Producer{cfg: cfg, settings: s, idemDefault: explicit == nil, id: id, acks: acks, rng: &worldRand{}}
	if cfg.TransactionalID != "" {
		p.txn = newTxnState()
	}
	if cfg.Copy.Topic != "" {
		p.copy = newCopyState(env, s, cfg)
	}
	p.sticky = partitioner.NewSticky(p.rng.rand())
	if cfg.Partitioner == PartitionerUniformSticky {
		p.uniform = partitioner.NewUniformSticky(p.rng.rand(), cfg.BatchSize)
	}
	return p, nil
}

// lingerBatch is a batch of records for one partition waiting to be sent
// (RecordAccumulator's ProducerBatch): result indexes, when its first record
// came, and its size as the accumulator estimates it.
type lingerBatch struct {
	results   []int
	createdMs int64
	bytes     int
}

// result returns result i, counting those that fell off.
func (p *Producer) result(i int) *Result { return p.results.Mut(i - p.dropped) }

// Name returns the producer's name.
func (p *Producer) Name() string { return p.cfg.Name }

// Config returns the producer's configuration, with defaults filled in.
func (p *Producer) Config() ProducerConfig { return p.cfg }

// Results returns what the producer was told, one entry per record in
// send order (without those that fell off, [Producer.Forget]), in a new
// slice ([Producer.EachResult] reads them without copying).
func (p *Producer) Results() []Result { return p.results.Slice() }

// EachResult yields the producer's results in order, with their indexes
// (counting those that fell off), for reading only, without copying them.
func (p *Producer) EachResult() iter.Seq2[int, *Result] {
	return func(yield func(int, *Result) bool) {
		for i, r := range p.results.All() {
			if !yield(p.dropped+i, r) {
				return
			}
		}
	}
}

// ResultCount is the number of results kept (those that fell off not
// counted).
func (p *Producer) ResultCount() int { return p.results.Len() }

// Dropped returns how many results fell off the front of [Producer.Results]
// ([Producer.Forget]), and how they ended.
func (p *Producer) Dropped() (n int, outcomes OutcomeCounts) {
	return p.dropped, p.droppedOutcomes
}

// RatePerSec returns the producer's rate in records a second.
func (p *Producer) RatePerSec() float64 { return float64(p.cfg.milliRate()) / 1000 }

// idempotent reports whether p numbers its records.
func (p *Producer) idempotent() bool {
	return p.cfg.EnableIdempotence != nil && *p.cfg.EnableIdempotence
}

// Step handles a leader's answer: to every record of the batch it
// answers, or to a transaction marker.
func (p *Producer) Step(env Env, e *netsim.Envelope) {
	if p.offsetsAnswered(env, e) {
		return
	}
	if e.Kind == netsim.KindTxnResponse {
		p.txnAnswered(env, e)
		return
	}
	answered, places := p.answered(e.Resp.CorrelationID, e.TP.Partition)
	if len(answered) == 0 {
		return
	}
	p.connected(e.From)
	if e.Resp.Error == replica.None {
		p.acknowledged(env, e, answered, places)
	} else {
		p.refused(env, e, answered)
	}
	p.drain(env)           // an answer frees a place in flight
	p.tickTransaction(env) // an ending transaction's EndTxn waits for its records
}

// answered returns the results of partition waiting for the answer to
// request corr, in produce order, with their places in the batch sent,
// and forgets the batch: its answer settles each of them.
func (p *Producer) answered(corr int64, partition int32) (answered, places []int) {
	if corr == 0 {
		return nil, nil
	}
	k := slices.IndexFunc(p.inflight, func(b sentBatch) bool { return b.corr == corr && b.partition == partition })
	if k < 0 {
		return nil, nil
	}
	sent := p.inflight[k].results
	p.inflight = slices.Delete(p.inflight, k, k+1)
	for place, i := range sent {
		if i >= p.dropped && p.results.At(i-p.dropped).inflight == corr {
			answered = append(answered, i)
			places = append(places, place)
		}
	}
	return answered, places
}

// wakeAt makes the next walk of [Producer.Tick] due at ms at the latest.
func (p *Producer) wakeAt(ms int64) { p.wakeMs = min(p.wakeMs, ms) }

// Tick produces at the configured rate, sends what its deques let go,
// and times out requests without an answer and records past
// delivery.timeout.ms.
func (p *Producer) Tick(env Env) {
	if env.Now() >= p.wakeMs || len(p.open) > 2*p.openKept+64 {
		p.walk(env)
	}
	p.drain(env)
	p.sendDueBatches(env)
	p.tickTransaction(env)
	p.tickCopy(env)
	rate := p.cfg.milliRate()
	if rate <= 0 {
		return
	}
	p.carry += rate * int(p.settings.TickMs)
	for p.carry >= 1000*1000 {
		p.carry -= 1000 * 1000
		_ = p.Produce(env, "", fmt.Sprintf("%s-%d", p.cfg.Name, p.sent), false, -1, nil)
	}
}

// walk goes through the open results: a record past delivery.timeout.ms
// fails, a request unanswered after request.timeout.ms is given up (its
// records go back to their deque), and the settled ones leave. It is due
// when the earliest of those deadlines comes, or when the settled results
// make up half of the open ones, so that its cost follows what happens,
// not how many records wait.
func (p *Producer) walk(env Env) {
	now := env.Now()
	wake := int64(math.MaxInt64)
	open := p.open[:0]
	for _, i := range p.open {
		r := p.result(i)
		switch {
		case r.Acked || r.Failed:
		case now-r.firstSentMs >= p.cfg.DeliveryTimeoutMs:
			p.expire(env, i)
		case r.inflight != 0 && now-r.sentMs >= p.cfg.RequestTimeoutMs:
			env.Record(event.Produce, 0, p.tp(r.Partition), "%s: %s got no answer within request.timeout.ms: REQUEST_TIMED_OUT", p.cfg.Name, Label{r.Key, r.Value})
			p.retryOrFail(env, i, "REQUEST_TIMED_OUT", true)
		}
		if r.Acked || r.Failed {
			continue
		}
		open = append(open, i)
		wake = min(wake, r.firstSentMs+p.cfg.DeliveryTimeoutMs)
		if r.inflight != 0 {
			wake = min(wake, r.sentMs+p.cfg.RequestTimeoutMs)
		}
	}
	p.open, p.openKept, p.wakeMs = open, len(open), wake
}

// Forget drops the results first sent before ms, up to the oldest still
// open (a bounded timeline forgets what is older than it keeps).
func (p *Producer) Forget(ms int64) {
	n := 0
	for n < p.results.Len() && p.results.At(n).firstSentMs < ms && (len(p.open) == 0 || p.dropped+n < p.open[0]) {
		p.droppedOutcomes.Add(p.results.At(n))
		n++
	}
	if n == 0 {
		return
	}
	p.results.DropFront(n)
	p.dropped += n
}

// SetChange is what set-producer changes: rate, acks and keys.
type SetChange struct {
	// Rate and RecordsPerSec are the new rate ([ProducerConfig.Rate]).
	Rate          float64
	RecordsPerSec int
	// Acks is the new acks ("" is the rule set's default).
	Acks string
	// Keys are the new keys (none: the keyless partitioner).
	Keys []string
}

// CheckSet checks a set-producer change.
func (p *Producer) CheckSet(c SetChange) error {
	if p.copy != nil {
		return fmt.Errorf("%w: set-producer %s: a copier writes what it copies, at the pace it reads it: no rate, acks or keys to set", metadata.ErrInvalidConfig, p.cfg.Name)
	}
	if _, err := p.setConfig(c).withDefaults(p.settings.Rules); err != nil {
		return err
	}
	r := c.Rate
	if math.IsNaN(r) || r < 0 || r > 1000 || c.RecordsPerSec < 0 || c.RecordsPerSec > 1000 {
		return fmt.Errorf("%w: set-producer %s: rate %g not in [0, 1000]", metadata.ErrInvalidConfig, p.cfg.Name, r)
	}
	for _, k := range c.Keys {
		if k == "" {
			return fmt.Errorf("%w: set-producer %s: an empty key", metadata.ErrInvalidConfig, p.cfg.Name)
		}
	}
	return nil
}

// setConfig is the producer's configuration as change c leaves it, before
// defaults: an enable.idempotence left to its default cleared again.
func (p *Producer) setConfig(c SetChange) ProducerConfig {
	cfg := p.cfg
	cfg.Rate, cfg.RecordsPerSec = c.Rate, c.RecordsPerSec
	cfg.Acks = c.Acks
	cfg.Keys = append([]string(nil), c.Keys...)
	if p.idemDefault {
		cfg.EnableIdempotence = nil
	}
	return cfg
}

// Set changes the producer's rate, acks and keys. Records already sent
// keep the acks they were sent with, retries included; a change of acks
// first sends the records still lingering. An enable.idempotence left to
// its default follows the acks (on with acks=all under [replica.V3_7] and later,
// as a client configured anew would be); one set to true refuses acks
// other than all.
func (p *Producer) Set(env Env, c SetChange) error {
	cfg, err := p.setConfig(c).withDefaults(p.settings.Rules)
	if err != nil {
		return err
	}
	acks, err := parseAcks(cfg.Acks)
	if err != nil {
		return err
	}
	if acks != p.acks {
		// The records still lingering go now, with the acks they were
		// produced with, as a producer being replaced flushes its
		// accumulator (KafkaProducer.close): no batch mixes two acks.
		for _, partition := range slices.Sorted(maps.Keys(p.lingering)) {
			p.sendLingering(env, partition)
		}
	}
	p.cfg, p.acks = cfg, acks
	return nil
}
