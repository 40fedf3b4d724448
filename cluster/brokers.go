package cluster

import (
	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/vfs"
)

// LogDir is the broker's log.dirs inside its own MemFS.
const LogDir = broker.LogDir

// BrokerState is whether a broker process runs.
type BrokerState = broker.BrokerState

// The broker states.
const (
	// BrokerRunning: the process runs.
	BrokerRunning = broker.BrokerRunning
	// BrokerStopped: shut down cleanly (flushed, checkpoints and the clean
	// shutdown marker written).
	BrokerStopped = broker.BrokerStopped
	// BrokerCrashed: the process was killed; the page cache survives.
	BrokerCrashed = broker.BrokerCrashed
	// BrokerOff: the power was cut; only what was synced survives.
	BrokerOff = broker.BrokerOff
	// BrokerFailed: the process exited during its start because its log
	// dir could not be loaded (a damaged file, see [World.StartFailure]);
	// it stays down, its files as they are, until a start succeeds (after
	// the damaged file or partition directory is removed: [ActWipe]).
	BrokerFailed = broker.BrokerFailed
)

// Kafka's checkpoint schedules (Kafka 3.7.0: LogManager.startupWithConfigOverrides
// schedules kafka-recovery-point-checkpoint and kafka-log-start-offset-checkpoint
// after LogManager.InitialTaskDelayMs, then at a fixed rate;
// ReplicaManager.startHighWatermarkCheckPointThread schedules highwatermark-checkpoint
// with no delay), in milliseconds.
const (
	// KafkaReplicaHighWatermarkCheckpointIntervalMs is Kafka's default
	// replica.high.watermark.checkpoint.interval.ms.
	KafkaReplicaHighWatermarkCheckpointIntervalMs = broker.KafkaReplicaHighWatermarkCheckpointIntervalMs
	// KafkaLogFlushOffsetCheckpointIntervalMs is Kafka's default
	// log.flush.offset.checkpoint.interval.ms.
	KafkaLogFlushOffsetCheckpointIntervalMs = broker.KafkaLogFlushOffsetCheckpointIntervalMs
	// KafkaLogFlushStartOffsetCheckpointIntervalMs is Kafka's default
	// log.flush.start.offset.checkpoint.interval.ms.
	KafkaLogFlushStartOffsetCheckpointIntervalMs = broker.KafkaLogFlushStartOffsetCheckpointIntervalMs
	// LogManagerInitialTaskDelayMs is LogManager.InitialTaskDelayMs: how long after
	// startup the log manager's periodic tasks first run.
	LogManagerInitialTaskDelayMs = broker.LogManagerInitialTaskDelayMs
)

// LinuxDirtyExpireMs and LinuxDirtyWritebackIntervalMs are Linux's defaults
// for [Config.DirtyExpireMs] and [Config.DirtyWritebackIntervalMs].
const (
	LinuxDirtyExpireMs            = vfs.LinuxDirtyExpireMs
	LinuxDirtyWritebackIntervalMs = vfs.LinuxDirtyWritebackIntervalMs
)

// ErrReadOnlyFS is returned by every change tried through [World.BrokerFS].
var ErrReadOnlyFS = broker.ErrReadOnlyFS

// brokerConfig is broker id's configuration: the world's.
func (c Config) brokerConfig(id int32) broker.Config {
	return broker.Config{ID: id, Rules: c.Rules, DiskBytes: c.BrokerDiskBytes,
		ReplicaLagTimeMaxMs: c.ReplicaLagTimeMaxMs, ReplicaFetchWaitMaxMs: c.ReplicaFetchWaitMaxMs,
		BrokerHeartbeatIntervalMs: c.BrokerHeartbeatIntervalMs, LogRetentionCheckIntervalMs: c.LogRetentionCheckIntervalMs,
		LogCleanerBackoffMs: c.LogCleanerBackoffMs, FileDeleteDelayMs: c.Log.FileDeleteDelayMs,
		ReplicaHighWatermarkCheckpointIntervalMs: c.ReplicaHighWatermarkCheckpointIntervalMs,
		LogFlushOffsetCheckpointIntervalMs:       c.LogFlushOffsetCheckpointIntervalMs,
		LogFlushStartOffsetCheckpointIntervalMs:  c.LogFlushStartOffsetCheckpointIntervalMs,
		DirtyExpireMs:                            c.DirtyExpireMs, DirtyWritebackIntervalMs: c.DirtyWritebackIntervalMs, ClockStartMs: c.ClockStartMs,
		OffsetsTopicNumPartitions: c.OffsetsTopicNumPartitions, Group: c.memberIDs(),
		Txn:           txn.Config{NumPartitions: c.TransactionStateLogNumPartitions, TransactionVersion: c.transactionVersion()},
		ConsumerGroup: *c.ConsumerGroup, ConsumerGroupProtocol: c.ConsumerGroupProtocol(),
		OffsetsRetentionMinutes: c.OffsetsRetentionMinutes, OffsetsRetentionCheckIntervalMs: c.OffsetsRetentionCheckIntervalMs,
		ClusterID: c.clusterID(), TopicDefaults: c.topicDefaults(), AutoCreateTopicsEnable: !c.DisableAutoCreateTopics,
		TransactionPartitionVerification: !c.DisableTransactionPartitionVerification,
		FetchMaxBytes:                    c.FetchMaxBytes, CombinedControllers: c.CombinedControllers, TickEveryReplica: c.TickEveryPartition,
		Racks: c.BrokerRacks, ReplicaSelectorClass: c.ReplicaSelectorClass,
		Parts: broker.Parts{Log: c.Parts.Log, ValidateBatches: c.Parts.EncodeBatch != nil,
			TruncationPoint: c.Parts.TruncationPoint, Truncate: c.Parts.Truncate}}
}

// transactionVersion is the cluster's finalized transaction.version, as a
// new cluster of the rules' release is formatted with it: 2 under Kafka
// 4's rules (KIP-890 part 2: an epoch bump per transaction, partitions
// added by the produce itself; TransactionVersion.TV_2, which Kafka 4.0's
// and 4.1's kafka-storage format finalizes by default), 0 before (Kafka
// 3.7 has no such feature).
func (c Config) transactionVersion() int16 {
	if c.Rules >= replica.V4 {
		return 2
	}
	return 0
}

// memberIDs is the brokers' classic group settings, with the seed their
// coordinators' member ids come from (each broker mixes in its id and
// process incarnation): the world's seed, so that worlds of other seeds
// hand out other ids, without a draw from the world's random source
// (which would move every later draw).
func (c Config) memberIDs() group.Config {
	g := *c.Group
	g.MemberIDSeed = c.Seed * 0x9E3779B97F4A7C15
	return g
}

// StartFailure says why broker id's last start failed, while it is
// [BrokerFailed] (else ""): the checkpoint file or partition log that did
// not load, in Kafka's words.
func (w *World) StartFailure(id int32) string {
	b, err := w.broker(id)
	if err != nil || b.State() != BrokerFailed {
		return ""
	}
	why, _ := b.Failure()
	return why
}

// flushCheckpoints writes, at the end of a step, the checkpoints each
// broker's step calls for (broker.Broker.FlushCheckpoints).
func (w *World) flushCheckpoints() {
	for _, b := range w.brokers {
		b.FlushCheckpoints(w.env())
	}
}

// BrokerFS returns a read-only view of broker id's files as they are now
// (the page cache, what its processes read; [LogDir] holds its logs), for
// tools like kafka-dump-log. It is a copy-on-write snapshot: the broker
// goes on changing its own files, the view does not change.
func (w *World) BrokerFS(id int32) (vfs.FS, error) {
	b, err := w.broker(id)
	if err != nil {
		return nil, err
	}
	return broker.ReadOnly(b.FS().Clone()), nil
}
