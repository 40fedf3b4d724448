package web

import (
	"sort"

	"github.com/kafkalive/kafkalive/cluster"
)

// This file is the one adapter between the page and the cluster package:
// the default world and the few cluster calls the page makes.

// OffsetsTopicPartitions is the default world's
// offsets.topic.num.partitions.
var OffsetsTopicPartitions = DefaultConfig().OffsetsTopicNumPartitions

// DefaultSeed seeds the default world.
const DefaultSeed = 7

// DefaultTimeline is the default world's timeline (see
// [cluster.UserWorldConfig]): a moment of the last minute is at most 10 s
// of replay away, an older one at most two minutes.
var DefaultTimeline = DefaultConfig().Timeline

// DefaultConfig is the default world's cluster, [cluster.UserWorldConfig]
// with [DefaultSeed]: its one definition lives in package cluster, where
// the user-level explorer builds the same world.
func DefaultConfig() cluster.Config { return cluster.UserWorldConfig(DefaultSeed) }

// DefaultTopics are the default world's topics ([cluster.UserWorldTopics]).
func DefaultTopics() []cluster.TopicSpec { return cluster.UserWorldTopics() }

// DefaultProducers are the default world's producers
// ([cluster.UserWorldProducers]).
func DefaultProducers() []cluster.ProducerConfig { return cluster.UserWorldProducers() }

// DefaultConsumers are the default world's consumer group members
// ([cluster.UserWorldConsumers]).
func DefaultConsumers() []cluster.ConsumerConfig { return cluster.UserWorldConsumers() }

// NewDefaultWorld builds the default world at time 0: brokers 1, 2 and 3,
// the topics, the producers and the consumer groups.
func NewDefaultWorld() (*cluster.World, error) { return cluster.NewUserWorld(DefaultSeed) }

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
