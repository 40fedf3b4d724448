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
	// open indexes the results still in flight or waiting to retry.
	open []int
	// requests are the results each request in flight carried, by
	// correlation id, so that an answer finds its records at once (a
	// result still carries that id while it waits for that answer).
	// Entries whose records all moved on are swept now and then
	// ([Producer.sweepRequests]).
	requests map[int64][]int
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
	if e.Kind == netsim.KindTxnResponse {
		p.txnAnswered(env, e)
		return
	}
	answered := p.answered(e.Resp.CorrelationID)
	if len(answered) == 0 {
		return
	}
	if e.Resp.Error == replica.None {
		p.acknowledged(env, e, answered)
	} else {
		p.refused(env, e, answered)
	}
	if p.result(answered[0]).Sequence >= 0 {
		p.sendQueued(env, e.TP.Partition)
	}
	p.tickTransaction(env) // an ending transaction's EndTxn waits for its records
}

// answered returns the results waiting for the answer to request corr, in
// send order (the order of [Producer.open]), and forgets the request: its
// answer settles each of them.
func (p *Producer) answered(corr int64) []int {
	sent, ok := p.requests[corr]
	if !ok || corr == 0 {
		return nil
	}
	delete(p.requests, corr)
	var out []int
	for _, i := range sent {
		if i >= p.dropped && p.results.At(i-p.dropped).inflight == corr {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return out
}

// sentRequest notes that request corr carries results sent.
func (p *Producer) sentRequest(corr int64, sent []int) {
	if p.requests == nil {
		p.requests = map[int64][]int{}
	}
	p.requests[corr] = sent
	if len(p.requests) > 2*len(p.open)+16 {
		p.sweepRequests()
	}
}

// sweepRequests forgets the requests none of whose results waits for the
// answer any more (they timed out, expired or were sent again): answers
// that come for them find nothing, as they would have.
func (p *Producer) sweepRequests() {
	for corr, sent := range p.requests {
		if !slices.ContainsFunc(sent, func(i int) bool {
			return i >= p.dropped && p.results.At(i-p.dropped).inflight == corr
		}) {
			delete(p.requests, corr)
		}
	}
}

// Tick produces at the configured rate, retries, and times out requests
// without an answer.
func (p *Producer) Tick(env Env) {
	now := env.Now()
	open := p.open[:0]
	// the partitions whose first record waiting to be sent was seen: an
	// idempotent producer sends its partitions' records in order
	var headSeen map[int32]bool
	for _, i := range p.open {
		r := p.result(i)
		switch {
		case now-r.firstSentMs >= p.cfg.DeliveryTimeoutMs:
			p.expire(env, i)
		case r.inflight != 0 && now-r.sentMs >= p.cfg.RequestTimeoutMs:
			env.Record(event.Produce, 0, p.tp(r.Partition), "%s: %s got no answer within request.timeout.ms: REQUEST_TIMED_OUT", p.cfg.Name, Label{r.Key, r.Value})
			p.retryOrFail(env, i, "REQUEST_TIMED_OUT", true)
		case r.inflight == 0 && (r.retryAtMs != 0 || r.queued) && r.Sequence >= 0:
			if headSeen[r.Partition] {
				break // behind the partition's first waiting record
			}
			if headSeen == nil {
				headSeen = map[int32]bool{}
			}
			headSeen[r.Partition] = true
			if r.queued && r.Attempts == 0 && r.batch == nil {
				p.mergeQueued(i)
			}
			if r.queued || now >= r.retryAtMs {
				p.sendRecord(env, i)
			}
		case r.retryAtMs != 0 && now >= r.retryAtMs:
			p.sendRecord(env, i)
		}
		if r.inflight != 0 || r.retryAtMs != 0 || r.queued || (r.lingering || r.held) && !r.Failed {
			open = append(open, i)
		}
	}
	p.open = open
	p.sendDueBatches(env)
	p.tickTransaction(env)
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
