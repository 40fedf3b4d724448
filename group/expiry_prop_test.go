package group_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/group"
)

// Consumers join groups, commit (their topic's offsets, and sometimes a
// topic nobody subscribes to), close, crash; a tool commits as a simple
// consumer; time passes; and the coordinator expires offsets with any
// retention. The offsets that expire are exactly those KIP-211's rule
// names, as Kafka 3.7's GroupMetadata.removeExpiredOffsets applies it: an
// Empty consumer group's all together, retention after it became Empty; a
// group the coordinator does not know (a simple consumer's) one by one,
// retention after their commits; a Stable group's those of topics no
// member subscribes to, retention after their commits; none in a
// rebalance. A group Empty and left without offsets is forgotten, and no
// other; so the groups and offsets held return to what the last
// retention's commits and members hold.
//
// Replay a failure with go test ./group -run TestOffsetsExpireAsKIP211Says -rapid.seed=SEED.
func TestOffsetsExpireAsKIP211Says(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := newEnv(t, group.DefaultConfig())
		e.metadata = []group.TopicMetadata{{Topic: "orders", Partitions: 3}}
		emptySince := map[string]int64{}
		e.onTransition = func(g group.GroupStatus, before string) {
			if g.State == group.Empty && !strings.HasPrefix(before, "Empty ") {
				emptySince[g.GroupID] = e.nowMs
			}
		}
		names := []string{"C1", "C2", "C3"}
		for i := range rapid.IntRange(1, 60).Draw(t, "actions") {
			label := func(s string) string { return fmt.Sprintf("%s %d", s, i) }
			name := rapid.SampledFrom(names).Draw(t, label("consumer"))
			sm := e.members[name]
			switch rapid.IntRange(0, 6).Draw(t, label("action")) {
			case 0:
				if sm == nil || sm.crashed || sm.m.State() == group.Left {
					e.start(name, group.DefaultMemberConfig(rapid.SampledFrom([]string{"g", "h"}).Draw(t, label("group")), name, []string{"orders"}, group.RangeAssignor{}))
				}
			case 1:
				if sm != nil && !sm.crashed {
					sm.m.Close()
					e.deliver()
				}
			case 2:
				if sm != nil {
					sm.crashed = true
				}
			case 3:
				if sm != nil && !sm.crashed {
					topic := rapid.SampledFrom([]string{"orders", "orders", "unsubscribed"}).Draw(t, label("topic"))
					sm.m.Commit([]group.PartitionOffset{{TopicPartition: group.TopicPartition{Topic: topic, Partition: rapid.Int32Range(0, 2).Draw(t, label("partition"))}, LeaderEpoch: -1}})
					e.deliver()
				}
			case 4:
				po := group.PartitionOffset{TopicPartition: group.TopicPartition{Topic: "orders", Partition: rapid.Int32Range(0, 2).Draw(t, label("partition"))}, LeaderEpoch: -1}
				if err := e.coord.Step("tool", group.OffsetCommit{GroupID: rapid.SampledFrom([]string{"g", "h", "simple"}).Draw(t, label("group")), GenerationID: -1, Offsets: []group.PartitionOffset{po}}); err != nil {
					t.Fatal(err)
				}
				e.deliver()
			case 5:
				e.advance(rapid.Int64Range(0, 90_000).Draw(t, label("ms")), 1000)
			default:
				checkExpiry(t, i, e, emptySince, rapid.Int64Range(1, 120_000).Draw(t, label("retention ms")))
			}
		}
	})
}

// checkExpiry runs the expiry and checks it against KIP-211's rule.
func checkExpiry(t *rapid.T, i int, e *env, emptySince map[string]int64, retentionMs int64) {
	e.coord.Tick(e.nowMs)
	e.deliver()
	seen := map[string]group.GroupStatus{}
	for _, g := range e.coord.Groups() {
		seen[g.GroupID] = g
	}
	stored := e.storedOffsets()
	want := map[string][]group.TopicPartition{}
	for g, offsets := range stored {
		for _, o := range offsets {
			if expiresUnderKIP211(seen, emptySince, g, o, e.nowMs, retentionMs) {
				want[g] = append(want[g], o.TopicPartition)
			}
		}
	}
	got := e.coord.ExpireOffsets(retentionMs, stored, func(string) bool { return true })
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("action %d: offsets expired with retention %d ms at %d ms (-KIP-211 +got):\n%s", i, retentionMs, e.nowMs, d)
	}
	for _, g := range slices.Sorted(maps.Keys(got)) {
		for _, tp := range got[g] {
			rec := group.OffsetCommitRecord{Group: g, PartitionOffset: group.PartitionOffset{TopicPartition: tp}, Tombstone: true}
			if err := e.store.Commit(rec); err != nil {
				t.Fatal(err)
			}
			e.noteCommit(rec)
		}
	}
	for id, g := range seen {
		_, still := e.coord.Group(id)
		left := len(e.store.CommittedPartitions(id))
		if gone := g.State == group.Empty && left == 0; still == gone {
			t.Fatalf("action %d: group %s, %s with %d offsets left: still known %v", i, id, g.State, left, still)
		}
		if !still {
			delete(e.lastSeen, id)
		}
	}
}

// expiresUnderKIP211 is GroupMetadata.removeExpiredOffsets's verdict on
// offset o of group id (seen: the groups the coordinator knows).
func expiresUnderKIP211(seen map[string]group.GroupStatus, emptySince map[string]int64, id string, o group.StoredOffset, nowMs, retentionMs int64) bool {
	g, known := seen[id]
	switch {
	case !known || g.ProtocolType == "":
		return nowMs-o.CommitTimestampMs >= retentionMs
	case g.State == group.Empty:
		return nowMs-emptySince[id] >= retentionMs
	case g.State == group.Stable && g.ProtocolType == "consumer":
		for _, m := range g.Members {
			if slices.Contains(m.Protocol.Subscription.Topics, o.Topic) {
				return false
			}
		}
		return nowMs-o.CommitTimestampMs >= retentionMs
	}
	return false
}
