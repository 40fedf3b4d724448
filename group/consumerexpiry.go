package group

import (
	"maps"
	"slices"
)

// ExpireOffsets removes the expired committed offsets of the consumer
// groups it hosts, as Kafka's group coordinator for KIP-848 groups does
// every offsets.retention.check.interval.ms (checked at 3.9's
// OffsetMetadataManager.cleanupExpiredOffsets and
// ConsumerGroup.offsetExpirationCondition, the coordinator Kafka 4 runs):
// an offset of a topic no member subscribes to expires retentionMs after
// its latest commit; those of subscribed topics and those with a commit
// pending never. stored holds the offsets of each group in the offsets
// partitions the caller leads; coordinates says which groups it
// coordinates (the others, and groups it does not host, are left alone);
// the expired partitions are returned by group, for the caller's
// tombstones. A group left without offsets and without members is
// deleted (GroupMetadataManager.maybeDeleteGroup), one that never had
// offsets too.
func (c *ConsumerGroupCoordinator) ExpireOffsets(retentionMs int64, stored map[string][]StoredOffset, coordinates func(group string) bool) map[string][]TopicPartition {
	out := map[string][]TopicPartition{}
	for _, id := range slices.Sorted(maps.Keys(c.groups)) {
		g := c.groups[id]
		if g.dead || !coordinates(id) {
			continue
		}
		subscribed := map[string]bool{}
		for _, m := range g.members {
			for _, t := range c.memberTopics(m) { // its names and what its regex matches
				subscribed[t] = true
			}
		}
		all := true
		for _, o := range stored[id] {
			if !subscribed[o.Topic] && !o.Pending && c.nowMs-o.CommitTimestampMs >= retentionMs {
				out[id] = append(out[id], o.TopicPartition)
			} else {
				all = false
			}
		}
		if all && len(g.members) == 0 {
			delete(c.groups, id)
		}
	}
	return out
}
