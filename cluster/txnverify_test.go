package cluster_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
)

// A leader whose question to the transaction coordinator is lost holds
// the transaction's first batch on its partition until request.timeout.ms
// has passed, then answers NETWORK_EXCEPTION; the producer retries, the
// batch is verified, appended and committed: read_committed gets it once.
func TestTransactionVerificationLostQuestion(t *testing.T) {
	var w *cluster.World
	var coord, leader int32
	for i := 0; coord == leader; i++ { // a transactional.id coordinated away from t-0's leader
		require.Less(t, i, 20)
		w = txnWorld(t)
		require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "tx", Topic: "t", Acks: "all", TransactionalID: fmt.Sprintf("tx-%d", i),
			LingerMs: cluster.NoLinger})) // the batch goes at once: the test delivers message by message
		require.NoError(t, w.RunFor(1000))
		txns := w.Transactions()
		require.Len(t, txns, 1)
		coord, leader = txns[0].Coordinator, w.PartitionLeader("t", 0)
	}
	require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "rc", Topic: "t", Partition: 0, IsolationLevel: cluster.ReadCommitted}))
	require.NoError(t, w.Produce("tx", "", "v", 0))
	question := fmt.Sprintf("%d->%d txn-request AddPartitionsToTxn", leader, coord)
	asked := func() bool {
		return slices.ContainsFunc(w.InFlight(), func(m string) bool { return strings.HasPrefix(m, question) })
	}
	for i := 0; !asked(); i++ {
		require.Less(t, i, 500, "the leader never asked the coordinator: in flight %v", w.InFlight())
		require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActDeliver, N: 1}))
	}
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActDrop, A: []int32{leader}, B: []int32{coord}}))
	require.NoError(t, w.RunFor(35_000))
	refused := false
	for _, e := range w.Events() {
		refused = refused || strings.Contains(e.Text, "transactional batch: NETWORK_EXCEPTION")
	}
	require.True(t, refused, "the leader answered NETWORK_EXCEPTION once its question was lost")
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCommitTransaction, Name: "tx"}))
	require.NoError(t, w.RunFor(5000))
	require.NoError(t, w.Poll("rc"))
	if diff := cmp.Diff([]string{"0 v"}, polled(w, 0)); diff != "" {
		t.Errorf("read_committed (-want +got):\n%s", diff)
	}
	require.Empty(t, w.InternalErrors())
}
