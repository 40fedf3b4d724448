package group

import (
	"maps"
	"slices"
)

// DefaultOffsetsRetentionMinutes is offsets.retention.minutes, 7 days
// since Kafka 2.0 (KIP-186), and DefaultOffsetsRetentionCheckIntervalMs
// offsets.retention.check.interval.ms, 10 minutes (Kafka 3.7's
// KafkaConfig and OffsetConfig).
const (
	DefaultOffsetsRetentionMinutes         = 7 * 24 * 60
	DefaultOffsetsRetentionCheckIntervalMs = 600_000
)

// consumerProtocolType is the protocol type of consumer groups
// (ConsumerProtocol.PROTOCOL_TYPE).
const consumerProtocolType = "consumer"

// StoredOffset is a committed offset as the coordinator's store holds it,
// for [Coordinator.ExpireOffsets].
type StoredOffset struct {
	TopicPartition
	// CommitTimestampMs is the time of its latest commit stored.
	CommitTimestampMs int64
	// Pending says a commit of it is being stored (not yet acknowledged):
	// it does not expire (GroupMetadata.pendingOffsetCommits).
	Pending bool
}

// ExpireOffsets removes expired committed offsets, as Kafka 3.7's
// GroupMetadataManager.cleanupGroupMetadata does every
// offsets.retention.check.interval.ms with GroupMetadata.removeExpiredOffsets
// (KIP-211), at the coordinator's clock (Tick first). stored holds the
// offsets of each group in the offsets partitions the coordinator leads;
// coordinates says which groups it coordinates. For each such group, known
// or stored, it returns the partitions whose offsets expired (the caller
// writes their tombstones):
//
//   - a group with a protocol type that is Empty: all its offsets, once
//     retentionMs has passed since it became Empty;
//   - a Stable "consumer" group: the offsets of the topics no member
//     subscribes to, retentionMs after their latest commit;
//   - a group without a protocol type (one that only commits offsets, a
//     "simple" consumer's), a group the coordinator does not know (offsets
//     without a metadata record) and an Empty group loaded from a record
//     without a state timestamp (GroupMetadataValue before version 2): each
//     offset retentionMs after its latest commit;
//   - a group in a rebalance: none.
//
// An offset with a commit pending never expires. A known group left
// Empty without offsets is Dead and forgotten at once, as Kafka removes it
// from its cache, and its metadata record gets a tombstone in
// Ready.Groups (cleanupGroupMetadata); a known Dead one is forgotten too.
func (c *Coordinator) ExpireOffsets(retentionMs int64, stored map[string][]StoredOffset, coordinates func(group string) bool) map[string][]TopicPartition {
	ids := slices.Collect(maps.Keys(stored))
	for id := range c.groups {
		if _, ok := stored[id]; !ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	out := map[string][]TopicPartition{}
	for _, id := range ids {
		if !coordinates(id) {
			continue
		}
		offsets := stored[id]
		expired := c.expiredOffsets(c.groups[id], offsets, retentionMs)
		if len(expired) > 0 {
			out[id] = expired
		}
		if g := c.groups[id]; g != nil && (g.state == Dead || g.state == Empty && len(expired) == len(offsets)) {
			if g.state == Empty {
				c.storeTombstone(id)
			}
			delete(c.groups, id)
		}
	}
	return out
}

// expiredOffsets is GroupMetadata.removeExpiredOffsets for group g (nil:
// not known) with offsets.
func (c *Coordinator) expiredOffsets(g *classicGroup, offsets []StoredOffset, retentionMs int64) []TopicPartition {
	since := func(o StoredOffset) int64 { return o.CommitTimestampMs }
	var subscribed map[string]bool
	switch {
	case g == nil || g.protocolType == "":
	case g.state == Empty && g.emptySinceMs >= 0:
		since = func(StoredOffset) int64 { return g.emptySinceMs }
	case g.state == Empty:
	case g.state == Stable && g.protocolType == consumerProtocolType:
		subscribed = g.subscribedTopics()
	default:
		return nil
	}
	var out []TopicPartition
	for _, o := range offsets {
		if !o.Pending && !subscribed[o.Topic] && c.nowMs-since(o) >= retentionMs {
			out = append(out, o.TopicPartition)
		}
	}
	return out
}

// subscribedTopics are the topics g's members subscribe to under its
// chosen assignor (GroupMetadata.subscribedTopics).
func (g *classicGroup) subscribedTopics() map[string]bool {
	out := map[string]bool{}
	for _, m := range g.members {
		for _, t := range m.protocol(g.protocolName).Subscription.Topics {
			out[t] = true
		}
	}
	return out
}
