package cluster_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
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
