package client

import (
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/replica"
)

// MaxInFlightRequestsPerConnection is max.in.flight.requests.per.connection's
// default, the most Kafka's idempotent producer allows (KafkaProducer's
// configureInflightRequests): a producer keeps at most five produce
// requests in flight to each broker (NetworkClient's
// InFlightRequests.canSendMore), each carrying at most one batch per
// partition that broker leads, so at most five batches per partition:
// the leader keeps a producer's last five batches to recognise their
// retries (replica.BatchesRetained). An idempotent producer also keeps
// each partition to five batches in flight when its leader moves and the
// old leader's requests are still unanswered.
const MaxInFlightRequestsPerConnection = 5

// The producer's accumulator and sender, as Kafka 3.7's RecordAccumulator
// and Sender.sendProducerData run them (unchanged in Kafka 4):
//
//   - Each partition has a deque of records waiting to be sent
//     ([Producer.queues]), in produce order: records that found the
//     partition busy (a batch before them waiting, its requests in flight)
//     and batches refused with a retriable error, which keep their records
//     (RecordAccumulator.reenqueue puts a batch back at the head of its
//     deque). Kafka appends a record to the deque's last batch while there
//     is room (batch.size): here the records never sent at the head of the
//     deque are packed into one batch up to batch.size when it goes
//     ([Producer.headBatch]), which gives the same batches.
//   - A drain ([Producer.drain]) offers each partition's first batch only:
//     a partition whose first batch backs off sends nothing, so the records
//     behind it wait and gather. The batches go to their leaders, one
//     request per broker carrying every partition's batch (drainBatchesForOneNode),
//     to a broker with fewer than [MaxInFlightRequestsPerConnection]
//     requests in flight. The simulation's network carries each partition's
//     batch of a request as an envelope of its own, all with the request's
//     correlation id, answered one by one (Kafka answers the request once
//     every partition is done).
//   - A refused batch backs off retry.backoff.ms before its next attempt,
//     doubled with each attempt up to retry.backoff.max.ms since Kafka 3.7
//     (KIP-580; Kafka's ±20% jitter is not modelled), and goes at once
//     when its partition's leader changed since its last attempt (KIP-951,
//     Kafka 3.7: ProducerBatch.hasLeaderChangedForTheOngoingRetry; Kafka
//     compares leader epochs, here the leader's id). The rule sets before
//     [replica.V3_7] back off a constant retry.backoff.ms.
//   - A partition without a leader keeps its records in the deque: they
//     are not sent, nor counted as attempts, and go as soon as a leader is
//     named (the simulation's metadata is instant).
//   - An idempotent producer sends a retried batch only when its
//     partition has no other batch in flight
//     (shouldStopDrainBatchesForPartition: a retry goes as the first
//     in-flight batch), which reduces the partition to one request in
//     flight until it is answered.
//
// Differences: Kafka re-enqueues a non-idempotent producer's retried batch
// at the deque's head (addFirst), so that with several in flight a later
// batch's retry may overtake an earlier one; here a deque is always in
// produce order (an idempotent producer's insertInSequenceOrder). Kafka's
// drain stops at a partition that shouldStopDrainBatchesForPartition holds
// back and takes the node's next partitions in the next drain; here they go
// in the same one.

// sentBatch is one partition's batch in a produce request in flight. Its
// results are never changed once sent (clones share them).
type sentBatch struct {
	corr      int64
	broker    int32
	partition int32
	results   []int
}

// waitsFor reports whether a result of batch b still waits for its answer.
func (p *Producer) waitsFor(b sentBatch) bool {
	return slices.ContainsFunc(b.results, func(i int) bool {
		return i >= p.dropped && p.results.At(i-p.dropped).inflight == b.corr
	})
}

// sweepInFlight forgets the batches none of whose results waits for an
// answer any more (they timed out, expired or failed): an answer that
// comes for them finds nothing.
func (p *Producer) sweepInFlight() {
	p.inflight = slices.DeleteFunc(p.inflight, func(b sentBatch) bool { return !p.waitsFor(b) })
}

// partitionInFlight counts partition's batches in flight.
func (p *Producer) partitionInFlight(partition int32) int {
	n := 0
	for _, b := range p.inflight {
		if b.partition == partition {
			n++
		}
	}
	return n
}

// brokerInFlight counts the requests in flight to broker: the distinct
// correlation ids of its batches.
func (p *Producer) brokerInFlight(broker int32) int {
	n := 0
	for k, b := range p.inflight {
		if b.broker == broker && !slices.ContainsFunc(p.inflight[:k], func(a sentBatch) bool { return a.corr == b.corr }) {
			n++
		}
	}
	return n
}

// deque is a partition's records waiting to be sent, in produce order
// once sorted: a record that comes back (a refused batch) is appended
// and the deque sorted when next read, so that a batch of many records
// goes back at the cost of one sort.
type deque struct {
	partition int32
	waiting   []int
	unsorted  bool
}

// dequeOf returns partition's deque, making it if create is set (nil
// otherwise when it has none). The deques are kept in partition order.
func (p *Producer) dequeOf(partition int32, create bool) *deque {
	k, found := slices.BinarySearchFunc(p.queues, partition, func(d *deque, q int32) int { return int(d.partition - q) })
	switch {
	case found:
		return p.queues[k]
	case !create:
		return nil
	}
	d := &deque{partition: partition}
	p.queues = slices.Insert(p.queues, k, d)
	return d
}

// enqueue puts result i in its partition's deque, due at r.retryAtMs (0:
// at once).
func (p *Producer) enqueue(i int) {
	r := p.result(i)
	r.queued = true
	d := p.dequeOf(r.Partition, true)
	if n := len(d.waiting); n > 0 && d.waiting[n-1] >= i {
		d.unsorted = true
	}
	d.waiting = append(d.waiting, i)
}

// waiting reports whether result i waits in its deque.
func (p *Producer) waiting(i int) bool {
	if i < p.dropped {
		return false
	}
	r := p.results.At(i - p.dropped)
	return r.queued && !r.Acked && !r.Failed && r.inflight == 0
}

// head returns the first record waiting in deque d, -1 if none, dropping
// from its front those that no longer wait (failed, expired).
func (p *Producer) head(d *deque) int {
	if d.unsorted {
		slices.Sort(d.waiting)
		d.waiting = slices.Compact(d.waiting)
		d.unsorted = false
	}
	q := d.waiting
	for len(q) > 0 && !p.waiting(q[0]) {
		q = q[1:]
	}
	d.waiting = q
	if len(q) == 0 {
		return -1
	}
	return q[0]
}

// headBatch returns the batch at the head of partition's deque, whose
// first record is head: a batch sent before goes again as it was (its
// records still unsettled); records never sent go together, as many as
// follow in the deque up to batch.size, consecutive in sequence, epoch
// and acks, as Kafka's accumulator fills the deque's last batch while the
// partition cannot send.
func (p *Producer) headBatch(env Env, d *deque, head int) []int {
	r := p.result(head)
	if r.Attempts > 0 {
		if r.batch == nil {
			return []int{head}
		}
		var live []int
		for _, j := range r.batch {
			if m := p.result(j); !m.Acked && !m.Failed {
				live = append(live, j)
			}
		}
		return live
	}
	members := []int{head}
	size := batchSize(r.Key, r.Value, r.Null)
	next := r.Sequence + 1
	for _, j := range d.waiting[1:] {
		m := p.result(j)
		if m.Acked || m.Failed {
			continue
		}
		if !p.waiting(j) || m.Attempts > 0 || env.Now() < m.retryAtMs || m.Acks != r.Acks || (m.Sequence < 0) != (r.Sequence < 0) ||
			r.Sequence >= 0 && (m.Sequence != next || m.ProducerEpoch != r.ProducerEpoch) {
			break
		}
		add := batchSize(m.Key, m.Value, m.Null) - recordBatchOverhead + varintSize(int(m.timestampMs-r.timestampMs)) - varintSize(0)
		if size+add > p.cfg.BatchSize {
			break
		}
		size += add
		members = append(members, j)
		next++
	}
	if len(members) > 1 || r.batch != nil {
		for _, j := range members {
			p.result(j).batch = members
		}
	}
	return members
}

// pop takes the batch members (the head of deque d, in order) out of
// it, with the records before their last that no longer wait: the
// members are consecutive among those that do.
func pop(d *deque, members []int) {
	last := members[len(members)-1]
	k := 0
	for k < len(d.waiting) && d.waiting[k] <= last {
		k++
	}
	d.waiting = d.waiting[k:]
}

// backingOff reports whether partition's first batch, whose first record
// is r, waits out its retry backoff: Kafka 3.7's
// RecordAccumulator.shouldBackoff, which lets a retry go at once to a new
// leader (KIP-951).
func (p *Producer) backingOff(env Env, r *Result, leader int32) bool {
	if env.Now() >= r.retryAtMs {
		return false
	}
	return r.Attempts == 0 || r.sentTo == leader || p.settings.Rules < replica.V3_7
}

// laneOpen applies an idempotent producer's own limits to partition's
// first batch, whose first record is r: a retry goes only when no other
// batch of the partition is in flight, and at most
// [MaxInFlightRequestsPerConnection] batches are.
func laneOpen(r *Result, inflight int) bool {
	switch {
	case r.Sequence < 0:
		return true
	case r.Attempts > 0 && inflight > 0:
		return false
	}
	return inflight < MaxInFlightRequestsPerConnection
}

// drain sends what the deques let go, as Kafka's Sender.sendProducerData
// drains its accumulator: each partition's first batch unless it backs
// off, has no leader or is held back by its lane, in one request per
// leader with fewer than [MaxInFlightRequestsPerConnection] requests in
// flight. The cost of a drain follows the partitions with records
// waiting, not the records.
func (p *Producer) drain(env Env) {
	if len(p.queues) == 0 {
		return
	}
	swept := false
	var corrs []sentBatch // this drain's request to each leader (corr, broker)
	for _, d := range p.queues {
		head := p.head(d)
		if head < 0 {
			continue
		}
		r := p.result(head)
		leader := env.PartitionLeader(p.cfg.Topic, d.partition)
		if leader == replica.NoLeader {
			r.LastError = "LEADER_NOT_AVAILABLE"
			continue
		}
		if p.backingOff(env, r, leader) || p.connecting(env, leader) {
			continue
		}
		if !swept {
			p.sweepInFlight()
			swept = true
		}
		if !laneOpen(r, p.partitionInFlight(d.partition)) {
			continue
		}
		k := slices.IndexFunc(corrs, func(c sentBatch) bool { return c.broker == leader })
		if k < 0 {
			if p.brokerInFlight(leader) >= MaxInFlightRequestsPerConnection {
				continue
			}
			p.corr++
			corrs = append(corrs, sentBatch{corr: p.corr, broker: leader})
			k = len(corrs) - 1
		}
		members := p.headBatch(env, d, head)
		pop(d, members)
		p.sendBatch(env, leader, corrs[k].corr, members)
	}
	p.queues = slices.DeleteFunc(p.queues, func(d *deque) bool { return len(d.waiting) == 0 })
}

// RequestDropped takes a produce request of the producer that the network
// could not deliver because its broker does not run (or restarted): the
// connection is refused, as a Kafka client finds when it connects to a
// broker that is down (NetworkClient: "Connection to node could not be
// established"). The batch never left, so it is no retry: it waits at the
// head of its deque for the next drain, to the leader known then, while
// the producer waits out the broker's reconnect backoff
// ([Producer.connectionRefused]). A request lost on a cut link is not
// reported: it waits for request.timeout.ms, as Kafka's does.
func (p *Producer) RequestDropped(env Env, e *netsim.Envelope) {
	answered, _ := p.answered(e.Msg.CorrelationID, e.TP.Partition)
	if len(answered) == 0 {
		return
	}
	p.connectionRefused(env, e.To, e.Msg.CorrelationID)
	for _, i := range answered {
		r := p.result(i)
		r.inflight, r.Attempts, r.retryAtMs = 0, max(0, r.Attempts-1), 0
		p.enqueue(i)
	}
}
