package cluster_test

import (
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/explore"
	"github.com/kafkalive/kafkalive/group"
)

var (
	handoverSeeds     = flag.Int("handover.n", 8, "seeds of TestHandoverStartsAtTheRevocationCommit")
	handoverUserSeeds = flag.Int("handover.users", 0, "also check this many user-level explorer sequences (from -handover.userbase+1) for the handover rule")
	handoverUserBase  = flag.Uint64("handover.userbase", 0, "the first user-level sequence's seed is userbase+1")
)

// TestHandoverStartsAtTheRevocationCommit: a group consumer whose
// revocation commit is slow (a follower of the group's offsets partition is
// cut off, so the acks=all append waits for the ISR to shrink) rejoins only
// once the commit is answered. So the consumer that takes its partition
// next starts at that commit: it neither reads again what the previous
// owner processed nor, with no earlier commit, resets to latest and skips
// what it had not. (The user explorer's seed 120 met the skip: the new
// owner asked for the committed offset before the revocation commit was
// stored.)
func TestHandoverStartsAtTheRevocationCommit(t *testing.T) {
	checked := 0
	for seed := uint64(1); seed <= uint64(*handoverSeeds); seed++ {
		w, err := cluster.New(cluster.Config{Seed: seed, OffsetsTopicNumPartitions: 5, TickMs: 100})
		require.NoError(t, err)
		require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "orders", Partitions: 4}))
		require.NoError(t, w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "orders", RecordsPerSec: 40}))
		assignors := []string{"range"}
		if seed%2 == 0 {
			assignors = []string{"cooperative-sticky"}
		}
		for _, name := range []string{"c1", "c2"} {
			require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: name, Group: "g", Topics: []string{"orders"}, Assignors: assignors}))
		}
		// Once the group is Stable, before its first auto-commit or past
		// it: the handover meets no committed offset (reset to latest) or
		// an older one.
		for !groupStable(w.State(), "g") {
			require.NoError(t, w.RunFor(100))
			require.Less(t, w.NowMs(), int64(60000), "group g never became Stable")
		}
		require.NoError(t, w.RunFor(int64(1500*(seed%4))))
		coord, follower := offsetsLeaderAndFollower(t, w, "g")
		require.NoError(t, w.Partition([]int32{coord}, []int32{follower}))
		require.NoError(t, w.RunFor(200))
		if seed%3 == 0 {
			require.NoError(t, w.CloseConsumer("c1"))
		} else {
			require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "c3", Group: "g", Topics: []string{"orders"}, Assignors: assignors}))
		}
		require.NoError(t, w.RunFor(40000))
		require.NoError(t, w.Heal())
		require.NoError(t, w.RunFor(10000))
		n, bad := checkHandovers(w)
		checked += n
		for _, b := range bad {
			t.Errorf("seed %d (offsets leader b%d cut from b%d): %s", seed, coord, follower, b)
		}
		if len(bad) > 0 {
			for _, e := range w.Events() {
				if e.Kind == cluster.EventGroup {
					t.Log(e)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatalf("no partition changed owner after a revocation commit: the test checks nothing")
	}
	t.Logf("%d handovers after a revocation commit checked", checked)
	for i := uint64(1); i <= uint64(*handoverUserSeeds); i++ {
		seed := *handoverUserBase + i
		cfg := explore.UserConfig{Ops: 20}
		o, w, err := explore.RunUserSequence(cfg, seed, explore.UserSequence(cfg, seed))
		if err != nil || w == nil || o.OutsideModel {
			continue
		}
		n, bad := checkHandovers(w)
		checked += n
		for _, b := range bad {
			t.Errorf("user sequence %d: %s\nreplay: %s --events", seed, b, cfg.ReplayCommand(seed))
		}
	}
	if *handoverUserSeeds > 0 {
		t.Logf("with %d user-level sequences: %d handovers checked", *handoverUserSeeds, checked)
	}
}

func groupStable(st cluster.State, groupID string) bool {
	for _, g := range st.Groups {
		if g.Name == groupID {
			return g.State == "Stable"
		}
	}
	return false
}

// offsetsLeaderAndFollower returns the broker leading group's offsets
// partition (its coordinator) and a follower in that partition's ISR.
func offsetsLeaderAndFollower(t *testing.T, w *cluster.World, groupID string) (int32, int32) {
	p, err := group.OffsetsPartition(groupID, int32(w.Config().OffsetsTopicNumPartitions))
	require.NoError(t, err)
	for _, info := range w.TopicPartitions(cluster.OffsetsTopic) {
		if info.Partition != p {
			continue
		}
		for _, id := range info.ISR {
			if id != info.Leader {
				return info.Leader, id
			}
		}
	}
	t.Fatalf("%s-%d has no follower in its ISR", cluster.OffsetsTopic, p)
	return 0, 0
}

var (
	revokesRE = regexp.MustCompile(`^(\S+) revokes \[[^\]]*\], commits (.*)$`)
	startsRE  = regexp.MustCompile(`^(\S+) starts at committed offset (\d+)$|^(\S+): no committed offset, auto\.offset\.reset=\w+: starts at (\d+)$`)
	failedRE  = regexp.MustCompile(`^(\S+): commit of \d+ offsets`)
)

// checkHandovers reads a world's group events: each revocation commit
// (consumer C revokes P and commits P=N) that C was not told failed (C
// reports a commit error afterwards) must be what the next consumer of C's
// group to start P starts from: a committed offset of at least N. It
// returns how many such handovers it checked and what broke the rule.
func checkHandovers(w *cluster.World) (int, []string) {
	type claim struct {
		by     string
		offset int64
		at     int64
	}
	groupOf := map[string]string{}
	for _, c := range w.State().Consumers {
		groupOf[c.Name] = c.Group
	}
	claims := map[string]claim{} // group/partition -> the last revocation commit
	checked := 0
	var bad []string
	for _, e := range w.Events() {
		if e.Kind != cluster.EventGroup {
			continue
		}
		if m := revokesRE.FindStringSubmatch(e.Text); m != nil {
			for _, kv := range strings.Fields(m[2]) {
				tp, off, ok := strings.Cut(kv, "=")
				if !ok {
					continue // "nothing"
				}
				n, err := strconv.ParseInt(off, 10, 64)
				if g := groupOf[m[1]]; err == nil && g != "" {
					claims[g+"/"+tp] = claim{by: m[1], offset: n, at: e.TimeMs}
				}
			}
			continue
		}
		if m := failedRE.FindStringSubmatch(e.Text); m != nil {
			for k, c := range claims {
				if c.by == m[1] {
					delete(claims, k)
				}
			}
			continue
		}
		if m := startsRE.FindStringSubmatch(e.Text); m != nil && e.Topic != "" {
			who, from, committed := m[1], m[2], true
			if who == "" {
				who, from, committed = m[3], m[4], false
			}
			tp := fmt.Sprintf("%s-%d", e.Topic, e.Partition)
			k := groupOf[who] + "/" + tp
			c, ok := claims[k]
			if !ok {
				continue
			}
			delete(claims, k)
			checked++
			n, _ := strconv.ParseInt(from, 10, 64)
			switch {
			case !committed:
				bad = append(bad, fmt.Sprintf("t=%d %s found no committed offset for %s and started at %d, but %s committed %d on revoking it at t=%d",
					e.TimeMs, who, tp, n, c.by, c.offset, c.at))
			case n < c.offset:
				bad = append(bad, fmt.Sprintf("t=%d %s started %s at committed offset %d, but %s committed %d on revoking it at t=%d",
					e.TimeMs, who, tp, n, c.by, c.offset, c.at))
			}
		}
	}
	return checked, bad
}
