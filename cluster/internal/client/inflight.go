package client

import "github.com/kafkalive/kafkalive/cluster/internal/netsim"

// MaxInFlightRequestsPerConnection is max.in.flight.requests.per.connection's
// default, the most Kafka's idempotent producer allows (KafkaProducer's
// configureInflightRequests): the leader keeps a producer's last five
// batches to recognise their retries (replica.BatchesRetained). Kafka's
// requests carry one batch per partition for every partition the broker
// leads, so five requests in flight mean at most five batches per
// partition; here each request carries one partition's batch, and an
// idempotent producer keeps at most five in flight per partition.
const MaxInFlightRequestsPerConnection = 5

// lane is what an idempotent producer's send discipline knows of one
// partition's records while it decides whether a batch may go: Kafka's
// RecordAccumulator deque and TransactionManager's in-flight batches.
type lane struct {
	// first is the index of the partition's first record not yet settled
	// (acknowledged or failed) and no longer lingering, -1 if none.
	first int
	// waitingBefore reports that a record before the batch, not in it,
	// waits to be sent (a retry backing off or a batch held back).
	waitingBefore bool
	// inflight counts the other requests in flight for the partition.
	inflight int
}

// laneOf reads partition's records in p.open around the batch members.
func (p *Producer) laneOf(partition int32, members []int) lane {
	l := lane{first: -1}
	corrs := map[int64]bool{}
	for _, j := range p.open {
		r := p.result(j)
		if r.Partition != partition || r.Acked || r.Failed || r.Sequence < 0 || r.lingering || r.held {
			continue
		}
		if l.first < 0 || j < l.first {
			l.first = j
		}
		if isMember(j, members) {
			continue
		}
		if r.inflight != 0 {
			corrs[r.inflight] = true
		} else if j < members[0] {
			l.waitingBefore = true
		}
	}
	l.inflight = len(corrs)
	return l
}

// isMember reports whether j is one of the batch's members.
func isMember(j int, members []int) bool {
	for _, m := range members {
		if m == j {
			return true
		}
	}
	return false
}

// maySend applies Kafka's idempotent producer's send discipline to the batch
// of members (index order), as its RecordAccumulator.drain does
// (shouldStopDrainBatchesForPartition) with NetworkClient's in-flight limit:
// the batch waits while a record before it waits (the deque is drained in
// order), while it is a retry and an earlier batch of its partition is
// still in flight (a retry goes only as the first in-flight batch, which
// reduces the partition to one request in flight until it is answered),
// and while the partition has [MaxInFlightRequestsPerConnection] requests in
// flight. Without idempotence every batch goes at once.
func (p *Producer) maySend(members []int) bool {
	r := p.result(members[0])
	if r.Sequence < 0 {
		return true
	}
	l := p.laneOf(r.Partition, members)
	switch {
	case l.waitingBefore:
		return false
	case r.Attempts > 0 && l.first != members[0]:
		return false
	}
	return l.inflight < MaxInFlightRequestsPerConnection
}

// queue holds back the live members of a batch that may not go yet: they
// go from [Producer.Tick] once their partition's lane lets them.
func (p *Producer) queue(live []int) {
	for _, j := range live {
		p.result(j).queued = true
	}
}

// mergeQueued makes batch of the records held back after result i that
// were never sent, as Kafka's accumulator fills a batch while the
// partition's requests are in flight: consecutive records of i's
// partition, in sequence order and the same epoch and acks, up to
// batch.size. i must be a record never sent, alone.
func (p *Producer) mergeQueued(i int) {
	r := p.result(i)
	members := []int{i}
	size := batchSize(r.Key, r.Value, r.Null)
	next := r.Sequence + 1
	for _, j := range p.open {
		if j <= i {
			continue
		}
		m := p.result(j)
		if m.Partition != r.Partition {
			continue
		}
		if !m.queued || m.Attempts > 0 || m.batch != nil || m.Sequence != next || m.ProducerEpoch != r.ProducerEpoch || m.Acks != r.Acks {
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
	if len(members) > 1 {
		for _, j := range members {
			p.result(j).batch = members
		}
	}
}

// sendQueued sends partition's batches held back by its lane, in order, as
// far as the lane now lets them go: Kafka's sender drains the partition as
// soon as an answer frees a place. A retry still backing off stops it.
func (p *Producer) sendQueued(env Env, partition int32) {
	for {
		head := -1
		for _, j := range p.open {
			r := p.result(j)
			if r.Partition == partition && r.Sequence >= 0 && !r.Acked && !r.Failed && r.inflight == 0 && (r.queued || r.retryAtMs != 0) {
				head = j
				break
			}
		}
		if head < 0 || !p.result(head).queued {
			return
		}
		if r := p.result(head); r.Attempts == 0 && r.batch == nil {
			p.mergeQueued(head)
		}
		p.sendRecord(env, head)
		if p.result(head).queued {
			return // still held back
		}
	}
}

// RequestDropped takes a produce request of the producer that the network
// could not deliver because its broker does not run (or restarted): the
// connection is refused, as a Kafka client finds when it connects to a
// broker that is down (NetworkClient: "Connection to node could not be
// established"). The batch never left, so it is no retry: it goes again
// after retry.backoff.ms (Kafka's reconnect.backoff.ms, 50 ms at first, is
// folded into it) to the leader known then, in its partition's order. A
// request lost on a cut link is not reported: it waits for
// request.timeout.ms, as Kafka's does.
func (p *Producer) RequestDropped(env Env, e *netsim.Envelope) {
	for _, i := range p.answered(e.Msg.CorrelationID) {
		r := p.result(i)
		r.inflight, r.Attempts = 0, max(0, r.Attempts-1)
		r.retryAtMs = env.Now() + p.cfg.RetryBackoffMs
	}
}
