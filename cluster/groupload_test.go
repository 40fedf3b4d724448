package cluster_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// loadWorld is three brokers, a topic of four partitions with a producer,
// and a consumer group g of the given consumers.
func loadWorld(t require.TestingT, seed uint64, consumers ...string) *cluster.World {
	w, err := cluster.New(cluster.Config{Seed: seed, OffsetsTopicNumPartitions: 3})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 4}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", RecordsPerSec: 20}))
	for _, c := range consumers {
		require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: c, Group: "g", Topics: []string{"t"}, Assignors: []string{"range"}}))
	}
	return w
}

func groupG(st cluster.State) (cluster.GroupInfo, bool) {
	for _, g := range st.Groups {
		if g.Name == "g" {
			return g, true
		}
	}
	return cluster.GroupInfo{}, false
}

// partitionsByMember is each member's partitions, "member: t-0 t-1".
func partitionsByMember(g cluster.GroupInfo) []string {
	return membersAs(g, func(m cluster.MemberInfo) string { return m.ID })
}

// memberEpochs is each member's epoch and partitions, "member@epoch: t-0 t-1".
func memberEpochs(g cluster.GroupInfo) []string {
	return membersAs(g, func(m cluster.MemberInfo) string { return fmt.Sprintf("%s@%d", m.ID, m.MemberEpoch) })
}

// membersAs is each member, as name prints it, with its partitions, sorted.
func membersAs(g cluster.GroupInfo, name func(cluster.MemberInfo) string) []string {
	var out []string
	for _, m := range g.Members {
		var ps []string
		for _, p := range m.Assignment {
			ps = append(ps, fmt.Sprintf("%s-%d", p.Topic, p.Partition))
		}
		out = append(out, name(m)+": "+strings.Join(ps, " "))
	}
	slices.Sort(out)
	return out
}

// checkFailoverEvents checks the events since the kill: the new
// coordinator says it loaded the group (loadedText names it), and none of
// bad appears (a member removed, or refused as unknown).
func checkFailoverEvents(t *testing.T, events []cluster.Event, coordinator int32, loadedText string, bad ...string) {
	t.Helper()
	loaded := false
	for _, e := range events {
		if strings.Contains(e.Text, loadedText) {
			loaded = loaded || e.Broker == coordinator
		}
		for _, b := range bad {
			if strings.Contains(e.Text, b) {
				t.Errorf("after the failover: %s", e.Text)
			}
		}
	}
	require.True(t, loaded, "no event says broker %d %s", coordinator, loadedText)
}

// TestCoordinatorFailoverKeepsTheGroup: the broker coordinating a group in
// its second generation is killed. The broker that takes its
// __consumer_offsets partition over loads the group from the log (an
// event says so), and the members carry on: the same generation (not 1),
// the same member ids and partitions, no rebalance, nothing processed
// twice.
func TestCoordinatorFailoverKeepsTheGroup(t *testing.T) {
	w := loadWorld(t, 5, "c1", "c2")
	require.NoError(t, w.RunFor(10_000))
	require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "c3", Group: "g", Topics: []string{"t"}, Assignors: []string{"range"}}))
	require.NoError(t, w.RunFor(20_000))
	before, ok := groupG(w.State())
	require.True(t, ok)
	require.Equal(t, []any{"Stable", int32(2), 3}, []any{before.State, before.Generation, len(before.Members)}, w.State().Text())
	killedAt := len(w.Events())
	require.NoError(t, w.Kill(before.Coordinator))
	require.NoError(t, w.RunFor(30_000))

	st := w.State()
	after, ok := groupG(st)
	require.True(t, ok)
	require.NotEqual(t, before.Coordinator, after.Coordinator, "the coordinator moved")
	require.Equal(t, []any{"Stable", before.Generation}, []any{after.State, after.Generation}, st.Text())
	if diff := cmp.Diff(partitionsByMember(before), partitionsByMember(after)); diff != "" {
		t.Errorf("the members' partitions changed with the coordinator (-before +after):\n%s", diff)
	}
	checkFailoverEvents(t, w.Events()[killedAt:], after.Coordinator, "loaded group g ", "joined generation", "UNKNOWN_MEMBER_ID")
	for _, c := range st.Consumers {
		require.Zero(t, c.Duplicates, "consumer %s processed records again", c.ID)
	}
	require.Empty(t, w.InternalErrors())
}

// TestGroupGenerationNeverRestarts: whatever brokers are killed, stopped
// and started (no power cut: what the ISR acknowledged stays in its logs),
// while consumers join, crash and restart, the coordinator of group g never
// shows a generation below one the group was Stable at: a Stable
// generation's metadata record was acknowledged by the in-sync replicas
// before any member got its partitions, so the next coordinator, elected
// from them, loads it or a later one.
func TestGroupGenerationNeverRestarts(t *testing.T) {
	kinds := []cluster.ActionKind{cluster.ActKill, cluster.ActStop, cluster.ActStart, cluster.ActStart, cluster.ActRun, cluster.ActRun,
		cluster.ActCrashConsumer, cluster.ActRestartConsumer}
	rapid.Check(t, func(t *rapid.T) {
		w := loadWorld(t, rapid.Uint64().Draw(t, "seed"), "c1", "c2")
		var stable int32
		n := rapid.IntRange(1, 15).Draw(t, "actions")
		for i := range n {
			a := cluster.Action{Kind: rapid.SampledFrom(kinds).Draw(t, fmt.Sprintf("action %d", i)),
				Broker: rapid.Int32Range(1, 3).Draw(t, fmt.Sprintf("broker %d", i)),
				Name:   rapid.SampledFrom([]string{"c1", "c2"}).Draw(t, fmt.Sprintf("consumer %d", i)),
				Ms:     rapid.Int64Range(1, 40_000).Draw(t, fmt.Sprintf("ms %d", i))}
			if err := w.Do(a); err != nil && w.Err() != nil {
				t.Fatalf("after %s the world failed internally: %v", a, w.Err())
			}
			g, ok := groupG(w.State())
			if !ok || g.Coordinator < 0 || g.State == "Unknown" {
				continue
			}
			if g.Generation < stable {
				t.Fatalf("after %s, group g is at generation %d (%s, coordinator b%d), below the Stable generation %d seen before\n%s",
					a, g.Generation, g.State, g.Coordinator, stable, w.State().Text())
			}
			if g.State == "Stable" {
				stable = max(stable, g.Generation)
			}
		}
	})
}

// TestConsumerGroupFailoverKeepsEpochs: the broker coordinating a
// consumer-protocol group (KIP-848) of three members is killed. The broker
// that takes its __consumer_offsets partition over replays the group's
// records (an event says so), and the members carry on at their epochs:
// the same group epoch, member ids, member epochs and partitions, nobody
// fenced, nothing processed twice.
func TestConsumerGroupFailoverKeepsEpochs(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 5, OffsetsTopicNumPartitions: 3, Rules: replica.Modern})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 6}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", RecordsPerSec: 20}))
	for _, c := range []string{"c1", "c2", "c3"} {
		require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: c, Group: "g", Topics: []string{"t"}, GroupProtocol: cluster.GroupProtocolConsumer}))
		require.NoError(t, w.RunFor(5_000))
	}
	require.NoError(t, w.RunFor(20_000))
	before, ok := groupG(w.State())
	require.True(t, ok)
	require.Equal(t, []any{"Stable", 3}, []any{before.State, len(before.Members)}, w.State().Text())
	killedAt := len(w.Events())
	require.NoError(t, w.Kill(before.Coordinator))
	require.NoError(t, w.RunFor(30_000))

	st := w.State()
	after, ok := groupG(st)
	require.True(t, ok)
	require.NotEqual(t, before.Coordinator, after.Coordinator, "the coordinator moved")
	require.Equal(t, []any{"Stable", before.Generation, before.AssignmentEpoch}, []any{after.State, after.Generation, after.AssignmentEpoch}, st.Text())
	if diff := cmp.Diff(memberEpochs(before), memberEpochs(after)); diff != "" {
		t.Errorf("the members' epochs and partitions changed with the coordinator (-before +after):\n%s", diff)
	}
	checkFailoverEvents(t, w.Events()[killedAt:], after.Coordinator, "loaded consumer group g ", ") fenced: ", "UNKNOWN_MEMBER_ID", "FENCED_MEMBER_EPOCH")
	for _, c := range st.Consumers {
		require.Zero(t, c.Duplicates, "consumer %s processed records again", c.ID)
	}
	require.Empty(t, w.InternalErrors())
}
