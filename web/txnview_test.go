package web

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// TestViewMarksTransactions: the partition view marks each record of a
// transaction with its outcome on that log (committed, aborted, open) and
// each transaction marker with its type; an idempotent producer's records
// stay unmarked. Every replica's log is marked, once it holds the
// records.
func TestViewMarksTransactions(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 4, MinInsyncReplicas: 2, Rules: replica.V3_7})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "pay", Assignment: [][]int32{{1, 2, 3}}}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "tx", Topic: "pay", Acks: "all", TransactionalID: "pay-tx"}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "plain", Topic: "pay", Acks: "all"}))
	require.NoError(t, w.RunFor(1000))
	produce := func(name string, values ...string) {
		for _, v := range values {
			require.NoError(t, w.Produce(name, "", v, 0))
		}
		require.NoError(t, w.RunFor(500))
	}
	end := func(kind cluster.ActionKind) {
		require.NoError(t, w.Do(cluster.Action{Kind: kind, Name: "tx"}))
		require.NoError(t, w.RunFor(1000))
	}
	produce("tx", "c1", "c2")
	end(cluster.ActCommitTransaction)
	produce("plain", "p1")
	produce("tx", "a1")
	end(cluster.ActAbortTransaction)
	produce("tx", "o1", "o2")
	require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "rc", Topic: "pay", Partition: 0, PollIntervalMs: 200, IsolationLevel: cluster.ReadCommitted}))
	require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "ru", Topic: "pay", Partition: 0, PollIntervalMs: 200}))
	require.NoError(t, w.RunFor(1000))

	d := BuildView(w, Focus{Topic: "pay", Partition: 0}).Detail
	require.NotNil(t, d)
	want := "c1:committed c2:committed ⟨COMMIT⟩ p1 a1:aborted ⟨ABORT⟩ o1:open o2:open"
	for _, l := range d.Logs {
		var got []string
		for _, r := range l.Records {
			switch {
			case r.Marker != "":
				got = append(got, fmt.Sprintf("⟨%s⟩", r.Marker))
				require.Positive(t, r.PID, "the marker's producer id")
			case r.Txn != "":
				got = append(got, r.Value+":"+r.Txn)
			default:
				got = append(got, r.Value)
			}
		}
		if diff := cmp.Diff(want, strings.Join(got, " ")); diff != "" {
			t.Errorf("broker %d's log (-want +got):\n%s", l.Broker, diff)
		}
	}
	require.NotNil(t, d.Stable)
	require.Equal(t, int64(6), *d.Stable, "read_committed waits at the open transaction's first offset")

	consumers := map[string]ConsumerView{}
	for _, c := range BuildView(w, Focus{Topic: "pay", Partition: 0}).Consumers {
		consumers[c.Name] = c
	}
	six, eight := int64(6), int64(8)
	if diff := cmp.Diff(ConsumerView{Name: "rc", Topic: "pay", Position: 6, Read: 3, Isolation: "read_committed", Stable: &six, HW: &eight}, consumers["rc"]); diff != "" {
		t.Errorf("the read_committed consumer (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(ConsumerView{Name: "ru", Topic: "pay", Position: 8, Read: 6}, consumers["ru"]); diff != "" {
		t.Errorf("the read_uncommitted consumer (-want +got):\n%s", diff)
	}
}
