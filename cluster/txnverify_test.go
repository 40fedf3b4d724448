package cluster_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
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

// A zombie's late write: a batch of a transaction that ended reaches its
// leader while the producer's next transaction has the partition open.
// Under Kafka 3.7's rules the two transactions share the producer's epoch,
// the partition is in the open one, and the leader appends the batch into
// it: its commit makes the zombie's record visible to read_committed (the
// hole KIP-890 part 2 closes). Under Kafka 4's, with transaction.version 2,
// EndTxn v5 bumped the epoch: the late batch's epoch is fenced
// (INVALID_PRODUCER_EPOCH) and read_committed sees only the two
// transactions' own records. The client sends no AddPartitionsToTxn: its
// Produce v12 has the leader add each partition.
func TestTransactionLateWriteOfAnEndedTransaction(t *testing.T) {
	for _, tc := range []struct {
		rules replica.RuleSet
		tv2   bool
		want  []string
	}{
		{replica.V3_7, false, []string{"a", "b", "late"}},
		{replica.V4, true, []string{"a", "b"}},
	} {
		t.Run(tc.rules.String(), func(t *testing.T) {
			w := wireTxnWorld(t, cluster.Config{Seed: 1, Rules: tc.rules})
			c := initTxnClient(t, w, xclient{1, "txn", "10.0.0.1:1"}, "tx", tc.tv2)
			require.True(t, c.transaction(t, map[int32][]string{0: {"a"}}, true))
			oldEpoch, oldSeq := c.epoch, c.seq[0]
			if tc.tv2 {
				oldEpoch, oldSeq = c.epoch-1, 1 // the ended transaction's: EndTxn v5 gave the next epoch
			}
			if !tc.tv2 {
				require.True(t, c.addPartitions(t, []int32{0}))
			}
			require.True(t, c.produce(t, 0, []string{"b"}))
			late := c.produceAt(t, 0, oldEpoch, oldSeq+1, []string{"late"})
			require.Equal(t, !tc.tv2, late, "the late batch of epoch %d taken", oldEpoch)
			require.True(t, c.end(t, true))
			require.NoError(t, w.RunFor(1000))
			got, _, _ := readCommitted(t, c, 0)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("read_committed t-0 (-want +got):\n%s", diff)
			}
			require.Empty(t, w.InternalErrors())
		})
	}
}

// A transactional batch for a partition its producer never added to the
// transaction (no AddPartitionsToTxn, and a Produce older than v12, which
// does not add it) is refused by a leader that verifies it: a client of
// Produce v11+ knows TRANSACTION_ABORTABLE (KIP-890: Kafka 4's
// AddPartitionsToTxnManager passes it on to such clients), an older one
// hears INVALID_TXN_STATE.
func TestTransactionStrayBatchErrorByProduceVersion(t *testing.T) {
	w := wireTxnWorld(t, cluster.Config{Seed: 1, Rules: replica.V4})
	c := initTxnClient(t, w, xclient{1, "txn", "10.0.0.1:1"}, "tx", false)
	require.True(t, c.addPartitions(t, []int32{0}))
	got := map[int16]int16{}
	for _, v := range []int16{9, 10, 11} {
		var b kafkalog.RecordBatch
		b.Attributes = kafkalog.NewAttributes(kafkalog.CompressionNone, kafkalog.CreateTime, true, false)
		b.PartitionLeaderEpoch = kafkalog.NoPartitionLeaderEpoch
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = c.pid, c.epoch, 0
		b.AppendRecord(0, 0, nil, []byte("stray"))
		req := kmsg.NewPtrProduceRequest()
		req.SetVersion(v)
		req.TransactionID, req.Acks, req.TimeoutMillis = kmsg.StringPtr(c.id), -1, 5000
		req.Topics = []kmsg.ProduceRequestTopic{{Topic: "t", Partitions: []kmsg.ProduceRequestTopicPartition{{Partition: 1, Records: b.AppendTo(nil)}}}}
		resp := ask[*kmsg.ProduceResponse](t, w, w.PartitionLeader("t", 1), req, 5000)
		got[v] = resp.Topics[0].Partitions[0].ErrorCode
	}
	if diff := cmp.Diff(map[int16]int16{9: 48, 10: 48, 11: 120}, got); diff != "" { // INVALID_TXN_STATE, TRANSACTION_ABORTABLE
		t.Errorf("the stray batch's error by Produce version (-want +got):\n%s", diff)
	}
}

// Under transaction.version 2 the producer's next transaction starts as
// soon as EndTxn is answered, while the coordinator still writes the
// previous one's markers: the leader's add of the next transaction's
// first batch is answered CONCURRENT_TRANSACTIONS, and the leader asks
// again (add.partitions.to.txn.retry.backoff.ms) until the previous
// transaction completed, then appends the batch: both transactions are
// read_committed, in order.
func TestTransactionNextBatchWaitsForThePreviousMarkers(t *testing.T) {
	w := txnWorldOf(t, replica.V4)
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "tx", Topic: "t", Acks: "all", TransactionalID: "tx", LingerMs: cluster.NoLinger}))
	require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "rc", Topic: "t", Partition: 0, IsolationLevel: cluster.ReadCommitted}))
	require.NoError(t, w.RunFor(1000))
	require.NoError(t, w.Produce("tx", "", "a", 0))
	require.NoError(t, w.RunFor(500))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCommitTransaction, Name: "tx"}))
	answered := func() bool {
		return slices.ContainsFunc(w.Events(), func(e cluster.Event) bool { return strings.Contains(e.Text, "transaction committed (EndTxn answered") })
	}
	for i := 0; !answered(); i++ {
		require.Less(t, i, 500, "EndTxn never answered")
		require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActDeliver, N: 1}))
	}
	require.NoError(t, w.Produce("tx", "", "b", 0))
	require.NoError(t, w.RunFor(1000))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActCommitTransaction, Name: "tx"}))
	require.NoError(t, w.RunFor(1000))
	retried := slices.ContainsFunc(w.Events(), func(e cluster.Event) bool { return strings.Contains(e.Text, "answered CONCURRENT_TRANSACTIONS") })
	require.True(t, retried, "the leader asked again after CONCURRENT_TRANSACTIONS")
	require.NoError(t, w.Poll("rc"))
	if diff := cmp.Diff([]string{"0 a", "2 b"}, polled(w, 0)); diff != "" {
		t.Errorf("read_committed (-want +got):\n%s", diff)
	}
	require.Empty(t, w.InternalErrors())
}
