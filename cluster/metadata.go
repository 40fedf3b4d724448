package cluster

import (
	"github.com/kafkalive/kafkalive/cluster/internal/controller"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/replica"
)

// MaxPartitions bounds the partitions of all the world's topics together
// (the internal ones included): a simulated broker's partition costs
// memory and every step's time. Kafka has no such bound (its controller
// refuses a single request of more than 10,000 metadata records, KRaft's
// MAX_RECORDS_PER_USER_OP); a client's CreateTopics past it is
// POLICY_VIOLATION, as a cluster's create-topic policy would answer.
const MaxPartitions = controller.MaxPartitions

// MetadataMaxIdleIntervalMs is metadata.max.idle.interval.ms: how often the
// active controller appends a NoOpRecord (KafkaConfig, Kafka 3.3+).
const MetadataMaxIdleIntervalMs = controller.MetadataMaxIdleIntervalMs

// QuorumStatus is what kafka-metadata-quorum describe --status reports
// (MetadataQuorumCommand.handleDescribeStatus, Kafka 3.7), in combined
// mode ([Config.CombinedControllers]).
type QuorumStatus = controller.QuorumStatus

// QuorumStatus returns the metadata quorum's status; ok is false when
// the controller is a separate node (no quorum is simulated).
func (w *World) QuorumStatus() (QuorumStatus, bool) { return w.ctl.QuorumStatus() }

// QuorumDescription is the metadata quorum as its leader describes it to
// DescribeQuorum: each voter's and observer's log end offset and when it
// last fetched and caught up (what kafka-metadata-quorum describe
// --replication prints).
type QuorumDescription = metadata.QuorumDescription

// QuorumReplica is one replica of the metadata log in a
// [QuorumDescription].
type QuorumReplica = metadata.QuorumReplica

// DescribeQuorum returns the quorum as its leader describes it now, the
// answer the brokers forward from DescribeQuorum; ok is false while no
// controller is active.
func (w *World) DescribeQuorum() (QuorumDescription, bool) { return w.ctl.DescribeQuorum(w.env()) }

// ActiveController returns the broker id of the active controller in
// combined mode, 0 while none is elected, and [ControllerID] when the
// controller is a separate node.
func (w *World) ActiveController() int32 {
	if !w.cfg.CombinedControllers {
		return ControllerID
	}
	return w.ctl.Active()
}

// PartitionLeader returns the controller's leader for a partition
// ([replica.NoLeader] if none or unknown).
func (w *World) PartitionLeader(topic string, partition int32) int32 {
	return w.ctl.Leader(partitionKey{Topic: topic, Partition: partition})
}

// Topics returns the topics, sorted by name. The caller must not modify it.
func (w *World) Topics() []Topic { return w.ctl.Topics() }

var _ = replica.NoLeader
