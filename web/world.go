package web

import (
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// This file is the one adapter between the page and the cluster package:
// the default world and the few cluster calls the page makes.

// DefaultSeed seeds the default world.
const DefaultSeed = 7

// DefaultConfig is the default world's cluster: three brokers under the
// modern (KRaft, Kafka 3.7+) rules with min.insync.replicas=2, so that
// acks=all needs two replicas in the ISR.
func DefaultConfig() cluster.Config {
	return cluster.Config{
		Seed:              DefaultSeed,
		Brokers:           3,
		Rules:             replica.Modern,
		MinInsyncReplicas: 2,
		TickMs:            cluster.DefaultTickMs,
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

// DefaultProducers are the default world's producers.
//
// profile-svc should send 1.5 records a second; the cluster's
// ProducerConfig.RecordsPerSec is a whole number, so it sends 2 until the
// cluster takes fractional rates.
func DefaultProducers() []cluster.ProducerConfig {
	return []cluster.ProducerConfig{
		{Name: "checkout", Topic: "orders", Acks: "all", Keys: []string{"alice", "bob", "carol", "dave"}, RecordsPerSec: 3},
		{Name: "clicks", Topic: "orders", Acks: "1", RecordsPerSec: 2},
		{Name: "profile-svc", Topic: "profiles", Acks: "all", Keys: []string{"u1", "u2", "u3"}, RecordsPerSec: 2},
	}
}

// NewDefaultWorld builds the default world at time 0: brokers 1, 2 and 3,
// the topics and the producers. The consumer groups billing and
// search-index join once the cluster has consumer groups (issue 6).
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
	return w, nil
}

// producerConfigs returns the configs of w's producers, read from the
// actions that added them, by name.
func producerConfigs(w *cluster.World) map[string]cluster.ProducerConfig {
	out := map[string]cluster.ProducerConfig{}
	for _, a := range w.Actions() {
		if a.Kind == cluster.ActAddProducer {
			out[a.Producer.Name] = a.Producer
		}
	}
	return out
}

// consumerConfigs returns the configs of w's simple consumers, by name.
func consumerConfigs(w *cluster.World) map[string]cluster.ConsumerConfig {
	out := map[string]cluster.ConsumerConfig{}
	for _, a := range w.Actions() {
		if a.Kind == cluster.ActAddConsumer {
			out[a.Consumer.Name] = a.Consumer
		}
	}
	return out
}
