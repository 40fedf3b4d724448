package web

import (
	"sort"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// This file is the one adapter between the page and the cluster package:
// the default world and the few cluster calls the page makes.

// OffsetsTopicPartitions is the default world's
// offsets.topic.num.partitions.
const OffsetsTopicPartitions = 3

// DefaultSeed seeds the default world.
const DefaultSeed = 7

// DefaultTimeline is the default world's timeline: a snapshot every 10
// simulated seconds for the last minute, one every two minutes before that, and
// the last 10 simulated minutes kept (older snapshots, events, actions
// and producer results fall off), so that a world left running keeps
// bounded memory; a moment of the last minute is at most 10 s of replay
// away, an older one at most two minutes.
var DefaultTimeline = cluster.TimelineConfig{SnapshotEveryMs: 10_000, DenseMs: 60_000, SparseEveryMs: 120_000, KeepMs: 10 * 60_000}

// DefaultConfig is the default world's cluster: three brokers under the
// modern (KRaft, Kafka 3.7+) rules with min.insync.replicas=2, so that
// acks=all needs two replicas in the ISR, and the controller inside them
// (KRaft combined mode: voters 1, 2, 3, the active controller on broker
// 1 until it goes away).
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
// Its __consumer_offsets has OffsetsTopicPartitions partitions instead of
// Kafka's 50: the simulation ticks every replica, and with 150 replicas of
// the offsets topic a simulated minute cost five times as much.
func DefaultConfig() cluster.Config {
	log := cluster.DefaultLogConfig()
	log.SegmentBytes = 16 << 10
	log.RetentionMs = 5 * 60 * 1000
	return cluster.Config{
		Timeline:                    DefaultTimeline,
		CombinedControllers:         true,
		Seed:                        DefaultSeed,
		Brokers:                     3,
		Rules:                       replica.Modern,
		MinInsyncReplicas:           2,
		TickMs:                      cluster.DefaultTickMs,
		Log:                         log,
		LogRetentionCheckIntervalMs: 60 * 1000,
		OffsetsTopicNumPartitions:   OffsetsTopicPartitions,

		ReplicaHighWatermarkCheckpointIntervalMs: cluster.KafkaReplicaHighWatermarkCheckpointIntervalMs,
		LogFlushOffsetCheckpointIntervalMs:       cluster.KafkaLogFlushOffsetCheckpointIntervalMs,
		LogFlushStartOffsetCheckpointIntervalMs:  cluster.KafkaLogFlushStartOffsetCheckpointIntervalMs,
		DirtyExpireMs:                            cluster.LinuxDirtyExpireMs,
		DirtyWritebackIntervalMs:                 cluster.LinuxDirtyWritebackIntervalMs,
	}
}

// DefaultTopics are the default world's topics. orders has three
// partitions, so that keys spread over them and the sticky partitioner has a
// choice; profiles has one, so that a second member of a group on it has no
// partition.
func DefaultTopics() []cluster.TopicSpec {
	return []cluster.TopicSpec{
		{Name: "orders", Partitions: 3, ReplicationFactor: 3},
		{Name: "profiles", Partitions: 1, ReplicationFactor: 3},
	}
}

// DefaultProducers are the default world's producers; profile-svc sends
// 1.5 records a second.
func DefaultProducers() []cluster.ProducerConfig {
	return []cluster.ProducerConfig{
		{Name: "checkout", Topic: "orders", Acks: "all", Keys: []string{"alice", "bob", "carol", "dave"}, RecordsPerSec: 3},
		{Name: "clicks", Topic: "orders", Acks: "1", RecordsPerSec: 2},
		{Name: "profile-svc", Topic: "profiles", Acks: "all", Keys: []string{"u1", "u2", "u3"}, Rate: 1.5},
	}
}

// DefaultConsumers are the default world's consumer group members: billing
// (billing-1 and billing-2, about 3 records a second each) reads orders;
// search-index (indexer, about 8 a second) reads profiles. A member's rate
// is max.poll.records per poll interval.
func DefaultConsumers() []cluster.ConsumerConfig {
	return []cluster.ConsumerConfig{
		{Name: "billing-1", Group: "billing", Topics: []string{"orders"}, PollIntervalMs: 1000, MaxPollRecords: 3},
		{Name: "billing-2", Group: "billing", Topics: []string{"orders"}, PollIntervalMs: 1000, MaxPollRecords: 3},
		{Name: "indexer", Group: "search-index", Topics: []string{"profiles"}, PollIntervalMs: 1000, MaxPollRecords: 8},
	}
}

// NewDefaultWorld builds the default world at time 0: brokers 1, 2 and 3,
// the topics, the producers and the consumer groups.
func NewDefaultWorld() (*cluster.World, error) {
	w, err := cluster.New(DefaultConfig())
	if err != nil {
		return nil, err
	}
	for _, t := range DefaultTopics() {
		if err := w.CreateTopic(t); err != nil {
			return nil, err
		}
	}
	for _, p := range DefaultProducers() {
		if err := w.AddProducer(p); err != nil {
			return nil, err
		}
	}
	for _, c := range DefaultConsumers() {
		if err := w.AddConsumer(c); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// producerConfigs returns the configs of w's producers, by name.
func producerConfigs(w *cluster.World) map[string]cluster.ProducerConfig {
	out := map[string]cluster.ProducerConfig{}
	for _, p := range w.Producers() {
		out[p.Name()] = p.Config()
	}
	return out
}

// eventsSince returns w's events numbered seq or later.
func eventsSince(w *cluster.World, seq int) []cluster.Event {
	evs := w.Events()
	i := sort.Search(len(evs), func(i int) bool { return evs[i].Seq >= seq })
	return evs[i:]
}

// nextSeq returns the number the next event of w will have.
func nextSeq(w *cluster.World) int {
	evs := w.Events()
	if len(evs) == 0 {
		return 0
	}
	return evs[len(evs)-1].Seq + 1
}
