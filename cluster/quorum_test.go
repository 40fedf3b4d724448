package cluster_test

import (
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/stretchr/testify/require"
)

func TestCombinedControllerFailsOverToTheNextVoter(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 5, Brokers: 3, Rules: replica.Modern, MinInsyncReplicas: 2, CombinedControllers: true})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 3, ReplicationFactor: 3}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "all", Keys: []string{"a", "b", "c"}, RecordsPerSec: 10}))
	require.NoError(t, w.RunFor(2000))
	require.Equal(t, int32(1), w.ActiveController(), "broker 1 hosts the active controller")
	require.Equal(t, int32(1), w.State().ActiveController)

	require.NoError(t, w.Kill(1))
	require.NoError(t, w.RunFor(1000))
	if got := w.State().ActiveController; got != -1 {
		t.Fatalf("one second after broker 1 (the controller) crashed the state says controller %d, want -1 (electing)", got)
	}
	require.NoError(t, w.RunFor(2100))
	require.Equal(t, int32(2), w.ActiveController(), "after the failover time broker 2, the lowest running voter, is active")
	require.NoError(t, w.RunFor(10000))
	for _, p := range w.State().Partitions {
		if p.Leader == 1 || p.Leader == replica.NoLeader {
			t.Fatalf("%s-%d is led by %d after the new controller fenced broker 1", p.Topic, p.Partition, p.Leader)
		}
	}
	acked := w.State().Producers[0].Acked
	require.NoError(t, w.RunFor(2000))
	if w.State().Producers[0].Acked <= acked {
		t.Fatalf("acks=all records stopped being acknowledged under the new controller (%d acked)", acked)
	}

	require.NoError(t, w.Start(1))
	require.NoError(t, w.RunFor(5000))
	require.Equal(t, int32(2), w.ActiveController(), "a leader keeps its place when broker 1 comes back")

	require.NoError(t, w.PowerCut(2, false))
	require.NoError(t, w.PowerCut(3, false))
	require.NoError(t, w.RunFor(5000))
	if got := w.ActiveController(); got != 0 {
		t.Fatalf("with two of three voters down broker %d is the active controller, want none (no majority)", got)
	}
}

func TestSeparateControllerStateOmitsTheActiveController(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 5, Brokers: 3})
	require.NoError(t, err)
	require.Equal(t, cluster.ControllerID, w.ActiveController())
	require.Zero(t, w.State().ActiveController, "a separate controller is not in the state")
}
