package cluster_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// TestDiskFullHaltsTheBroker: a leader whose disk (BrokerDiskBytes) fills
// under a client's produce halts as a Kafka broker whose only log dir
// failed, with Kafka's words, and that is no internal error; every broker
// down is started again and the world runs on without one.
func TestDiskFullHaltsTheBroker(t *testing.T) {
	w := floodWorld(t, cluster.Config{Seed: 9, BrokerDiskBytes: 512 << 10}, 2000)
	value := floodValue()
	halts := func() int {
		n := 0
		for _, e := range w.Events() {
			if strings.Contains(e.Text, "No space left on device") && strings.Contains(e.Text, "Shutdown broker because all log dirs in /kafka-logs have failed") &&
				strings.Contains(e.Text, "log.retention.check.interval.ms=") && strings.Contains(e.Text, "file.delete.delay.ms=") {
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
