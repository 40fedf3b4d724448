package cluster

import (
	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/replica"
)

// OffsetsTopic is the internal topic of committed offsets.
const OffsetsTopic = metadata.OffsetsTopic

// OffsetsTopicSegmentBytes is offsets.topic.segment.bytes, the
// segment.bytes Kafka creates __consumer_offsets with (104857600).
const OffsetsTopicSegmentBytes = 100 << 20

// ensureOffsetsTopic creates __consumer_offsets on first use, as a broker
// auto-creates it on the first FindCoordinator: compacted,
// offsets.topic.num.partitions partitions, offsets.topic.replication.factor
// replicas, with the topic configs its coordinator gives it
// (GroupCoordinator.groupMetadataTopicConfigs): cleanup.policy=compact and
// compression.type=producer, which every tool then lists as the topic's
// own, and segment.bytes offsets.topic.segment.bytes (100 MiB), or the
// brokers' log.segment.bytes where smaller (the served world's small
// segments are there to be watched rolling).
func (w *World) ensureOffsetsTopic() error {
	if w.ctl.Topic(OffsetsTopic) != nil {
		return nil
	}
	cfg := w.cfg.Log
	cfg.CleanupPolicy = "compact"
	cfg.SegmentBytes = min(cfg.SegmentBytes, OffsetsTopicSegmentBytes)
	return w.createTopic(TopicSpec{Name: OffsetsTopic, Partitions: w.cfg.OffsetsTopicNumPartitions,
		ReplicationFactor: w.cfg.OffsetsTopicReplicationFactor, Config: &cfg, Overrides: []string{"compression.type"}})
}

// TxnStateTopic is the internal topic of the transaction coordinators'
// state.
const TxnStateTopic = metadata.TxnStateTopic

// ensureTxnStateTopic creates __transaction_state on first use, as a
// broker auto-creates it on the first FindCoordinator for a transactional
// id (TransactionStateManager.transactionTopicConfigs): compacted,
// transaction.state.log.num.partitions partitions,
// transaction.state.log.replication.factor replicas (3, or the number of
// brokers if fewer), min.insync.replicas transaction.state.log.min.isr (2,
// or the replication factor if lower), segment.bytes
// transaction.state.log.segment.bytes (100 MiB).
func (w *World) ensureTxnStateTopic() error {
	if w.ctl.Topic(TxnStateTopic) != nil {
		return nil
	}
	cfg := w.cfg.Log
	cfg.CleanupPolicy, cfg.SegmentBytes = "compact", 100<<20
	rf := min(3, w.cfg.Brokers)
	return w.createTopic(TopicSpec{Name: TxnStateTopic, Partitions: w.cfg.TransactionStateLogNumPartitions,
		ReplicationFactor: rf, MinInsyncReplicas: min(2, rf), Config: &cfg,
		Overrides: []string{"cleanup.policy", "min.insync.replicas", "segment.bytes"}})
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
