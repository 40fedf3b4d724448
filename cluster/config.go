package cluster

import (
	"fmt"
	"math"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// Defaults applied by [New] to zero [Config] fields, with Kafka's values.
const (
	DefaultBrokers                   = 3
	DefaultBrokerSessionTimeoutMs    = 9000 // broker.session.timeout.ms
	DefaultBrokerHeartbeatIntervalMs = 2000 // broker.heartbeat.interval.ms
	DefaultTickMs                    = 10
	DefaultMaxDeliveriesPerQuiet     = 100000
	// DefaultOffsetsTopicNumPartitions is offsets.topic.num.partitions.
	DefaultOffsetsTopicNumPartitions = 50
	// DefaultLogRetentionCheckIntervalMs is log.retention.check.interval.ms.
	DefaultLogRetentionCheckIntervalMs = 300000
	// DefaultLogCleanerBackoffMs is log.cleaner.backoff.ms: how long the
	// cleaner sleeps when no log needs cleaning.
	DefaultLogCleanerBackoffMs = 15000
)

// RackAwareReplicaSelector is the replica.selector.class Kafka ships
// (org.apache.kafka.common.replica.RackAwareReplicaSelector, KIP-392).
const RackAwareReplicaSelector = broker.RackAwareSelector

// ErrInvalidConfig means a [Config], topic or producer setting is out of
// range, or an action names something that does not exist.
var ErrInvalidConfig = metadata.ErrInvalidConfig

// Config is the static configuration of a [World]. Field names follow
// Kafka's configuration keys; a zero value means Kafka's default (except
// where noted).
type Config struct {
	// Seed seeds the world's one random generator (math/rand/v2 PCG). It
	// drives the sticky partitioner, torn power cuts and the explorer.
	Seed uint64
	// ClockStartMs is Kafka's clock when the world starts, in milliseconds
	// since the Unix epoch: the brokers and the simulated clients read
	// ClockStartMs + [World.NowMs] (record timestamps, retention, the
	// validation of a record's timestamp). 0, the default, is
	// 1970-01-01T00:00:00Z: scenarios, the explorers and the tests start
	// there, so that their outputs do not depend on the day they run.
	// kafkalive serve starts its world at the wall clock's time, so that a
	// real client's records, stamped with the wall clock, age beside the
	// simulated ones.
	ClockStartMs int64
	// Brokers is the number of brokers, with ids 1..Brokers (default 3).
	Brokers int
	// Rules is the Kafka version whose replication rules apply (R0). It also
	// picks the controller's era: before [replica.V3_7] a ZooKeeper-era
	// controller bumps the leader epoch on controller-side ISR shrinks and
	// only when it elects a leader; [replica.V3_7] and [replica.V4] are KRaft.
	Rules replica.RuleSet
	// MinInsyncReplicas is the brokers' min.insync.replicas (default 1),
	// for every topic without its own ([Topic.MinInsyncReplicas]).
	MinInsyncReplicas int
	// UncleanLeaderElectionEnable is the brokers'
	// unclean.leader.election.enable (default false since 0.11; scenarios
	// of 0.10 set it), for every topic without its own
	// ([Topic.UncleanLeaderElectionEnable]).
	UncleanLeaderElectionEnable bool
	// DisableAutoCreateTopics is auto.create.topics.enable=false: a
	// client's Metadata request for a topic that does not exist no longer
	// creates it (Kafka's default, and the world's, is to create it with
	// num.partitions and default.replication.factor, both 1).
	DisableAutoCreateTopics bool
	// DisableTransactionPartitionVerification is
	// transaction.partition.verification.enable=false: a partition leader
	// appends a transactional batch without asking the producer's
	// transaction coordinator whether the partition is in its transaction
	// (KIP-890 part 1, on by default since Kafka 3.6, so under both
	// [replica.V3_7] and [replica.V4]): a late or stray write then opens
	// a transaction its coordinator never ends, a hanging transaction
	// (kafka-transactions find-hanging and abort).
	DisableTransactionPartitionVerification bool
	// ClientTopicSegmentBytes, when set, is the segment.bytes of a topic
	// made through Kafka's API (a client's CreateTopics or Metadata
	// request, the terminal's kafka-topics --create) that does not set
	// its own: a world whose log.segment.bytes is small enough to watch
	// segments roll (the user world's 16 KiB) would refuse a client's
	// full batch (up to max.message.bytes, about 1 MiB) as
	// RECORD_LIST_TOO_LARGE. 0 leaves such a topic the brokers'
	// log.segment.bytes, as Kafka does.
	ClientTopicSegmentBytes int64
	// ReplicaLagTimeMaxMs is replica.lag.time.max.ms (default: the rule set's,
	// 10000 before Kafka 2.5 and 30000 from it, KIP-537).
	ReplicaLagTimeMaxMs int64
	// ReplicaFetchWaitMaxMs is replica.fetch.wait.max.ms (default 500).
	ReplicaFetchWaitMaxMs int64
	// FetchMaxBytes is the brokers' fetch.max.bytes (default
	// DefaultFetchMaxBytes, 55 MiB; KIP-541, Kafka 2.5): a consumer's fetch
	// gets at most that many bytes, whatever its MaxBytes asks (but for
	// the first batch, which comes whole).
	FetchMaxBytes int64
	// BrokerSessionTimeoutMs is broker.session.timeout.ms (default 9000):
	// the controller fences a broker without a heartbeat for this long.
	BrokerSessionTimeoutMs int64
	// BrokerHeartbeatIntervalMs is broker.heartbeat.interval.ms (default 2000).
	BrokerHeartbeatIntervalMs int64
	// TickMs is the step of the virtual clock in [World.RunFor] (default 10):
	// every tick moves time, ticks every broker and producer (and the
	// replicas whose tick is due), then delivers messages until the
	// network is quiet.
	TickMs int64
	// TickEveryPartition ticks every replica and checks the invariants on
	// every partition at every step, not only on those that have something
	// due or changed: the same world at a cost in proportion to the
	// partitions it holds rather than to what happens in them (a reference
	// for tests and benchmarks; off by default).
	TickEveryPartition bool
	// TraceMessages records every delivered or dropped message as an event
	// (large traces; off by default).
	TraceMessages bool
	// Log is the topic-level log configuration of every partition (zero:
	// [DefaultLogConfig]); [TopicSpec.Config] overrides it per topic. Its
	// MessageTimestampAfterMaxMs at math.MaxInt64 (3.x's default, no bound)
	// becomes the rule set's default: one hour under [replica.V4]
	// (KIP-1030), so that a record stamped more than an hour ahead of the
	// leader's clock is refused with INVALID_TIMESTAMP.
	Log kafkalog.Config
	// OffsetsTopicNumPartitions is offsets.topic.num.partitions (default
	// 50): group G's coordinator is the leader of __consumer_offsets
	// partition abs(hash(G)) mod this (GroupCoordinator.partitionFor).
	OffsetsTopicNumPartitions int
	// OffsetsTopicReplicationFactor is offsets.topic.replication.factor
	// (default 3, or the number of brokers if fewer).
	OffsetsTopicReplicationFactor int
	// TransactionStateLogNumPartitions is
	// transaction.state.log.num.partitions (default 50): transactional id
	// T's coordinator is the leader of __transaction_state partition
	// abs(hash(T)) mod this (TransactionStateManager.partitionFor).
	TransactionStateLogNumPartitions int
	// OffsetsRetentionMinutes is offsets.retention.minutes (default 10080,
	// 7 days): a group's committed offsets expire that long after it
	// became Empty, or, for a group that only commits offsets, after each
	// offset's latest commit ([group.Coordinator.ExpireOffsets], KIP-211).
	// OffsetsRetentionCheckIntervalMs is offsets.retention.check.interval.ms
	// (default 600000): how often each broker's coordinator looks.
	OffsetsRetentionMinutes         int
	OffsetsRetentionCheckIntervalMs int64
	// LogRetentionCheckIntervalMs is log.retention.check.interval.ms
	// (default 300000): how often every broker applies retention (LogManager's kafka-log-retention task).
	LogRetentionCheckIntervalMs int64
	// BrokerDiskBytes is the size of each broker's disk: its files hold at
	// most this many bytes (0: no limit). A write past it fails with "No
	// space left on device", and the broker halts as a Kafka 3.7 broker
	// whose only log dir failed does (LogDirFailureChannel, then
	// ReplicaManager.handleLogDirFailure: "Shutdown broker because all log
	// dirs in /kafka-logs have failed"); started again, it runs until a
	// write fails again, unless space was freed.
	BrokerDiskBytes int64
	// LogCleanerBackoffMs is log.cleaner.backoff.ms (default 15000): how
	// often every broker's cleaner looks for a compacted log to clean.
	LogCleanerBackoffMs int64
	// ReplicaHighWatermarkCheckpointIntervalMs is
	// replica.high.watermark.checkpoint.interval.ms: every broker writes
	// replication-offset-checkpoint (every replica's HW) at this fixed rate
	// from its start ([KafkaReplicaHighWatermarkCheckpointIntervalMs] is
	// Kafka's 5000). 0, the default here: the scenarios' convention, the file
	// is written at the end of every step in which an HW changed, so that a
	// restarted broker reads the HW it held just before a crash.
	ReplicaHighWatermarkCheckpointIntervalMs int64
	// LogFlushOffsetCheckpointIntervalMs is
	// log.flush.offset.checkpoint.interval.ms: every broker writes
	// recovery-point-offset-checkpoint (every log's recovery point, the first
	// offset not flushed) at this fixed rate, the first time
	// [LogManagerInitialTaskDelayMs] after its start, and at once after a
	// truncation or a deleted partition ([KafkaLogFlushOffsetCheckpointIntervalMs]
	// is Kafka's 60000). 0, the default here: only at a clean shutdown, so
	// that a restart after a crash or a power cut recovers every segment.
	LogFlushOffsetCheckpointIntervalMs int64
	// LogFlushStartOffsetCheckpointIntervalMs is
	// log.flush.start.offset.checkpoint.interval.ms: every broker writes
	// log-start-offset-checkpoint at this fixed rate, the first time
	// [LogManagerInitialTaskDelayMs] after its start, after a deleted
	// partition and at a clean shutdown
	// ([KafkaLogFlushStartOffsetCheckpointIntervalMs] is Kafka's 60000). 0,
	// the default here: never (log start offsets then come from the first
	// segments' base offsets, as Kafka's would without the file).
	LogFlushStartOffsetCheckpointIntervalMs int64
	// DirtyExpireMs is the brokers' hosts' vm.dirty_expire_centisecs, in
	// milliseconds: with it the kernel's flusher writes back, on its own,
	// every file and directory dirty for this long (Linux: 30000,
	// [LinuxDirtyExpireMs]). 0, the default here: no flusher; dirty pages stay
	// in the page cache until Kafka syncs them (a rolled segment, a
	// checkpoint, a clean shutdown) or a [World.Writeback], as the guided
	// scenarios need.
	DirtyExpireMs int64
	// DirtyWritebackIntervalMs is vm.dirty_writeback_centisecs, in
	// milliseconds: how often the flusher wakes (default 5000, Linux's,
	// [LinuxDirtyWritebackIntervalMs]; used only with DirtyExpireMs).
	DirtyWritebackIntervalMs int64
	// Group is the brokers' group coordinator configuration (nil:
	// [group.DefaultConfig], group.initial.rebalance.delay.ms 3000).
	Group *group.Config
	// ConsumerGroup is the brokers' configuration of consumer-protocol
	// groups (KIP-848; nil: [group.DefaultConsumerGroupConfig],
	// group.consumer.session.timeout.ms 45000, heartbeat interval 5000).
	// The brokers serve that protocol under the rule sets of Kafka 4 only
	// ([Config.ConsumerGroupProtocol]).
	ConsumerGroup *group.ConsumerGroupConfig
	// CombinedControllers runs the controller inside the brokers (KRaft
	// combined mode, process.roles=broker,controller; every broker a
	// voter): the active controller starts on broker 1 and fails over to
	// the lowest-id running voter ControllerFailoverMs after its broker
	// stops, crashes or loses power (quorum.go). Off: a separate
	// controller node [ControllerID] that never fails.
	CombinedControllers bool
	// ControllerFailoverMs is how long the voters take to elect a new
	// active controller (default 3000: controller.quorum.fetch.timeout.ms
	// 2000 to notice, controller.quorum.election.timeout.ms 1000 to elect).
	ControllerFailoverMs int64
	// NetworkLatencyMs is how long every message takes from its sender to
	// its receiver (default 0: what is sent in a tick is delivered in that
	// tick). Messages arrive at the first tick at or after it, so any
	// latency up to TickMs costs one tick per hop: enough to see a moment
	// between a request and its answer, e.g. an eager group with every
	// member stopped before the new generation forms. Explicit deliveries
	// ([World.Deliver] with n > 0) ignore it.
	NetworkLatencyMs int64
	// BrokerRacks are the brokers' broker.rack, broker 1's first (nil: no
	// broker has one; else one per broker, "" for none). Metadata and
	// DescribeCluster report them to clients.
	BrokerRacks []string
	// ReplicaSelectorClass is the brokers' replica.selector.class: ""
	// (Kafka's default: consumers read from leaders) or
	// [RackAwareReplicaSelector], with which a leader sends a consumer
	// that says its rack (client.rack, Fetch v11+) to an in-sync replica
	// in that rack (KIP-392's follower fetching).
	ReplicaSelectorClass string
	// Timeline bounds the history the world keeps and speeds up its
	// timeline with snapshots (zero: no snapshots, keep everything).
	Timeline TimelineConfig
	// Parts replaces pieces of Kafka's algorithms with other implementations
	// (the learning kit's live mode, exercises/live); zero: the reference.
	Parts Parts
}

// TimelineConfig sets the world's snapshots and how much history it keeps.
// The zero value keeps every event, action and producer result, and
// [World.AtTime] replays from the start.
type TimelineConfig struct {
	// SnapshotEveryMs takes a snapshot (a [World.Clone]) after the first
	// action that ends at least this long after the last snapshot; the
	// new world is the first. [World.AtTime], [World.At] and
	// [World.AtEvent] replay from the nearest snapshot before the
	// moment. 0: no snapshots.
	SnapshotEveryMs int64
	// DenseMs and SparseEveryMs thin the snapshots out: those older than
	// DenseMs keep one per SparseEveryMs (the first of each such span of
	// time), so that older moments cost a longer replay. 0: no thinning.
	DenseMs, SparseEveryMs int64
	// KeepMs is the history kept: snapshots older than KeepMs fall off
	// (the oldest kept snapshot is the timeline's start, [World.StartMs]),
	// and with them the events, actions and finished producer results
	// before it. 0: keep everything. Needs SnapshotEveryMs.
	KeepMs int64
	// KeepBytes bounds the history by what replaying it needs: the bytes
	// of the external clients' requests (and produced values) recorded
	// since the oldest snapshot kept. Past it, the oldest snapshots fall
	// off as for KeepMs, and a snapshot is taken early once the actions
	// since the last one carry a quarter of it, so that a client producing
	// flat out cannot fill the memory with a timeline. 0: no bound. Needs
	// SnapshotEveryMs.
	KeepBytes int64
}

// DefaultControllerFailoverMs is [Config.ControllerFailoverMs]'s default.
const DefaultControllerFailoverMs = 3000

// DefaultLogConfig is Kafka's log configuration with small preallocated
// indexes (segment.index.bytes 1200, 100 entries, instead of 10 MiB), so that thousands of
// simulated worlds fit in memory. Nothing else differs from Kafka.
func DefaultLogConfig() kafkalog.Config {
	c := kafkalog.DefaultConfig()
	c.SegmentIndexBytes = 1200
	return c
}

func (c Config) withDefaults() (Config, error) {
	def := func(v *int64, d int64) {
		if *v == 0 {
			*v = d
		}
	}
	if c.Brokers == 0 {
		c.Brokers = DefaultBrokers
	}
	if c.MinInsyncReplicas == 0 {
		c.MinInsyncReplicas = replica.DefaultMinInsyncReplicas
	}
	def(&c.ReplicaLagTimeMaxMs, c.Rules.DefaultReplicaLagTimeMaxMs())
	def(&c.ControllerFailoverMs, DefaultControllerFailoverMs)
	def(&c.ReplicaFetchWaitMaxMs, replica.DefaultReplicaFetchWaitMaxMs)
	def(&c.FetchMaxBytes, DefaultFetchMaxBytes)
	def(&c.BrokerSessionTimeoutMs, DefaultBrokerSessionTimeoutMs)
	def(&c.BrokerHeartbeatIntervalMs, DefaultBrokerHeartbeatIntervalMs)
	def(&c.TickMs, DefaultTickMs)
	def(&c.LogRetentionCheckIntervalMs, DefaultLogRetentionCheckIntervalMs)
	def(&c.LogCleanerBackoffMs, DefaultLogCleanerBackoffMs)
	if c.DirtyExpireMs > 0 {
		def(&c.DirtyWritebackIntervalMs, LinuxDirtyWritebackIntervalMs)
	}
	if c.OffsetsTopicNumPartitions == 0 {
		c.OffsetsTopicNumPartitions = DefaultOffsetsTopicNumPartitions
	}
	if c.OffsetsRetentionMinutes == 0 {
		c.OffsetsRetentionMinutes = group.DefaultOffsetsRetentionMinutes
	}
	def(&c.OffsetsRetentionCheckIntervalMs, group.DefaultOffsetsRetentionCheckIntervalMs)
	if c.OffsetsTopicReplicationFactor == 0 {
		c.OffsetsTopicReplicationFactor = min(3, c.Brokers)
	}
	if c.TransactionStateLogNumPartitions == 0 {
		c.TransactionStateLogNumPartitions = txn.DefaultNumPartitions
	}
	if c.Group == nil {
		g := group.DefaultConfig()
		c.Group = &g
	}
	if c.ConsumerGroup == nil {
		g := group.DefaultConsumerGroupConfig()
		c.ConsumerGroup = &g
	}
	if c.Log == (kafkalog.Config{}) {
		c.Log = DefaultLogConfig()
	}
	if c.Log.MessageTimestampAfterMaxMs == math.MaxInt64 {
		c.Log.MessageTimestampAfterMaxMs = c.Rules.DefaultMessageTimestampAfterMaxMs()
	}
	c.BrokerRacks = slices.Clone(c.BrokerRacks) // the caller's slice may change
	switch {
	case c.Brokers < 1 || c.Brokers > 99:
		return c, fmt.Errorf("%w: Brokers %d not in 1..99", ErrInvalidConfig, c.Brokers)
	case !c.Rules.Valid():
		return c, fmt.Errorf("%w: Rules %d", ErrInvalidConfig, int(c.Rules))
	case c.ClockStartMs < 0:
		return c, fmt.Errorf("%w: ClockStartMs %d < 0", ErrInvalidConfig, c.ClockStartMs)
	case c.TickMs < 1:
		return c, fmt.Errorf("%w: TickMs %d < 1", ErrInvalidConfig, c.TickMs)
	case c.OffsetsTopicNumPartitions < 1 || c.OffsetsTopicReplicationFactor < 1 || c.OffsetsTopicReplicationFactor > c.Brokers:
		return c, fmt.Errorf("%w: offsets topic: %d partitions, replication factor %d", ErrInvalidConfig, c.OffsetsTopicNumPartitions, c.OffsetsTopicReplicationFactor)
	case c.TransactionStateLogNumPartitions < 1:
		return c, fmt.Errorf("%w: transaction.state.log.num.partitions %d", ErrInvalidConfig, c.TransactionStateLogNumPartitions)
	case c.OffsetsRetentionMinutes < 1 || c.OffsetsRetentionCheckIntervalMs < 1:
		return c, fmt.Errorf("%w: offsets retention %d minutes, checked every %d ms", ErrInvalidConfig, c.OffsetsRetentionMinutes, c.OffsetsRetentionCheckIntervalMs)
	case c.BrokerDiskBytes < 0:
		return c, fmt.Errorf("%w: broker disk %d bytes", ErrInvalidConfig, c.BrokerDiskBytes)
	case c.LogRetentionCheckIntervalMs < 1 || c.LogCleanerBackoffMs < 1:
		return c, fmt.Errorf("%w: retention check %d / cleaner backoff %d ms", ErrInvalidConfig, c.LogRetentionCheckIntervalMs, c.LogCleanerBackoffMs)
	case c.ReplicaHighWatermarkCheckpointIntervalMs < 0 || c.LogFlushOffsetCheckpointIntervalMs < 0 || c.LogFlushStartOffsetCheckpointIntervalMs < 0:
		return c, fmt.Errorf("%w: checkpoint intervals %d / %d / %d ms < 0", ErrInvalidConfig, c.ReplicaHighWatermarkCheckpointIntervalMs, c.LogFlushOffsetCheckpointIntervalMs, c.LogFlushStartOffsetCheckpointIntervalMs)
	case c.DirtyExpireMs < 0 || c.DirtyWritebackIntervalMs < 0:
		return c, fmt.Errorf("%w: dirty expire %d / writeback interval %d ms < 0", ErrInvalidConfig, c.DirtyExpireMs, c.DirtyWritebackIntervalMs)
	case c.FetchMaxBytes < 0 || c.FetchMaxBytes > math.MaxInt32:
		return c, fmt.Errorf("%w: FetchMaxBytes %d not in 0..%d", ErrInvalidConfig, c.FetchMaxBytes, math.MaxInt32)
	case c.NetworkLatencyMs < 0:
		return c, fmt.Errorf("%w: NetworkLatencyMs %d < 0", ErrInvalidConfig, c.NetworkLatencyMs)
	case c.BrokerSessionTimeoutMs < 0 || c.BrokerHeartbeatIntervalMs < 1:
		return c, fmt.Errorf("%w: broker session %d / heartbeat %d ms", ErrInvalidConfig, c.BrokerSessionTimeoutMs, c.BrokerHeartbeatIntervalMs)
	case c.BrokerRacks != nil && len(c.BrokerRacks) != c.Brokers:
		return c, fmt.Errorf("%w: %d broker racks for %d brokers", ErrInvalidConfig, len(c.BrokerRacks), c.Brokers)
	case c.ReplicaSelectorClass != "" && c.ReplicaSelectorClass != RackAwareReplicaSelector:
		return c, fmt.Errorf("%w: replica.selector.class %q: the simulation knows %s", ErrInvalidConfig, c.ReplicaSelectorClass, RackAwareReplicaSelector)
	}
	if _, err := group.NewCoordinator(*c.Group, &group.MemoryOffsetStore{}, 0); err != nil {
		return c, err
	}
	if _, err := group.NewConsumerGroupCoordinator(*c.ConsumerGroup, &group.MemoryOffsetStore{}, 0); err != nil {
		return c, err
	}
	if t := c.Timeline; t.SnapshotEveryMs < 0 || t.KeepMs < 0 || t.KeepBytes < 0 || t.DenseMs < 0 || t.SparseEveryMs < 0 ||
		(t.KeepMs > 0 || t.KeepBytes > 0 || t.SparseEveryMs > 0) && t.SnapshotEveryMs == 0 {
		return c, fmt.Errorf("%w: timeline: snapshot every %d ms, keep %d ms", ErrInvalidConfig, t.SnapshotEveryMs, t.KeepMs)
	}
	return c, c.Log.Validate()
}

// ConsumerGroupProtocol reports whether the brokers serve the consumer
// group protocol of KIP-848 (group.coordinator.rebalance.protocols holds
// "consumer"): on by default from Kafka 4.0; Kafka 3.7 shipped it as early
// access, off, and answers a ConsumerGroupHeartbeat UNSUPPORTED_VERSION.
func (c Config) ConsumerGroupProtocol() bool { return c.Rules >= replica.Modern }

// worldMs is a time of Kafka's clock (a machine's deadline) as the
// world's time, from 0 when the world started.
func (c Config) worldMs(clockMs int64) int64 { return clockMs - c.ClockStartMs }

// zkEra reports whether the controller follows ZooKeeper-era epoch rules.
func (c Config) zkEra() bool { return c.Rules < replica.V3_7 }
