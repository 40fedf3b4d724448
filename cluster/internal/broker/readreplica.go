package broker

import (
	"slices"

	"github.com/kafkalive/kafkalive/replica"
)

// RackAwareSelector is the replica.selector.class Kafka ships
// (KIP-392): a consumer in a rack is sent to a replica in that rack.
const RackAwareSelector = "org.apache.kafka.common.replica.RackAwareReplicaSelector"

// preferredReadReplica is the replica a leader sends a consumer in rack
// to for offset (Fetch's preferred_read_replica, KIP-392), -1 for none:
// the leader itself serves it. It is Kafka 3.9's
// ReplicaManager.findPreferredReadReplica with RackAwareReplicaSelector:
// only with replica.selector.class set and only at the leader; the
// candidates are the leader and the followers in the ISR whose log holds
// offset; of those in the consumer's rack, the leader if it is one, else
// the follower with the highest log end offset, then the one caught up
// most recently, then the highest id (ReplicaView.comparator); no rack,
// or none in it, is the leader. The leader knows each follower's log end
// (its last fetch offset) and last catch-up; it does not learn a
// follower's log start offset, which Kafka's check reads from the
// follower's fetch: its own stands for it (a follower's log start
// follows the leader's).
func (b *Broker) preferredReadReplica(now int64, st replica.Status, rack string, offset int64) int32 {
	if b.cfg.ReplicaSelectorClass != RackAwareSelector || st.Role != replica.RoleLeader || rack == "" {
		return -1
	}
	best, bestLEO, bestSince := int32(-1), int64(0), int64(0)
	for _, f := range st.Followers {
		if !slices.Contains(st.ISR, f.ID) || f.LogEndOffset < offset || st.LogStartOffset > offset {
			continue
		}
		if r := b.rackOf(f.ID); r == nil || *r != rack {
			continue
		}
		since := now - f.LastCaughtUpTimeMs
		if best < 0 || f.LogEndOffset > bestLEO ||
			f.LogEndOffset == bestLEO && (since < bestSince || since == bestSince && f.ID > best) {
			best, bestLEO, bestSince = f.ID, f.LogEndOffset, since
		}
	}
	if r := b.rackOf(b.id); r != nil && *r == rack {
		return -1 // the leader is in the consumer's rack
	}
	return best
}
