package broker

import (
	"math/rand/v2"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

type tp = kafkalog.TopicPartition

// Config is a broker's static configuration; the field names are the
// world's (cluster.Config), which Kafka's configuration keys name.
type Config struct {
	// ID is the broker's id (1..).
	ID int32
	// Rules is the Kafka version whose replication rules its replicas
	// follow.
	Rules replica.RuleSet
	// DiskBytes bounds its disk (0: no bound).
	DiskBytes int64
	// ReplicaLagTimeMaxMs and ReplicaFetchWaitMaxMs are its replicas'
	// replica.lag.time.max.ms and replica.fetch.wait.max.ms.
	ReplicaLagTimeMaxMs, ReplicaFetchWaitMaxMs int64
	// BrokerHeartbeatIntervalMs is broker.heartbeat.interval.ms.
	BrokerHeartbeatIntervalMs int64
	// LogRetentionCheckIntervalMs and LogCleanerBackoffMs schedule its log
	// manager's retention and cleaner.
	LogRetentionCheckIntervalMs, LogCleanerBackoffMs int64
	// FileDeleteDelayMs is file.delete.delay.ms: how long a deleted
	// topic's renamed directories wait before they are removed.
	FileDeleteDelayMs int64
	// The checkpoint schedules (0: off; see cluster.Config).
	ReplicaHighWatermarkCheckpointIntervalMs int64
	LogFlushOffsetCheckpointIntervalMs       int64
	LogFlushStartOffsetCheckpointIntervalMs  int64
	// DirtyExpireMs and DirtyWritebackIntervalMs are its host's kernel
	// flusher (0: none).
	DirtyExpireMs, DirtyWritebackIntervalMs int64
	// ClockStartMs is the clock's time when the world, and the broker's
	// host, started: the kernel's flusher wakes every
	// DirtyWritebackIntervalMs from then, and the byte rates count whole
	// seconds from then.
	ClockStartMs int64
	// OffsetsTopicNumPartitions is offsets.topic.num.partitions.
	OffsetsTopicNumPartitions int
	// OffsetsRetentionMinutes is offsets.retention.minutes and
	// OffsetsRetentionCheckIntervalMs offsets.retention.check.interval.ms:
	// its coordinator expires committed offsets (offsetexpiry.go); 0: it
	// never does.
	OffsetsRetentionMinutes         int
	OffsetsRetentionCheckIntervalMs int64
	// Group configures its group coordinator.
	Group group.Config
	// Txn configures its transaction coordinator (BrokerID and
	// OffsetsTopicNumPartitions are the broker's).
	Txn txn.Config
	// ConsumerGroup configures its coordinator of consumer-protocol groups
	// (group.consumer.*); the zero value is Kafka 4's defaults.
	ConsumerGroup group.ConsumerGroupConfig
	// ConsumerGroupProtocol is whether group.coordinator.rebalance.protocols
	// holds "consumer": Kafka 4's default; Kafka 3.7 ships KIP-848 as early
	// access, off, and answers ConsumerGroupHeartbeat UNSUPPORTED_VERSION.
	ConsumerGroupProtocol bool
	// TransactionPartitionVerification is
	// transaction.partition.verification.enable: its leaders verify a
	// transactional batch with the producer's coordinator before
	// appending it (verify.go).
	TransactionPartitionVerification bool
	// ClusterID is cluster.id, which Metadata answers.
	ClusterID string
	// TopicDefaults are the brokers' topic configs (log.*,
	// min.insync.replicas, unclean.leader.election.enable): what a topic
	// that sets none of its own has, as DescribeConfigs reports it.
	TopicDefaults topicconfig.Settings
	// AutoCreateTopicsEnable is auto.create.topics.enable: a client's
	// Metadata request for a topic that does not exist creates it.
	AutoCreateTopicsEnable bool
	// FetchMaxBytes is fetch.max.bytes: the most bytes a consumer's fetch
	// gets (but for the first batch, which comes whole).
	FetchMaxBytes int64
	// CombinedControllers says the brokers run the controller too
	// (process.roles=broker,controller).
	CombinedControllers bool
	// TickEveryReplica ticks every replica at every step, not only those
	// whose tick is due (timers.go): the reference the tests hold the
	// timers to.
	TickEveryReplica bool
	// Racks are the broker.rack of brokers 1..n, as they registered with
	// the controller and every broker's metadata cache knows them (nil:
	// no broker has one). Metadata and DescribeCluster report them; with
	// ReplicaSelectorClass the leaders send consumers to a replica in
	// their rack (KIP-392).
	Racks []string
	// ReplicaSelectorClass is replica.selector.class ("": none, Kafka's
	// default; the leader alone serves consumers). [RackAwareSelector] is
	// the one Kafka ships.
	ReplicaSelectorClass string
	// Parts are the learner's implementations its logs and replicas run.
	Parts Parts
}

// Parts are the pieces of Kafka a learner may plug into the brokers
// (cluster.Parts; the zero value is the reference everywhere).
type Parts struct {
	// Log goes to every partition log it opens, but the internal topic's.
	Log kafkalog.Parts
	// ValidateBatches: the producers' batches come from a learner's
	// encoder, and the leaders check them as Kafka's LogValidator does.
	ValidateBatches bool
	// TruncationPoint and Truncate are the followers' truncation rules
	// (replica.Config's).
	TruncationPoint func(own []replica.EpochEntry, leo, hw int64, answer replica.EpochEndOffset) (offset int64, done bool, ok bool)
	Truncate        func(f replica.FollowerState, ask func(epoch int32) replica.EpochEndOffset) (replica.FollowerState, bool)
}

// Env is what a broker needs from the world around it.
type Env interface {
	event.Recorder
	// Now is the world's time in milliseconds, and Clock points at it
	// (the replica logs read it at each append).
	Now() int64
	Clock() *int64
	// Rand is the world's one random generator (torn writes, the names
	// of deleted directories).
	Rand() *rand.Rand
	// Send puts a message on the network; DropFrom drops what a broker
	// sent that is still in flight (its process died with it);
	// OpenRequest and CloseRequest keep a follower's request and its
	// answer on one connection (netsim.Network).
	Send(e netsim.Envelope)
	DropFrom(id int32)
	OpenRequest(leader, follower int32, k tp, corr int64, inc int)
	CloseRequest(leader, follower int32, k tp, corr int64) int
	// Topics and Settings are the metadata (the controller's), Leader a
	// partition's leader there.
	Topics() []metadata.Topic
	Settings(topic string) topicconfig.Settings
	Leader(k tp) int32
	// InternalError records an internal error; the broker named halts.
	InternalError(broker int32, err error)
	// RequestFailed tells consumer client (incarnation inc) that its
	// request r to this broker's coordinator failed with the connection.
	RequestFailed(broker int32, client string, inc int, r group.Request)
	// ExternalGroupAnswered takes a coordinator answer meant for an
	// external client (true), and UnloadResignedExternal answers the
	// external members waiting at a coordinator that resigned.
	ExternalGroupAnswered(broker int32, o group.Outgoing) bool
	UnloadResignedExternal(broker int32)
	// BrokerEpoch is the broker epoch the controller registered broker id's
	// incarnation inc with (BrokerRegistrationResponse's), false while it
	// has not: what a clean shutdown writes in the marker.
	BrokerEpoch(id int32, inc int) (int64, bool)
	// BecameLeader tells that broker's replica of k took over its
	// leadership in epoch with its log ending at leo: a record a producer
	// was told is stored at leo or beyond is lost after its
	// acknowledgement.
	BecameLeader(broker int32, k tp, epoch int32, leo int64)
	// AllocateProducerID returns a new producer id of the cluster's
	// (Kafka's ProducerIdManager): the transaction coordinators' and
	// InitProducerId's.
	AllocateProducerID() int64
	// BrokerGone reports whether broker id's process, at incarnation inc
	// when a request was sent to it, ended or restarted since;
	// BrokerIncarnation is its incarnation now.
	BrokerGone(id int32, inc int) bool
	BrokerIncarnation(id int32) int
	// Cut reports whether the link between nodes a and b is cut.
	Cut(a, b int32) bool
}

// APIEnv is what the Kafka APIs a broker serves to clients need beyond its
// [Env]: the controller's metadata a broker's metadata cache holds, the
// controller's answers to the admin requests a broker forwards to it
// (KRaft's ForwardingManager: the checks are the controller's), and the
// world's changes those requests make once the controller took them (a
// topic's replicas opened on every broker, its configs applied to the
// running replicas).
type APIEnv interface {
	Env
	// Alive returns the brokers the controller counts as alive
	// (registered and unfenced), by id; Partition a partition's state
	// there (false when unknown).
	Alive() []int32
	Partition(k tp) (replica.LeaderAndISR, bool)
	// Coordinator returns the broker that coordinates group (the running
	// leader of its __consumer_offsets partition), false if none;
	// EnsureOffsetsTopic creates __consumer_offsets on its first use.
	Coordinator(group string) (int32, bool)
	EnsureOffsetsTopic() error
	// TxnCoordinator returns the broker that coordinates transactional id
	// id (the running leader of its __transaction_state partition, which
	// loaded it), false if none; EnsureTxnStateTopic creates
	// __transaction_state on its first use.
	TxnCoordinator(id string) (int32, bool)
	EnsureTxnStateTopic() error
	// CheckCreateTopic is the controller's check of a topic to create: the
	// spec that creates it, or Kafka's error code and message;
	// CreateTopic creates it.
	CheckCreateTopic(t kmsg.CreateTopicsRequestTopic) (metadata.TopicSpec, int16, string)
	CreateTopic(spec metadata.TopicSpec) error
	// CheckCreatePartitions is the controller's check of a topic's
	// growth: the replicas of the partitions to add, or Kafka's error code
	// and message; AddPartitions adds them (by says who asked).
	CheckCreatePartitions(t kmsg.CreatePartitionsRequestTopic) ([][]int32, int16, string)
	AddPartitions(topic string, replicas [][]int32, by string) error
	// TopicInUse reports whether the world's own producers or simple
	// consumers use topic (they are not written to lose it); DeleteTopic
	// deletes it.
	TopicInUse(topic string) bool
	DeleteTopic(topic, by string)
	// CheckAlterConfigs is the controller's check of altering topic's
	// configs: the topic's configs after ops (with replace, ops are all
	// of them), or Kafka's error code and message; AlterConfigs gives
	// the topic those configs and the running replicas apply them.
	CheckAlterConfigs(topic string, ops []topicconfig.Op, replace bool) (metadata.TopicSpec, int16, string)
	AlterConfigs(topic string, spec metadata.TopicSpec, by string)
	// Fenced returns the brokers registered with the controller and
	// fenced, by id (DescribeCluster v2 lists them, KIP-1073).
	Fenced() []int32
	// DescribeQuorum is the metadata quorum as its leader describes it
	// (DescribeQuorum, forwarded to the controller); false while no
	// controller is active.
	DescribeQuorum() (metadata.QuorumDescription, bool)
}
