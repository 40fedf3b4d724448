package broker

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// hint is what a test reads of one partition's answer: its error and
// KIP-951's hint, and the answer's node endpoints.
type hint struct {
	Code          int16
	Leader, Epoch int32
	Nodes         []int32
}

// TestLeaderHints: a Produce (v10+) or a Fetch (v16+) that reaches a
// broker that does not lead the partition, or a Fetch with an old leader
// epoch, is answered with the controller's leader and epoch and that
// leader's endpoint (KIP-951, Kafka 3.7's KafkaApis), so that the client
// goes there without asking for metadata; older versions carry none.
func TestLeaderHints(t *testing.T) {
	f := newFakeEnv(3, 1)
	for _, b := range f.brokers {
		require.NoError(t, b.Start(f))
	}
	f.quiet()
	require.NoError(t, f.CreateTopic(metadata.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 3}))
	f.run(500)
	id := TopicUUID(f.ctl.Topic("t").ID)

	produce := func(broker int32, version int16) hint {
		r := kmsg.NewPtrProduceRequest()
		r.SetVersion(version)
		r.Acks, r.TimeoutMillis = 1, 5000
		var b kafkalog.RecordBatch
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, -1, -1
		b.AppendRecord(0, 1000, nil, []byte("v"))
		rt := kmsg.NewProduceRequestTopic()
		rt.Topic = "t"
		rp := kmsg.NewProduceRequestTopicPartition()
		rp.Records = b.AppendTo(nil)
		rt.Partitions = append(rt.Partitions, rp)
		r.Topics = append(r.Topics, rt)
		resp := f.ask(t, broker, r).(*kmsg.ProduceResponse)
		p := resp.Topics[0].Partitions[0]
		h := hint{Code: p.ErrorCode, Leader: p.CurrentLeader.LeaderID, Epoch: p.CurrentLeader.LeaderEpoch}
		for _, n := range resp.Brokers {
			h.Nodes = append(h.Nodes, n.NodeID)
		}
		return h
	}
	fetch := func(broker int32, version int16, epoch int32) hint {
		r := kmsg.NewPtrFetchRequest()
		r.SetVersion(version)
		r.MaxBytes, r.SessionEpoch = 1<<20, -1
		rt := kmsg.NewFetchRequestTopic()
		rt.Topic, rt.TopicID = "t", id
		rp := kmsg.NewFetchRequestTopicPartition()
		rp.PartitionMaxBytes, rp.CurrentLeaderEpoch = 1<<20, epoch
		rt.Partitions = append(rt.Partitions, rp)
		r.Topics = append(r.Topics, rt)
		resp := f.ask(t, broker, r).(*kmsg.FetchResponse)
		p := resp.Topics[0].Partitions[0]
		h := hint{Code: p.ErrorCode, Leader: p.CurrentLeader.LeaderID, Epoch: p.CurrentLeader.LeaderEpoch}
		for _, n := range resp.Brokers {
			h.Nodes = append(h.Nodes, n.NodeID)
		}
		return h
	}
	const notLeader, fenced = 6, 74
	check := func(what string, want, got hint) {
		t.Helper()
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", what, diff)
		}
	}
	check("produce v10 at a follower", hint{notLeader, 1, 0, []int32{1}}, produce(2, 10))
	check("produce v9 at a follower", hint{notLeader, -1, -1, nil}, produce(2, 9))
	check("produce v10 at the leader", hint{0, -1, -1, nil}, produce(1, 10))
	// From v11 a follower serves a consumer that says who it is (KIP-392,
	// FetchParams.fetchOnlyLeader false): no error, no hint; before v11
	// only the leader does.
	check("fetch v16 at a follower", hint{0, -1, -1, nil}, fetch(3, 16, -1))
	check("fetch v10 at a follower", hint{notLeader, -1, -1, nil}, fetch(3, 10, -1))

	require.NoError(t, f.brokers[0].Stop(f)) // broker 2 leads in epoch 1
	f.quiet()
	f.run(100)
	check("fetch v16 with the old epoch", hint{fenced, 2, 1, []int32{2}}, fetch(2, 16, 0))
	check("fetch v16 at the stopped leader's follower", hint{0, -1, -1, nil}, fetch(3, 16, 1))
	check("produce v10 at a follower", hint{notLeader, 2, 1, []int32{2}}, produce(3, 10))
}

// ask serves req at broker and returns its answer.
func (f *fakeEnv) ask(t *testing.T, broker int32, req kmsg.Request) kmsg.Response {
	t.Helper()
	served, err := f.serve(broker, req)
	require.NoError(t, err)
	require.True(t, served)
	f.run(20)
	answers := f.rq.Answers()
	require.Len(t, answers, 1)
	return answers[0].Response
}
