package cluster

import "github.com/kafkalive/kafkalive/replica"

// UserWorldConfig is the configuration of the world kafkalive serves
// (web.DefaultConfig, which a test in cmd/kafkalive keeps equal to it),
// seeded with seed: three brokers under the modern rules with
// min.insync.replicas 2 in KRaft combined mode, 16 KiB segments, 5
// minutes of retention checked every minute, three __consumer_offsets
// partitions, Kafka's checkpoint schedules, Linux's flusher with its
// defaults (what has been dirty for 30 s is written back every 5 s), and
// a timeline with a snapshot every 10 s kept for 10 minutes.
func UserWorldConfig(seed uint64) Config {
	log := DefaultLogConfig()
	log.SegmentBytes = 16 << 10
	log.RetentionMs = 5 * 60 * 1000
	return Config{
		Timeline:                    TimelineConfig{SnapshotEveryMs: 10_000, DenseMs: 60_000, SparseEveryMs: 120_000, KeepMs: 10 * 60_000},
		CombinedControllers:         true,
		Seed:                        seed,
		Brokers:                     3,
		Rules:                       replica.Modern,
		MinInsyncReplicas:           2,
		TickMs:                      DefaultTickMs,
		Log:                         log,
		LogRetentionCheckIntervalMs: 60 * 1000,
		OffsetsTopicNumPartitions:   3,

		ReplicaHighWatermarkCheckpointIntervalMs: KafkaReplicaHighWatermarkCheckpointIntervalMs,
		LogFlushOffsetCheckpointIntervalMs:       KafkaLogFlushOffsetCheckpointIntervalMs,
		LogFlushStartOffsetCheckpointIntervalMs:  KafkaLogFlushStartOffsetCheckpointIntervalMs,
		DirtyExpireMs:                            LinuxDirtyExpireMs,
		DirtyWritebackIntervalMs:                 LinuxDirtyWritebackIntervalMs,
	}
}

// UserWorldTopics, UserWorldProducers and UserWorldConsumers are the
// topics, producers and consumer group members of the world kafkalive
// serves (web.DefaultTopics, DefaultProducers, DefaultConsumers).
func UserWorldTopics() []TopicSpec {
	return []TopicSpec{
		{Name: "orders", Partitions: 3, ReplicationFactor: 3},
		{Name: "profiles", Partitions: 1, ReplicationFactor: 3},
	}
}

// UserWorldProducers: see [UserWorldTopics].
func UserWorldProducers() []ProducerConfig {
	return []ProducerConfig{
		{Name: "checkout", Topic: "orders", Acks: "all", Keys: []string{"alice", "bob", "carol", "dave"}, RecordsPerSec: 3},
		{Name: "clicks", Topic: "orders", Acks: "1", RecordsPerSec: 2},
		{Name: "profile-svc", Topic: "profiles", Acks: "all", Keys: []string{"u1", "u2", "u3"}, Rate: 1.5},
	}
}

// UserWorldConsumers: see [UserWorldTopics].
func UserWorldConsumers() []ConsumerConfig {
	return []ConsumerConfig{
		{Name: "billing-1", Group: "billing", Topics: []string{"orders"}, PollIntervalMs: 1000, MaxPollRecords: 3},
		{Name: "billing-2", Group: "billing", Topics: []string{"orders"}, PollIntervalMs: 1000, MaxPollRecords: 3},
		{Name: "indexer", Group: "search-index", Topics: []string{"profiles"}, PollIntervalMs: 1000, MaxPollRecords: 8},
	}
}

// NewUserWorld builds the world kafkalive serves, seeded with seed, at
// time 0 (what web.NewDefaultWorld builds with its seed): the
// user-level explorer's default [UserExploreConfig.NewWorld].
func NewUserWorld(seed uint64) (*World, error) {
	w, err := New(UserWorldConfig(seed))
	if err != nil {
		return nil, err
	}
	for _, t := range UserWorldTopics() {
		if err := w.CreateTopic(t); err != nil {
			return nil, err
		}
	}
	for _, p := range UserWorldProducers() {
		if err := w.AddProducer(p); err != nil {
			return nil, err
		}
	}
	for _, c := range UserWorldConsumers() {
		if err := w.AddConsumer(c); err != nil {
			return nil, err
		}
	}
	return w, nil
}
