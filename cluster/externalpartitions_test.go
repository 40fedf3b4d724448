package cluster_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
)

// partitionsReq is a CreatePartitions request (v3) growing each topic to
// its count; assignments, when given, are the new partitions' replicas.
func partitionsReq(validateOnly bool, topics ...kmsg.CreatePartitionsRequestTopic) *kmsg.CreatePartitionsRequest {
	req := kmsg.NewPtrCreatePartitionsRequest()
	req.SetVersion(3)
	req.TimeoutMillis, req.ValidateOnly, req.Topics = 5000, validateOnly, topics
	return req
}

func growTo(topic string, count int32, assignment ...[]int32) kmsg.CreatePartitionsRequestTopic {
	t := kmsg.NewCreatePartitionsRequestTopic()
	t.Topic, t.Count = topic, count
	for _, reps := range assignment {
		a := kmsg.NewCreatePartitionsRequestTopicAssignment()
		a.Replicas = reps
		t.Assignment = append(t.Assignment, a)
	}
	return t
}

type topicResult struct {
	Topic string
	Code  int16
	Msg   string
}

func partitionResults(r *kmsg.CreatePartitionsResponse) []topicResult {
	var out []topicResult
	for _, t := range r.Topics {
		msg := ""
		if t.ErrorMessage != nil {
			msg = *t.ErrorMessage
		}
		out = append(out, topicResult{t.Topic, t.ErrorCode, msg})
	}
	return out
}

func replicasOf(w *cluster.World, topic string) [][]int32 {
	var out [][]int32
	for _, p := range w.TopicPartitions(topic) {
		out = append(out, p.Replicas)
	}
	return out
}

// TestExternalCreatePartitions: CreatePartitions as Kafka 3.7's controller
// answers it (ControllerApis.createPartitions,
// ReplicationControlManager.createPartitions): partitions placed as a new
// topic's or where the request says, led and written to like the first;
// validate-only changes nothing; each refusal with Kafka's code and message.
func TestExternalCreatePartitions(t *testing.T) {
	w := extWorld(t) // t: one partition on 1, 2, 3
	ask1 := func(req *kmsg.CreatePartitionsRequest) []topicResult {
		return partitionResults(ask[*kmsg.CreatePartitionsResponse](t, w, 2, req, 10))
	}
	require.Equal(t, []topicResult{{"t", 0, ""}}, ask1(partitionsReq(true, growTo("t", 3))))
	require.Len(t, w.TopicPartitions("t"), 1, "validate-only adds nothing")

	require.Equal(t, []topicResult{{"t", 0, ""}}, ask1(partitionsReq(false, growTo("t", 3))))
	require.Equal(t, [][]int32{{1, 2, 3}, {2, 3, 1}, {3, 1, 2}}, replicasOf(w, "t"))
	require.Equal(t, []topicResult{{"t", 0, ""}}, ask1(partitionsReq(false, growTo("t", 5, []int32{3, 2, 1}, []int32{2, 1, 3}))))
	require.Equal(t, [][]int32{{1, 2, 3}, {2, 3, 1}, {3, 1, 2}, {3, 2, 1}, {2, 1, 3}}, replicasOf(w, "t"))
	require.NoError(t, w.RunFor(2000))
	for p, pi := range w.TopicPartitions("t") {
		require.Equal(t, pi.Replicas[0], pi.Leader, "partition %d's leader is its first replica", p)
		require.Len(t, pi.ISR, 3, "partition %d", p)
	}
	// the new partition takes records
	pr := produceReq(-1, clientBatch(0))
	pr.Topics[0].Partitions[0].Partition = 4
	r := ask[*kmsg.ProduceResponse](t, w, 2, pr, 2000)
	require.Equal(t, partResult{0, 0}, produced(r))

	tests := []struct {
		name string
		req  *kmsg.CreatePartitionsRequest
		want []topicResult
	}{
		{"the same count", partitionsReq(false, growTo("t", 5)), []topicResult{{"t", 37, "Topic already has 5 partition(s)."}}},
		{"fewer", partitionsReq(false, growTo("t", 2)), []topicResult{{"t", 37, "The topic t currently has 5 partition(s); 2 would not be an increase."}}},
		{"an unknown topic", partitionsReq(false, growTo("nope", 2)), []topicResult{{"nope", 3, ""}}},
		{"a topic twice, listed first", partitionsReq(false, growTo("nope", 2), growTo("t", 6), growTo("t", 7)),
			[]topicResult{{"t", 42, "Duplicate topic name."}, {"nope", 3, ""}}},
		{"too few assignments", partitionsReq(false, growTo("t", 7, []int32{1, 2, 3})),
			[]topicResult{{"t", 39, "Attempted to add 2 additional partition(s), but only 1 assignment(s) were specified."}}},
		{"an empty replica list", partitionsReq(false, growTo("t", 6, []int32{})),
			[]topicResult{{"t", 39, "The manual partition assignment includes an empty replica list."}}},
		{"a broker that does not exist", partitionsReq(false, growTo("t", 6, []int32{1, 2, 4})),
			[]topicResult{{"t", 39, "The manual partition assignment includes broker 4, but no such broker is registered."}}},
		{"a broker twice", partitionsReq(false, growTo("t", 6, []int32{1, 2, 1})),
			[]topicResult{{"t", 39, "The manual partition assignment includes the broker 1 more than once."}}},
		{"another replication factor", partitionsReq(false, growTo("t", 6, []int32{1, 2})),
			[]topicResult{{"t", 39, "The manual partition assignment includes a partition with 2 replica(s), but this is not consistent with previous partitions, which have 3 replica(s)."}}},
		{"past the partition bound", partitionsReq(false, growTo("t", cluster.MaxPartitions+1)),
			[]topicResult{{"t", 44, "topic t: 10001 partitions, and the other topics have 0: the simulated cluster holds at most 10000 partitions"}}},
	}
	for _, tt := range tests {
		if got := ask1(tt.req); !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
	require.Len(t, w.TopicPartitions("t"), 5, "no refused request added any")

	// The offsets topic keeps its partitions (a deviation: Kafka adds them,
	// and groups move to coordinators without their offsets).
	fc := kmsg.NewPtrFindCoordinatorRequest()
	fc.SetVersion(3)
	fc.CoordinatorKey = "g" // the offsets topic is made for the first group
	ask[*kmsg.FindCoordinatorResponse](t, w, 1, fc, 10)
	require.NoError(t, w.RunFor(2000))
	n := len(w.TopicPartitions(cluster.OffsetsTopic))
	require.Positive(t, n)
	got := ask1(partitionsReq(false, growTo(cluster.OffsetsTopic, int32(n+1))))
	require.Len(t, got, 1)
	require.Equal(t, int16(44), got[0].Code, got[0].Msg)
	require.Len(t, w.TopicPartitions(cluster.OffsetsTopic), n)

	// With a broker fenced, three replicas cannot be placed; a manual
	// assignment of brokers all fenced is refused.
	require.NoError(t, w.Kill(3))
	require.NoError(t, w.RunFor(20_000))
	require.Equal(t, []topicResult{{"t", 38, "Unable to replicate the partition 3 time(s): The target replication factor of 3 cannot be reached because only 2 broker(s) are registered."}},
		ask1(partitionsReq(false, growTo("t", 6))))
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "one", Assignment: [][]int32{{1}}}))
	require.Equal(t, []topicResult{{"one", 39, "All brokers specified in the manual partition assignment for partition 1 are fenced or in controlled shutdown."}},
		ask1(partitionsReq(false, growTo("one", 2, []int32{3}))))
	require.Empty(t, w.InternalErrors())
}

// TestClientTopicsAvoidFencedBrokers: with broker 1 down and fenced, a
// topic a client makes (auto-created by Metadata, by CreateTopics) and the
// partitions it or the terminal adds are placed on the unfenced brokers, as Kafka 3.7's
// StripedReplicaPlacer places them, and take records at once; before, an
// auto-created topic's one replica went to broker 1 and stayed offline.
func TestClientTopicsAvoidFencedBrokers(t *testing.T) {
	w := extWorld(t)
	require.NoError(t, w.Kill(1))
	require.NoError(t, w.RunFor(20_000)) // fenced after broker.session.timeout.ms

	md := kmsg.NewPtrMetadataRequest()
	md.SetVersion(12)
	md.AllowAutoTopicCreation = true
	mt := kmsg.NewMetadataRequestTopic()
	mt.Topic = kmsg.StringPtr("fresh")
	md.Topics = append(md.Topics, mt)
	ask[*kmsg.MetadataResponse](t, w, 2, md, 10)
	require.NoError(t, w.RunFor(1000))
	require.Equal(t, [][]int32{{2}}, replicasOf(w, "fresh"))

	ct := kmsg.NewPtrCreateTopicsRequest()
	ct.SetVersion(5)
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic, rt.NumPartitions, rt.ReplicationFactor = "two", 3, 2
	ct.Topics = append(ct.Topics, rt)
	require.Zero(t, ask[*kmsg.CreateTopicsResponse](t, w, 2, ct, 10).Topics[0].ErrorCode)
	require.Equal(t, [][]int32{{2, 3}, {3, 2}, {2, 3}}, replicasOf(w, "two"))
	require.Equal(t, []topicResult{{"two", 0, ""}}, partitionResults(ask[*kmsg.CreatePartitionsResponse](t, w, 2, partitionsReq(false, growTo("two", 5)), 10)))
	require.Equal(t, [][]int32{{2, 3}, {3, 2}, {2, 3}, {3, 2}, {2, 3}}, replicasOf(w, "two"))
	// the world's own add-partitions (the terminal's kafka-topics --alter)
	// places as the controller does
	require.NoError(t, w.AddPartitions("two", 7))
	require.Equal(t, [][]int32{{2, 3}, {3, 2}, {2, 3}, {3, 2}, {2, 3}, {3, 2}, {2, 3}}, replicasOf(w, "two"))
	require.NoError(t, w.RunFor(2000))

	for _, tp := range []struct {
		topic string
		p     int32
	}{{"fresh", 0}, {"two", 4}} {
		pr := produceReq(1, clientBatch(0))
		pr.Topics[0].Topic, pr.Topics[0].Partitions[0].Partition = tp.topic, tp.p
		leader := w.PartitionLeader(tp.topic, tp.p)
		require.NotEqual(t, int32(1), leader)
		require.Equal(t, partResult{0, 0}, produced(ask[*kmsg.ProduceResponse](t, w, leader, pr, 2000)), "%s-%d", tp.topic, tp.p)
	}
	require.Empty(t, w.InternalErrors())
}
