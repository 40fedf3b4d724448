package cluster_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// txnOffsetCommit is a TxnOffsetCommit v3 of group g's offset 1 of t-0,
// with the consumer's group metadata (KIP-447).
func txnOffsetCommit(g string, generation int32, member string) *kmsg.TxnOffsetCommitRequest {
	req := kmsg.NewPtrTxnOffsetCommitRequest()
	req.SetVersion(3)
	req.TransactionalID, req.Group, req.ProducerID, req.ProducerEpoch = "tx", g, 10000, 0
	req.Generation, req.MemberID = generation, member
	rt := kmsg.NewTxnOffsetCommitRequestTopic()
	rt.Topic = "t"
	rp := kmsg.NewTxnOffsetCommitRequestTopicPartition()
	rp.Partition, rp.Offset = 0, 1
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	return req
}

// commitTxnOffset sends c's TxnOffsetCommit v5 of group g's offset of
// t-0, at c's producer id and epoch (or epoch when not -1), to every
// broker, and returns the group coordinator's answer (the first that is
// not NOT_COORDINATOR).
func commitTxnOffset(t *testing.T, w *cluster.World, c *txnClient, g string, offset int64, epoch int16) int16 {
	t.Helper()
	req := txnOffsetCommit(g, -1, "")
	req.SetVersion(5)
	req.TransactionalID, req.ProducerID, req.ProducerEpoch, req.Topics[0].Partitions[0].Offset = c.id, c.pid, c.epoch, offset
	if epoch != -1 {
		req.ProducerEpoch = epoch
	}
	for b := int32(1); b <= 3; b++ {
		resp := ask[*kmsg.TxnOffsetCommitResponse](t, w, b, req, 5000)
		if code := resp.Topics[0].Partitions[0].ErrorCode; code != 16 { // the group's coordinator
			return code
		}
	}
	t.Fatalf("no broker coordinates group %s", g)
	return 0
}

// createOffsetsTopic has a client look for group g's coordinator, which
// creates __consumer_offsets, and lets the world elect its leaders.
func createOffsetsTopic(t *testing.T, w *cluster.World, g string) {
	t.Helper()
	fc := kmsg.NewPtrFindCoordinatorRequest()
	fc.SetVersion(4)
	fc.CoordinatorKeys = []string{g}
	ask[*kmsg.FindCoordinatorResponse](t, w, 1, fc, 1000)
	require.NoError(t, w.RunFor(1000))
}

// A TxnOffsetCommit v3 names the consumer's generation and member id
// (KIP-447): the group coordinator refuses a member not in the group or of
// another generation, so that a zombie consume-transform-produce
// application cannot commit offsets of partitions given to another member.
func TestExternalTxnOffsetCommitChecksTheGeneration(t *testing.T) {
	w := extWorld(t)
	require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "m", Group: "g", Topics: []string{"t"}, PollIntervalMs: 1000}))
	require.NoError(t, w.RunFor(8000))
	var member string
	for _, c := range w.Consumers() {
		member = c.MemberID()
	}
	require.NotEmpty(t, member, "the simulated member joined")
	got := map[string]int16{}
	for name, req := range map[string]*kmsg.TxnOffsetCommitRequest{
		"a stale generation": txnOffsetCommit("g", 7, member),
		"an unknown member":  txnOffsetCommit("g", 1, "zombie"),
	} {
		for b := int32(1); b <= 3; b++ {
			resp := ask[*kmsg.TxnOffsetCommitResponse](t, w, b, req, 5000)
			if code := resp.Topics[0].Partitions[0].ErrorCode; code != 16 { // not NOT_COORDINATOR: the coordinator's answer
				got[name] = code
			}
		}
	}
	want := map[string]int16{"a stale generation": 22, "an unknown member": 25} // ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the coordinator's answers (-want +got):\n%s", diff)
	}
}

// Under transaction.version 2 (Kafka 4's rules, KIP-890 part 2) a
// consume-transform-produce client sends no AddOffsetsToTxn: its
// TxnOffsetCommit v5 has the group's coordinator add the group's
// __consumer_offsets partition to the transaction before the offsets are
// written, so that the EndTxn's markers reach it: the committed
// transaction's offset is the group's, the aborted one's is not. A
// TxnOffsetCommit of a fenced epoch is refused (INVALID_PRODUCER_EPOCH).
func TestExternalTxnOffsetCommitV5AddsTheOffsetsPartition(t *testing.T) {
	w := wireTxnWorld(t, cluster.Config{Seed: 1, Rules: replica.V4})
	c := initTxnClient(t, w, xclient{1, "txn", "10.0.0.1:1"}, "tx", true)
	commitOffset := func(g string, offset int64, epoch int16) int16 { return commitTxnOffset(t, w, c, g, offset, epoch) }
	fetched := func(g string) int64 {
		f := fetchOffset(t, w, g, 7, true, false)
		require.True(t, f.Found, "group %s's offset of t-0", g)
		require.Zero(t, f.Code, "OffsetFetch of group %s", g)
		return f.Offset
	}
	createOffsetsTopic(t, w, "g")
	require.True(t, c.produce(t, 0, []string{"a"}))
	require.Zero(t, commitOffset("g", 5, c.epoch))
	old := c.epoch
	require.True(t, c.end(t, true))
	require.True(t, c.produce(t, 0, []string{"b"}))
	require.Zero(t, commitOffset("g", 9, c.epoch))
	require.True(t, c.end(t, false))
	require.NoError(t, w.RunFor(1000))
	require.Equal(t, int64(5), fetched("g"), "the committed transaction's offset, not the aborted one's")
	require.Equal(t, int16(47), commitOffset("g", 7, old), "a TxnOffsetCommit of an ended transaction's epoch: INVALID_PRODUCER_EPOCH")
	require.Equal(t, int64(5), fetched("g"))
	require.Empty(t, w.InternalErrors())
}
