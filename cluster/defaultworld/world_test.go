package defaultworld_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster/defaultworld"
	"github.com/kafkalive/kafkalive/replica"
)

// TestNewHasTheParts: the world the page serves starts with three
// brokers, orders and profiles replicated three times beside
// __consumer_offsets' three partitions, the three producers and the three
// group members, each as its config says.
func TestNewHasTheParts(t *testing.T) {
	w, err := defaultworld.New(defaultworld.Seed)
	require.NoError(t, err)
	var topics []string
	for _, tp := range w.Topics() {
		topics = append(topics, fmt.Sprintf("%s:%dx%d", tp.Name, len(tp.Assignment), len(tp.Assignment[0])))
	}
	slices.Sort(topics)
	if diff := cmp.Diff([]string{"__consumer_offsets:3x3", "orders:3x3", "profiles:1x3"}, topics); diff != "" {
		t.Errorf("topics (-want +got):\n%s", diff)
	}
	var want, producers []string
	for _, p := range defaultworld.Producers() {
		want = append(want, fmt.Sprintf("%s on %s acks=%s keys %v", p.Name, p.Topic, p.Acks, p.Keys))
	}
	for _, p := range w.Producers() {
		c := p.Config() // the defaults filled in
		producers = append(producers, fmt.Sprintf("%s on %s acks=%s keys %v", c.Name, c.Topic, c.Acks, c.Keys))
	}
	if diff := cmp.Diff(want, producers); diff != "" {
		t.Errorf("producers (-want +got):\n%s", diff)
	}
	var consumers []string
	for _, c := range w.Consumers() {
		consumers = append(consumers, c.Name())
	}
	if diff := cmp.Diff([]string{"billing-1", "billing-2", "indexer"}, consumers); diff != "" {
		t.Errorf("consumers (-want +got):\n%s", diff)
	}
	cfg := w.Config() // the defaults filled in
	if cfg.Seed != defaultworld.Seed || cfg.BrokerDiskBytes != defaultworld.DiskBytes || cfg.Timeline.KeepBytes != defaultworld.KeepBytes ||
		cfg.ClientTopicSegmentBytes != defaultworld.ClientSegmentBytes || cfg.Log.SegmentBytes != 16<<10 || !cfg.CombinedControllers {
		t.Errorf("the world runs with %+v, not the page's config", cfg)
	}
	if len(w.Brokers()) != 3 || w.NowMs() != 0 {
		t.Errorf("%d brokers at %d ms, want 3 at 0", len(w.Brokers()), w.NowMs())
	}
}

// TestNewWithBuildsOnTheConfigGiven: the same parts on a cluster of
// another config (other rules), and a seed changes nothing but the
// world's random draws.
func TestNewWithBuildsOnTheConfigGiven(t *testing.T) {
	cfg := defaultworld.Config(3)
	cfg.Rules = replica.V0_10
	w, err := defaultworld.NewWith(cfg)
	require.NoError(t, err)
	if got := w.Config().Rules; got != replica.V0_10 {
		t.Errorf("rules %s, want v0.10", got)
	}
	if got := len(w.Producers()) + len(w.Consumers()); got != 6 {
		t.Errorf("%d producers and consumers, want 6", got)
	}
	a, b := defaultworld.Config(1), defaultworld.Config(2)
	a.Seed = b.Seed
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two seeds' configs differ beyond the seed (-want +got):\n%s", diff)
	}
}

// TestTheWorldRunsSettled: a minute on, every partition of the world the
// page serves has its leader and its whole ISR, both groups are Stable,
// and nothing went wrong inside.
func TestTheWorldRunsSettled(t *testing.T) {
	w, err := defaultworld.New(defaultworld.Seed)
	require.NoError(t, err)
	require.NoError(t, w.RunFor(60_000))
	require.NoError(t, w.Err())
	st := w.State()
	for _, p := range st.Partitions {
		if p.Leader <= 0 || len(p.ISR) != 3 {
			t.Errorf("%s-%d: leader %d, isr %v", p.Topic, p.Partition, p.Leader, p.ISR)
		}
	}
	var groups []string
	for _, g := range st.Groups {
		groups = append(groups, g.Name+" "+g.State)
	}
	if diff := cmp.Diff([]string{"billing Stable", "search-index Stable"}, groups); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
}
