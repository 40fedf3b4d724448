package cluster_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
)

// A record sent with acks=all keeps acks=all when it is sent again after
// set-producer acks=1: it is the old producer's record, and Kafka fixes a
// producer's acks for its life (ProducerConfig), so a client configured
// anew sends only its own records with the new acks. Here the leader is
// cut from both followers: the HW cannot pass the record, the ISR shrinks
// to the leader below min.insync.replicas 2, and the record must not be
// acknowledged (as acks=1 would after the first try timed out). (The user
// explorer's seed 8000620 at 20 operations: checkout-3 acknowledged by its
// retry at acks=1, counted as acks=all, lost with its leader.)
func TestSetProducerKeepsTheAcksOfRecordsAlreadySent(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 3, Brokers: 3, MinInsyncReplicas: 2})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 3}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "all"}))
	require.NoError(t, w.RunFor(1000))
	leader := w.PartitionLeader("t", 0)
	var followers []int32
	for id := int32(1); id <= 3; id++ {
		if id != leader {
			followers = append(followers, id)
		}
	}
	require.NoError(t, w.Partition([]int32{leader}, followers))
	require.NoError(t, w.Produce("p", "", "v", 0))
	require.NoError(t, w.RunFor(500))
	require.NoError(t, w.SetProducer("p", 0, "1", nil))
	// Past request.timeout.ms (30 s) and the ISR shrink
	// (replica.lag.time.max.ms, 30 s): the record is sent again.
	require.NoError(t, w.RunFor(45_000))
	r := w.Producers()[0].Results()[0]
	if r.Attempts < 2 {
		t.Fatalf("the record was sent %d times in 45 s, want a retry after request.timeout.ms: %+v", r.Attempts, r)
	}
	if r.Acks != -1 || r.Acked {
		t.Fatalf("a record sent with acks=all to a leader cut from its followers: acks %d, acknowledged %v (offset %d), want acks=all and no acknowledgement: %+v", r.Acks, r.Acked, r.Offset, r)
	}
}
