package broker

import "github.com/kafkalive/kafkalive/cluster/internal/netsim"

// A heartbeat says what the broker's replicas know of their partitions
// (their leader and partition epochs: netsim.Known), so that the
// controller resends a partition state the broker missed. The broker keeps
// the last one it sent and the replicas that may have changed since: a
// replica's epochs change only when its node is handed a message (a
// partition state, an AlterPartition answer) or the replica opens or goes,
// and each of those marks it changed (touch), which also notes it here. A
// heartbeat looks at those replicas alone and sends the same netsim.Known
// again when none of their epochs changed, so that an idle broker's
// heartbeat costs nothing per partition it hosts.

// beat is the broker's heartbeat state: known, what the last heartbeat
// sent (never changed in place: shared with it and with clones), and
// stale, the partitions whose replicas may have changed since (each
// listed once: Partition.beatStale).
type beat struct {
	known *netsim.Known
	stale []tp
}

// noteBeat notes that replica s may have changed what the next heartbeat
// reports of it.
func (b *Broker) noteBeat(s *Partition) {
	if !s.beatStale {
		s.beatStale = true
		b.beat.stale = append(b.beat.stale, s.TP)
	}
}

// Known returns what the broker's replicas know of their partitions, as
// its next heartbeat reports it: the last heartbeat's, with the epochs of
// the replicas changed since.
func (b *Broker) Known() *netsim.Known {
	if len(b.beat.stale) == 0 && b.beat.known != nil {
		return b.beat.known
	}
	changes := make([]netsim.KnownChange, 0, len(b.beat.stale))
	for _, k := range b.beat.stale {
		s := b.replicas[k]
		if s == nil {
			changes = append(changes, netsim.KnownChange{TP: k, Gone: true})
			continue
		}
		s.changing() // its mark goes: the next snapshot copies it anew
		s.beatStale = false
		leaderEpoch, partitionEpoch := s.Node.Epochs()
		changes = append(changes, netsim.KnownChange{TP: k, Epochs: [2]int32{leaderEpoch, partitionEpoch}})
	}
	b.beat.known, b.beat.stale = b.beat.known.With(changes), nil
	return b.beat.known
}
