package cluster

import (
	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/replica"
)

// OffsetsTopic is the internal topic of committed offsets.
const OffsetsTopic = metadata.OffsetsTopic

// ensureOffsetsTopic creates __consumer_offsets on first use, as a broker
// auto-creates it on the first FindCoordinator: compacted,
// offsets.topic.num.partitions partitions, offsets.topic.replication.factor
// replicas.
func (w *World) ensureOffsetsTopic() error {
	if w.topic(OffsetsTopic) != nil {
		return nil
	}
	cfg := w.cfg.Log
	cfg.CleanupPolicy = "compact"
	return w.createTopic(TopicSpec{Name: OffsetsTopic, Partitions: w.cfg.OffsetsTopicNumPartitions,
		ReplicationFactor: w.cfg.OffsetsTopicReplicationFactor, Config: &cfg})
}

// coordinatorOf returns the running broker whose replica leads groupID's
// offsets partition (FindCoordinator), or nil.
func (w *World) coordinatorOf(groupID string) *broker.Broker {
	leader := w.ctl.Leader(metadata.OffsetsPartition(groupID, w.cfg.OffsetsTopicNumPartitions))
	if leader == replica.NoLeader {
		return nil
	}
	if b := w.brokers[leader-1]; b.Coordinates(w.env(), groupID) {
		return b
	}
	return nil
}
