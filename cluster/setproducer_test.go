package cluster_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/stretchr/testify/require"
)

func TestSetProducerChangesRateAcksAndKeys(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 3, Brokers: 3, MinInsyncReplicas: 2})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 2, ReplicationFactor: 3}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "1", Rate: 1.5}))
	require.NoError(t, w.RunFor(10000))
	p := w.Producers()[0]
	if got := len(p.Results()); got != 15 {
		t.Fatalf("a producer at 1.5 records a second sent %d records in 10 s, want 15", got)
	}
	require.NoError(t, w.SetProducer("p", 4, "all", []string{"k"}))
	require.NoError(t, w.RunFor(5000))
	rs := p.Results()[15:]
	if len(rs) != 20 {
		t.Fatalf("at 4 records a second the producer sent %d records in 5 s, want 20", len(rs))
	}
	for _, r := range rs {
		if r.Key != "k" || r.Acks != -1 {
			t.Fatalf("a record sent after set-producer keys=k acks=all has key %q and acks %d", r.Key, r.Acks)
		}
	}
	got := []any{p.RatePerSec(), p.Config().Acks, p.Config().Keys}
	if diff := cmp.Diff([]any{4.0, "all", []string{"k"}}, got); diff != "" {
		t.Fatalf("the producer's settings after set-producer (-want +got):\n%s", diff)
	}
}

func TestSetProducerRefusesBadSettings(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 3, Brokers: 1})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 1}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t"}))
	for _, tc := range []struct {
		name, producer, acks string
		rate                 float64
	}{
		{"no such producer", "q", "1", 1},
		{"acks 2", "p", "2", 1},
		{"a negative rate", "p", "1", -1},
	} {
		if err := w.SetProducer(tc.producer, tc.rate, tc.acks, nil); err == nil {
			t.Errorf("%s: set-producer was accepted", tc.name)
		}
	}
}
