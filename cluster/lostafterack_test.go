package cluster_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// TestAcksZeroIsNeverAcked: records sent with acks=0 get no answer, so a
// producer counts them sent without acknowledgement, never acknowledged,
// and a power cut that loses them changes no count.
func TestAcksZeroIsNeverAcked(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 1})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 3}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "0", RecordsPerSec: 50}))
	require.NoError(t, w.RunFor(3000))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActPowerCut, Broker: 1}))
	require.NoError(t, w.RunFor(12000))
	p := w.State().Producers[0]
	require.Positive(t, p.Sent)
	require.Zero(t, p.Acked, "acks=0 sends counted as acknowledged")
	require.Zero(t, p.LostAfterAck)
	require.Equal(t, p.Sent, p.SentNoAck+p.Failed, "every acks=0 record is sent without an answer")
	for _, r := range p.Results {
		require.Equal(t, "sent", r.Status, "%s", r.Text())
	}
}

// TestAcksOneLostAfterAck: with acks=1 the leader acknowledges b alone and
// crashes; broker 2 leads without b, and the producer's count and b's
// result say it was lost after its acknowledgement, with an event that
// says why.
func TestAcksOneLostAfterAck(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 1})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "clicks", Partitions: 1, Assignment: [][]int32{{1, 2, 3}}}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "clicks", Acks: "1"}))
	require.NoError(t, w.RunFor(600))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActProduce, Name: "p", Value: "a"}))
	require.NoError(t, w.RunFor(600))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActPartition, A: []int32{1}, B: []int32{2, 3}}))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActProduce, Name: "p", Value: "b"}))
	require.NoError(t, w.RunFor(50))
	require.Equal(t, 0, w.State().Producers[0].LostAfterAck)
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActKill, Broker: 1}))
	require.NoError(t, w.Do(cluster.Action{Kind: cluster.ActHeal}))
	require.NoError(t, w.RunFor(10000))
	p := w.State().Producers[0]
	require.Equal(t, 2, p.Acked, "the producer was told both are stored")
	require.Equal(t, 1, p.LostAfterAck)
	require.Equal(t, "lost", p.Results[1].Status)
	require.Equal(t, "acked", p.Results[0].Status)
	found := false
	for _, e := range w.Events() {
		if e.Kind == cluster.EventProduce && e.Text == "producer p: 1 acknowledged record(s) lost: [b@1] (broker 2 leads epoch 1 from offset 1)" {
			found = true
		}
	}
	require.True(t, found, "no event says b was lost")
}

// TestLostAfterAckIsTheTruth runs random crashes, power cuts, restarts and
// network cuts under random rules, acks and unclean election, and checks
// after every action: a record acknowledged and not marked lost is still
// below the log end of its partition's leader (or below its log start,
// deleted by retention), a record marked lost was acknowledged with an
// offset, acks=0 records are never counted acknowledged, and the counts
// add up.
func TestLostAfterAckIsTheTruth(t *testing.T) {
	kinds := []cluster.ActionKind{cluster.ActKill, cluster.ActPowerCut, cluster.ActStart, cluster.ActStart, cluster.ActRun, cluster.ActRun,
		cluster.ActRun, cluster.ActPartition, cluster.ActHeal, cluster.ActStop}
	rapid.Check(t, func(t *rapid.T) {
		rules := rapid.SampledFrom([]replica.RuleSet{replica.V0_10, replica.V0_11, replica.Modern}).Draw(t, "rules")
		w, err := cluster.New(cluster.Config{Seed: rapid.Uint64().Draw(t, "seed"), Rules: rules,
			UncleanLeaderElectionEnable: rapid.Bool().Draw(t, "unclean")})
		if err != nil {
			t.Fatalf("new world: %v", err)
		}
		if err := w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 2, ReplicationFactor: 3}); err != nil {
			t.Fatalf("create-topic: %v", err)
		}
		for i, acks := range []string{"0", "1", "all"} {
			if rapid.Bool().Draw(t, "producer "+acks) || i == 1 {
				if err := w.AddProducer(cluster.ProducerConfig{Name: "p" + acks, Topic: "t", Acks: acks, RecordsPerSec: 20}); err != nil {
					t.Fatalf("add-producer: %v", err)
				}
			}
		}
		n := rapid.IntRange(1, 15).Draw(t, "actions")
		for i := range n {
			kind := rapid.SampledFrom(kinds).Draw(t, fmt.Sprintf("action %d", i))
			a := cluster.Action{Kind: kind, Broker: rapid.Int32Range(1, 3).Draw(t, fmt.Sprintf("broker %d", i)),
				Ms: rapid.Int64Range(1, 15000).Draw(t, fmt.Sprintf("ms %d", i))}
			if kind == cluster.ActPartition {
				a.A, a.B = []int32{a.Broker}, []int32{1 + a.Broker%3, 1 + (a.Broker+1)%3}
			}
			if err := w.Do(a); err != nil && w.Err() != nil {
				t.Fatalf("after %s the world failed internally: %v", a, w.Err())
			}
			checkLostAfterAck(t, w, a)
		}
	})
}

func checkLostAfterAck(t *rapid.T, w *cluster.World, after cluster.Action) {
	s := w.State()
	leo, start := map[int32]int64{}, map[int32]int64{}
	for _, p := range s.Partitions {
		if p.Topic == "t" && p.Leader > 0 {
			leo[p.Partition], start[p.Partition] = p.LogEndOffset, p.LogStartOffset
		}
	}
	for _, p := range s.Producers {
		var acked, lost, sent, failed int
		for _, r := range p.Results {
			switch r.Status {
			case "acked":
				acked++
				if end, ok := leo[r.Partition]; ok && end >= 0 && *r.Offset >= end && *r.Offset >= start[r.Partition] {
					t.Fatalf("after %s: %s acknowledged at t-%d offset %d is beyond its leader's log end %d, and not marked lost", after, r.Value, r.Partition, *r.Offset, end)
				}
			case "lost":
				acked++
				lost++
				if r.Offset == nil {
					t.Fatalf("after %s: %s is lost without an acknowledged offset", after, r.Value)
				}
			case "sent":
				sent++
				if p.Name != "p0" {
					t.Fatalf("after %s: %s of %s is sent without an answer, but only acks=0 sends are", after, r.Value, p.Name)
				}
			case "failed":
				failed++
			}
			if p.Name == "p0" && (r.Status == "acked" || r.Status == "lost") {
				t.Fatalf("after %s: acks=0 record %s counted as acknowledged", after, r.Value)
			}
		}
		if p.Acked != acked || p.LostAfterAck != lost || p.SentNoAck != sent || p.Failed != failed {
			t.Fatalf("after %s: producer %s counts acked %d lost %d sent-no-ack %d failed %d, its results %d %d %d %d", after, p.Name,
				p.Acked, p.LostAfterAck, p.SentNoAck, p.Failed, acked, lost, sent, failed)
		}
	}
}
