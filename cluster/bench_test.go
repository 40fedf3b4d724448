package cluster_test

import (
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/stretchr/testify/require"
)

// BenchmarkEvents measures simulated events per second: three brokers, a
// topic of three partitions, a keyed producer at 200 records/s, acks=all,
// ten simulated seconds per iteration.
func BenchmarkEvents(b *testing.B) {
	events := 0
	for b.Loop() {
		w, err := cluster.New(cluster.Config{Seed: 1, MinInsyncReplicas: 2, Rules: replica.Modern})
		require.NoError(b, err)
		require.NoError(b, w.CreateTopic(cluster.TopicSpec{Name: "orders", Partitions: 3}))
		require.NoError(b, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "orders", Keys: []string{"a", "b", "c", "d"}, RecordsPerSec: 200}))
		require.NoError(b, w.RunFor(10000))
		events += len(w.Events())
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkKIP101Part3 runs the whole KIP-101 part 3 scenario.
func BenchmarkKIP101Part3(b *testing.B) {
	for b.Loop() {
		kip101Part3(b, replica.V0_10)
	}
}

// BenchmarkAtReplay measures showing a past moment: replaying the KIP-101
// part 3 timeline up to its last action.
func BenchmarkAtReplay(b *testing.B) {
	w, _ := kip101Part3(b, replica.V0_10)
	last := len(w.Actions()) - 1
	for b.Loop() {
		if _, err := w.At(last); err != nil {
			b.Fatal(err)
		}
	}
}
