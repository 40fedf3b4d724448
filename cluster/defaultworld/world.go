package defaultworld

import (
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// Seed seeds the world the page serves.
const Seed = 7

// ClientSegmentBytes is the world's Config.ClientTopicSegmentBytes: 2 MiB.
const ClientSegmentBytes = 2 << 20

// KeepBytes is the world's TimelineConfig.KeepBytes: the external
// requests its timeline keeps to replay.
const KeepBytes = 256 << 20

// DiskBytes is the world's Config.BrokerDiskBytes: each broker's disk,
// which is the host's memory. A client producing flat out into a topic
// without retention fills it (a broker whose disk is full halts, as
// Kafka's does) instead of the host's memory.
const DiskBytes = 2 << 30

// Config is the configuration of the world kafkalive serves (the page
// seeds it with [Seed]), seeded with seed: three brokers under the modern
// (KRaft, Kafka 3.7+) rules with min.insync.replicas=2, so that acks=all
// needs two replicas in the ISR, and the controller inside them (KRaft
// combined mode: voters 1, 2, 3, the active controller on broker 1 until
// it goes away).
//
// Its logs are small, unlike Kafka's defaults (segment.bytes 1 GiB,
// retention.ms 7 days, log.retention.check.interval.ms 5 minutes), so that
// the page shows segments rolling and being deleted within minutes, and so
// that a world left running keeps bounded logs: 16 KiB segments, 5 minutes
// of retention, checked every minute.
//
// Its brokers write their checkpoint files on Kafka's schedules
// (replication-offset-checkpoint every 5 s, recovery-point-offset-checkpoint
// and log-start-offset-checkpoint every minute) and run on Linux hosts with
// Linux's defaults: every 5 s the kernel writes back what has been dirty
// for 30 s, so a power cut loses at most the last 35 s or so of writes.
//
// Its __consumer_offsets has 3 partitions instead of Kafka's 50: each
// follower replica fetches from its leader twice a second, written to or
// not (a fetch per partition: the simulation has no fetch sessions), and
// with 150 replicas of the offsets topic a simulated minute costs several
// times as much. Its timeline takes a
// snapshot every 10 simulated seconds for the last minute, one every two
// minutes before that, and keeps the last 10 simulated minutes (older
// snapshots, events, actions and producer results fall off), so that a
// world left running keeps bounded memory; and at most [KeepBytes] of
// external clients' requests, so that a client producing flat out does
// too (its history then reaches back less than 10 minutes); each broker's
// disk holds [DiskBytes]. Its segments are 16 KiB, to watch them roll, but
// a topic a client or kafka-topics --create makes without its own
// segment.bytes gets [ClientSegmentBytes], which holds any batch
// max.message.bytes allows.
func Config(seed uint64) cluster.Config {
	log := cluster.DefaultLogConfig()
	log.SegmentBytes = 16 << 10
	log.RetentionMs = 5 * 60 * 1000
	return cluster.Config{
		Timeline:                    cluster.TimelineConfig{SnapshotEveryMs: 10_000, DenseMs: 60_000, SparseEveryMs: 120_000, KeepMs: 10 * 60_000, KeepBytes: KeepBytes},
		BrokerDiskBytes:             DiskBytes,
		ClientTopicSegmentBytes:     ClientSegmentBytes,
		CombinedControllers:         true,
		Seed:                        seed,
		Brokers:                     3,
		Rules:                       replica.Modern,
		MinInsyncReplicas:           2,
		TickMs:                      cluster.DefaultTickMs,
		Log:                         log,
		LogRetentionCheckIntervalMs: 60 * 1000,
		OffsetsTopicNumPartitions:   3,

		ReplicaHighWatermarkCheckpointIntervalMs: cluster.KafkaReplicaHighWatermarkCheckpointIntervalMs,
		LogFlushOffsetCheckpointIntervalMs:       cluster.KafkaLogFlushOffsetCheckpointIntervalMs,
		LogFlushStartOffsetCheckpointIntervalMs:  cluster.KafkaLogFlushStartOffsetCheckpointIntervalMs,
		DirtyExpireMs:                            cluster.LinuxDirtyExpireMs,
		DirtyWritebackIntervalMs:                 cluster.LinuxDirtyWritebackIntervalMs,
	}
}

// Topics, Producers and Consumers are the topics, producers and consumer
// group members of the world kafkalive serves. orders has three
// partitions, so that keys spread over them and the keyless partitioner
// has a choice; profiles has one, so that a second member of a group on it
// has no partition. billing (billing-1 and billing-2, about 3 records a
// second each) reads orders; search-index (indexer, about 8 a second)
// reads profiles: a member's rate is max.poll.records per poll interval.
// profile-svc sends 1.5 records a second.
func Topics() []cluster.TopicSpec {
	return []cluster.TopicSpec{
		{Name: "orders", Partitions: 3, ReplicationFactor: 3},
		{Name: "profiles", Partitions: 1, ReplicationFactor: 3},
	}
}

// Producers: see [Topics].
func Producers() []cluster.ProducerConfig {
	return []cluster.ProducerConfig{
		{Name: "checkout", Topic: "orders", Acks: "all", Keys: []string{"alice", "bob", "carol", "dave"}, RecordsPerSec: 3},
		{Name: "clicks", Topic: "orders", Acks: "1", RecordsPerSec: 2},
		{Name: "profile-svc", Topic: "profiles", Acks: "all", Keys: []string{"u1", "u2", "u3"}, Rate: 1.5},
	}
}

// Consumers: see [Topics].
func Consumers() []cluster.ConsumerConfig {
	return []cluster.ConsumerConfig{
		{Name: "billing-1", Group: "billing", Topics: []string{"orders"}, PollIntervalMs: 1000, MaxPollRecords: 3},
		{Name: "billing-2", Group: "billing", Topics: []string{"orders"}, PollIntervalMs: 1000, MaxPollRecords: 3},
		{Name: "indexer", Group: "search-index", Topics: []string{"profiles"}, PollIntervalMs: 1000, MaxPollRecords: 8},
	}
}

// New builds the world kafkalive serves, seeded with seed, at time 0 (the
// page builds it with [Seed]).
func New(seed uint64) (*cluster.World, error) { return NewWith(Config(seed)) }

// NewWith builds the topics, producers and consumers of the world
// kafkalive serves on a cluster of cfg: [Config] with something changed
// (the learner's parts plugged in, other rules).
func NewWith(cfg cluster.Config) (*cluster.World, error) {
	w, err := cluster.New(cfg)
	if err != nil {
		return nil, err
	}
	for _, t := range Topics() {
		if err := w.CreateTopic(t); err != nil {
			return nil, err
		}
	}
	for _, p := range Producers() {
		if err := w.AddProducer(p); err != nil {
			return nil, err
		}
	}
	for _, c := range Consumers() {
		if err := w.AddConsumer(c); err != nil {
			return nil, err
		}
	}
	return w, nil
}
