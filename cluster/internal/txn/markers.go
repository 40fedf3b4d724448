package txn

import (
	"maps"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// markerJob is a transaction whose markers the coordinator is writing
// (TransactionMarkerChannelManager's queue for it): the partitions still to
// write are the transaction's (Metadata.Partitions, each removed once its
// leader wrote its marker), some in flight to their leaders; then the
// complete state is written.
type markerJob struct {
	id         string
	pid        int64
	epoch      int16
	commit     bool
	coordEpoch int32
	complete   transit
	inflight   []markerSend
	// completing says the complete state's write is in flight;
	// retryComplete that it failed with COORDINATOR_NOT_AVAILABLE and is
	// written again.
	completing, retryComplete bool
}

// markerSend is one WriteTxnMarkers in flight.
type markerSend struct {
	corr       int64
	broker     int32
	inc        int
	sentMs     int64
	partitions []kafkalog.TopicPartition
}

// sendMarkers sends the markers that are due, in transactional id order:
// those of partitions not in flight whose leader is known, one request per
// leader; requests whose broker went away or that went unanswered for
// request.timeout.ms are given up and their partitions sent again; a
// partition whose topic is gone is dropped; a transaction with every marker
// written has its complete state written.
func (c *Coordinator) sendMarkers(env Env) error {
	for _, id := range slices.Sorted(maps.Keys(c.jobs)) {
		j := c.jobs[id]
		m := c.txns[id]
		if m == nil || j.completing {
			continue
		}
		if j.retryComplete {
			j.retryComplete = false
			c.writeComplete(env, m, j)
			continue
		}
		j.inflight = slices.DeleteFunc(j.inflight, func(s markerSend) bool {
			return env.BrokerGone(s.broker, s.inc) || env.Now()-s.sentMs >= c.cfg.RequestTimeoutMs
		})
		byLeader := map[int32][]kafkalog.TopicPartition{}
		for _, tp := range slices.Clone(m.Partitions) {
			if j.sending(tp) {
				continue
			}
			leader, exists := env.PartitionLeader(tp)
			switch {
			case !exists:
				m.Partitions = slices.DeleteFunc(m.Partitions, func(p kafkalog.TopicPartition) bool { return p == tp })
			case leader != replica.NoLeader:
				byLeader[leader] = append(byLeader[leader], tp)
			}
		}
		for _, leader := range slices.Sorted(maps.Keys(byLeader)) {
			s := markerSend{corr: c.nextCorr(), broker: leader, inc: env.BrokerIncarnation(leader), sentMs: env.Now(), partitions: byLeader[leader]}
			j.inflight = append(j.inflight, s)
			env.Send(netsim.Envelope{From: c.cfg.BrokerID, To: leader, Kind: netsim.KindTxnMarkers, Txn: WriteMarkers{Corr: s.corr, Markers: []Marker{{
				ProducerID: j.pid, Epoch: j.epoch, Commit: j.commit, CoordinatorEpoch: j.coordEpoch, Partitions: s.partitions}}}})
		}
		if len(m.Partitions) == 0 && len(j.inflight) == 0 {
			c.writeComplete(env, m, j)
		}
	}
	return nil
}

// sending reports whether tp's marker is in flight.
func (j *markerJob) sending(tp kafkalog.TopicPartition) bool {
	for _, s := range j.inflight {
		if slices.Contains(s.partitions, tp) {
			return true
		}
	}
	return false
}

// writeComplete writes CompleteCommit or CompleteAbort.
func (c *Coordinator) writeComplete(env Env, m *Metadata, j *markerJob) {
	j.completing = true
	// the pending state was set by prepareComplete when the markers began
	m.HasPending = false
	if _, err := m.prepare(j.complete); err != nil {
		delete(c.jobs, j.id)
		return
	}
	c.write(env, m, j.complete, &pendingAppend{purpose: forComplete, answerAs: answerNone, reply: reply{none: true}})
}

// markersAnswered takes a leader's answer to WriteTxnMarkers
// (TransactionMarkerRequestCompletionHandler): a written marker's
// partition leaves the transaction; an old epoch or a newer coordinator
// means this coordinator is stale, and it stops writing the transaction's
// markers. A partition refused with a retriable error
// (NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS, REQUEST_TIMED_OUT...) is
// sent again on the coordinator's next tick, not at once: Kafka 3.7's
// handler puts it back in the broker's queue (retryPartitions,
// TransactionMarkerChannelManager.addTxnMarkersToBrokerQueue), which the
// InterBrokerSendThread drains on its next pass, a network round trip
// later. Sent again at the same instant, a refusal that holds until time
// moves (a leader short of min.insync.replicas refuses every marker with
// NOT_ENOUGH_REPLICAS) would ping-pong forever at that instant.
func (c *Coordinator) markersAnswered(env Env, from int32, r WriteMarkersResponse) error {
	for _, id := range slices.Sorted(maps.Keys(c.jobs)) {
		j := c.jobs[id]
		i := slices.IndexFunc(j.inflight, func(s markerSend) bool { return s.corr == r.Corr })
		if i < 0 {
			continue
		}
		j.inflight = slices.Delete(j.inflight, i, i+1)
		m := c.txns[id]
		if m == nil {
			return nil
		}
		retry := false
		for _, res := range r.Results {
			for _, p := range res.Partitions {
				switch p.Error {
				case 0:
					m.Partitions = slices.DeleteFunc(m.Partitions, func(tp kafkalog.TopicPartition) bool { return tp == p.TP })
				case kafkaerr.InvalidProducerEpoch, kafkaerr.CoordinatorFenced:
					record(env, c.cfg.BrokerID, "transaction coordinator: %s: the marker on %s was refused with %s: this coordinator is stale, it stops sending",
						id, p.TP, kafkaerr.Name(p.Error))
					delete(c.jobs, id)
					return nil
				default:
					retry = true // sent again on the next tick
				}
			}
		}
		if retry {
			return nil
		}
		return c.sendMarkers(env)
	}
	_ = from
	return nil
}
