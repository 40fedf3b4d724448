package cluster_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// TestDiskFullHaltsTheBroker: brokers whose disks (BrokerDiskBytes) fill
// under a producer halt as a Kafka broker whose only log dir failed, with
// Kafka's words, and that is no internal error; started again, a broker
// runs; the world goes on answering a client's produce (with an error
// while no leader can take it), and nothing panics.
func TestDiskFullHaltsTheBroker(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 9, MinInsyncReplicas: 2, Rules: replica.Modern, BrokerDiskBytes: 512 << 10})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}}))
	require.NoError(t, w.RunFor(2000))
	value := make([]byte, 20<<10)
	for i := range value {
		value[i] = byte(i*131 + i/7) // little to compress
	}
	halts := func() int {
		n := 0
		for _, e := range w.Events() {
			if strings.Contains(e.Text, "No space left on device") && strings.Contains(e.Text, "Shutdown broker because all log dirs in /kafka-logs have failed") {
				n++
			}
		}
		return n
	}
	for i := 0; i < 200 && halts() == 0; i++ {
		leader := w.PartitionLeader("t", 0)
		if leader <= 0 {
			require.NoError(t, w.RunFor(500))
			continue
		}
		var b kafkalog.RecordBatch
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, -1
		b.AppendRecord(0, 1_700_000_000_000, nil, value)
		req := produceReq(1, b.AppendTo(nil))
		_, err := w.External(cluster.ExternalRequest{Client: 1, ClientID: "flood", Broker: leader, Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)})
		require.NoError(t, err)
		require.NoError(t, w.RunFor(100))
	}
	require.Positive(t, halts(), "a broker halted on its full disk")
	require.Empty(t, w.InternalErrors(), "a full disk is no internal error")
	for id := int32(1); id <= 3; id++ {
		if st, _ := w.BrokerState(id); st != cluster.BrokerRunning {
			require.NoError(t, w.Start(id), "broker %d starts again", id)
		}
	}
	require.NoError(t, w.RunFor(10_000))
	require.Empty(t, w.InternalErrors())
}
