package cluster_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// groupWorld is a small world with one group of two consumers reading a
// topic of 4 partitions that a producer fills.
func groupWorld(t *testing.T, seed uint64) *cluster.World {
	w, err := cluster.New(cluster.Config{Seed: seed, OffsetsTopicNumPartitions: 5, TickMs: 100})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "orders", Partitions: 4}))
	require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "orders", RecordsPerSec: 40}))
	for _, name := range []string{"c1", "c2"} {
		require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: name, Group: "g", Topics: []string{"orders"}}))
	}
	require.NoError(t, w.RunFor(12000))
	return w
}

func TestGroupStateJSONHasTheIssuesFields(t *testing.T) {
	w := groupWorld(t, 1)
	b, err := w.State().JSON()
	require.NoError(t, err)
	var doc struct {
		Groups    []map[string]json.RawMessage `json:"groups"`
		Consumers []map[string]json.RawMessage `json:"consumers"`
	}
	require.NoError(t, json.Unmarshal(b, &doc))
	require.Len(t, doc.Groups, 1)
	keys := func(m map[string]json.RawMessage) []string {
		out := make([]string, 0, len(m))
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	for _, k := range []string{"name", "state", "generation", "protocol", "members", "offsets"} {
		if !slices.Contains(keys(doc.Groups[0]), k) {
			t.Errorf("group JSON lacks %q: has %v", k, keys(doc.Groups[0]))
		}
	}
	var g struct {
		Protocol string `json:"protocol"`
		Members  []struct {
			ID         string `json:"id"`
			Partitions []struct {
				Topic     string `json:"topic"`
				Partition int32  `json:"partition"`
			} `json:"partitions"`
		} `json:"members"`
		Offsets []struct {
			Topic        string `json:"topic"`
			Partition    int32  `json:"partition"`
			Committed    int64  `json:"committed"`
			LogEndOffset int64  `json:"log_end_offset"`
			Lag          int64  `json:"lag"`
		} `json:"offsets"`
	}
	require.NoError(t, json.Unmarshal(mustMarshal(t, doc.Groups[0]), &g))
	if g.Protocol != "eager" {
		t.Errorf("the default [range, cooperative-sticky] is eager in practice, JSON says %q", g.Protocol)
	}
	owned := 0
	for _, m := range g.Members {
		owned += len(m.Partitions)
	}
	if len(g.Members) != 2 || owned != 4 {
		t.Errorf("two members should share the 4 partitions, JSON has %d members owning %d", len(g.Members), owned)
	}
	for _, o := range g.Offsets {
		if o.Committed >= 0 && o.Lag != o.LogEndOffset-o.Committed {
			t.Errorf("%s-%d: lag %d is not log end %d minus committed %d", o.Topic, o.Partition, o.Lag, o.LogEndOffset, o.Committed)
		}
	}
	want := []string{"duplicates", "group", "id", "member_id", "processed", "status"}
	for _, c := range doc.Consumers {
		if diff := cmp.Diff(want, keys(c)); diff != "" {
			t.Errorf("group consumer JSON fields (-want +got):\n%s", diff)
		}
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

func TestGroupWorldIsDeterministic(t *testing.T) {
	a, b := groupWorld(t, 7), groupWorld(t, 7)
	require.NoError(t, a.CrashConsumer("c1"))
	require.NoError(t, b.CrashConsumer("c1"))
	require.NoError(t, a.RunFor(50000))
	require.NoError(t, b.RunFor(50000))
	if diff := cmp.Diff(a.Events(), b.Events()); diff != "" {
		t.Fatalf("seed 7 twice gave two timelines (-first +second):\n%s", diff)
	}
	if diff := cmp.Diff(a.State().Text(), b.State().Text()); diff != "" {
		t.Fatalf("seed 7 twice gave two states (-first +second):\n%s", diff)
	}
	f, err := a.Fork()
	require.NoError(t, err)
	if diff := cmp.Diff(a.State().Text(), f.State().Text()); diff != "" {
		t.Fatalf("a fork replayed from the actions differs (-original +fork):\n%s", diff)
	}
	past, err := a.AtTime(30000)
	require.NoError(t, err)
	if diff := cmp.Diff("Stable", past.State().Groups[0].State); diff != "" {
		t.Fatalf("at t=30 s, before c1's session expired, the group (-want +got):\n%s", diff)
	}
}

// TestGroupsNeverShareAPartition: whatever members join, close, crash,
// restart or stall, and whatever brokers crash, no two running consumers
// of one group fetch the same partition at the same moment (the
// cooperative protocol's safety rule, and the eager one's by
// construction), committed offsets never pass the HW, and the world never
// fails internally.
func TestGroupsNeverShareAPartition(t *testing.T) {
	kinds := []cluster.ActionKind{cluster.ActAddConsumer, cluster.ActCloseConsumer, cluster.ActCrashConsumer,
		cluster.ActRestartConsumer, cluster.ActStallConsumer, cluster.ActRun, cluster.ActRun, cluster.ActKill, cluster.ActStart, cluster.ActAddPartitions}
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		w, err := cluster.New(cluster.Config{Seed: seed, OffsetsTopicNumPartitions: 3})
		if err != nil {
			t.Fatalf("new world: %v", err)
		}
		assignors := rapid.SampledFrom([][]string{{"range"}, {"roundrobin"}, {"sticky"}, {"cooperative-sticky"}}).Draw(t, "assignors")
		must := func(err error) {
			if err != nil {
				t.Fatalf("setup: %v", err)
			}
		}
		must(w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 3}))
		must(w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", RecordsPerSec: 20}))
		names := []string{"c0", "c1", "c2", "c3"}
		added := 0
		n := rapid.IntRange(1, 12).Draw(t, "actions")
		for i := range n {
			kind := rapid.SampledFrom(kinds).Draw(t, fmt.Sprintf("action %d", i))
			name := rapid.SampledFrom(names).Draw(t, fmt.Sprintf("consumer %d", i))
			a := cluster.Action{Kind: kind, Name: name, Broker: rapid.Int32Range(1, 3).Draw(t, fmt.Sprintf("broker %d", i)),
				Ms: rapid.Int64Range(1, 60000).Draw(t, fmt.Sprintf("ms %d", i))}
			switch kind {
			case cluster.ActAddConsumer:
				if added == len(names) {
					continue
				}
				a.Consumer = cluster.ConsumerConfig{Name: names[added], Group: "g", Topics: []string{"t"}, Assignors: assignors,
					GroupInstanceID: map[bool]string{true: "i" + names[added]}[rapid.Bool().Draw(t, fmt.Sprintf("static %d", i))]}
				added++
			case cluster.ActAddPartitions:
				a.Name, a.N = "t", 4+i
			}
			if err := w.Do(a); err != nil && w.Err() != nil {
				t.Fatalf("after %s the world failed internally: %v", a, w.Err())
			}
			checkGroupSafety(t, w, a)
		}
	})
}

func checkGroupSafety(t *rapid.T, w *cluster.World, after cluster.Action) {
	s := w.State()
	for _, g := range s.Groups {
		readers := map[cluster.PartitionRef]string{}
		for _, m := range g.Members {
			if strings.HasPrefix(m.Idle, "its process is gone") {
				continue // its process is gone: the coordinator's record only
			}
			for _, p := range m.Partitions {
				if other, ok := readers[p]; ok {
					t.Fatalf("after %s, members %s and %s of group %s both read %s-%d", after, other, m.ID, g.Name, p.Topic, p.Partition)
				}
				readers[p] = m.ID
			}
		}
		for _, o := range g.Offsets {
			if o.LogEndOffset >= 0 && o.Committed > o.LogEndOffset {
				t.Fatalf("after %s, group %s committed %d on %s-%d beyond its HW %d", after, g.Name, o.Committed, o.Topic, o.Partition, o.LogEndOffset)
			}
		}
	}
}
