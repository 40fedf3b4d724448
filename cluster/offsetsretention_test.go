package cluster_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// Clients commit offsets under group ids of their own, as simple consumers
// do (generation -1, no member), at random moments of a world whose
// offsets.retention.minutes and offsets.retention.check.interval.ms are
// drawn. At every look, each offset committed less than the retention ago
// is there as committed, and each committed longer ago than the retention
// and a check interval is gone (tombstoned by its coordinator), so the
// groups and offsets the brokers hold return to what the last retention's
// commits hold.
//
// Replay a failure with go test ./cluster -run TestOffsetsOnlyGroupsExpire -rapid.seed=SEED.
func TestOffsetsOnlyGroupsExpire(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		retentionMin := rapid.IntRange(1, 3).Draw(t, "offsets.retention.minutes")
		checkMs := rapid.Int64Range(5_000, 60_000).Draw(t, "offsets.retention.check.interval.ms")
		w, err := cluster.New(cluster.Config{Seed: rapid.Uint64Range(1, 100).Draw(t, "seed"), MinInsyncReplicas: 2, Rules: replica.Modern,
			OffsetsTopicNumPartitions: 5, OffsetsRetentionMinutes: retentionMin, OffsetsRetentionCheckIntervalMs: checkMs})
		require.NoError(t, err)
		require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "g", Partitions: 4, ReplicationFactor: 3}))
		require.NoError(t, w.RunFor(500))
		retentionMs := int64(retentionMin) * 60_000
		committed := map[string]map[int32][2]int64{} // group → partition → (offset, commit time)
		for i := range rapid.IntRange(1, 30).Draw(t, "actions") {
			if rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("run %d", i)) == 0 {
				require.NoError(t, w.RunFor(rapid.Int64Range(0, 150_000).Draw(t, fmt.Sprintf("run ms %d", i))))
				checkRetained(t, w, committed, retentionMs+checkMs+1000, retentionMs)
				continue
			}
			g := fmt.Sprintf("simple-%d", rapid.IntRange(1, 12).Draw(t, fmt.Sprintf("group %d", i)))
			p := rapid.Int32Range(0, 3).Draw(t, fmt.Sprintf("partition %d", i))
			offset := int64(i)
			coord := rcoordinator(t, w, g)
			at := w.NowMs()
			r := rask[*kmsg.OffsetCommitResponse](t, w, coord, commitReq(g, "", -1, "g", map[int32]int64{p: offset}))
			if commitCodes(r)[p] != 0 {
				continue
			}
			if committed[g] == nil {
				committed[g] = map[int32][2]int64{}
			}
			committed[g][p] = [2]int64{offset, at}
		}
	})
}

// checkRetained checks each group's offsets at its coordinator against
// committed: those younger than retentionMs are there, those older than
// goneMs are not.
func checkRetained(t *rapid.T, w *cluster.World, committed map[string]map[int32][2]int64, goneMs, retentionMs int64) {
	for g, parts := range committed {
		coord := rcoordinator(t, w, g)
		req := kmsg.NewPtrOffsetFetchRequest()
		req.SetVersion(8)
		rg := kmsg.NewOffsetFetchRequestGroup()
		rg.Group = g
		req.Groups = append(req.Groups, rg)
		now := w.NowMs()
		got := map[int32]int64{}
		for _, rg := range rask[*kmsg.OffsetFetchResponse](t, w, coord, req).Groups {
			for _, rt := range rg.Topics {
				for _, rp := range rt.Partitions {
					if rp.Offset >= 0 {
						got[rp.Partition] = rp.Offset
					}
				}
			}
		}
		for p, c := range parts {
			age := now - c[1]
			switch o, ok := got[p]; {
			case age < retentionMs && (!ok || o != c[0]):
				t.Fatalf("at %d ms: %s's offset of g-%d, committed %d ms ago (%d), is %d (there: %v) under a retention of %d ms",
					now, g, p, age, c[0], o, ok, retentionMs)
			case age >= goneMs && ok:
				t.Fatalf("at %d ms: %s's offset of g-%d, committed %d ms ago, is still there (retention %d ms)", now, g, p, age, retentionMs)
			case age >= goneMs:
				delete(parts, p) // gone, as it should be
			}
		}
	}
}

// rcoordinator asks broker 1 for groupID's coordinator every 100 ms until
// one is named.
func rcoordinator(t *rapid.T, w *cluster.World, groupID string) int32 {
	req := kmsg.NewPtrFindCoordinatorRequest()
	req.SetVersion(4)
	req.CoordinatorKeys = []string{groupID}
	for range 100 {
		r := rask[*kmsg.FindCoordinatorResponse](t, w, 1, req)
		if r.Coordinators[0].ErrorCode == 0 {
			return r.Coordinators[0].NodeID
		}
		require.NoError(t, w.RunFor(100))
	}
	t.Fatalf("no coordinator for %s within 10 s", groupID)
	return 0
}

// rask sends req to broker as client 1 and runs the world 10 ms at a time
// until its answer comes (at most 10 s).
func rask[R kmsg.Response](t *rapid.T, w *cluster.World, broker int32, req kmsg.Request) R {
	id, err := w.External(cluster.ExternalRequest{Client: 1, ClientID: "tool", Broker: broker, Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)})
	require.NoError(t, err)
	for range 1000 {
		for _, a := range w.ExternalAnswers() {
			if a.ID == id {
				return a.Response.(R)
			}
		}
		require.NoError(t, w.RunFor(10))
	}
	t.Fatalf("no answer to %s within 10 s", kmsg.NameForKey(req.Key()))
	var zero R
	return zero
}

// The default world keeps offsets a week, as Kafka does, and its brokers
// say so (DescribeConfigs).
func TestOffsetsRetentionDefaults(t *testing.T) {
	w := xgroupWorld(t, 1)
	require.Equal(t, 7*24*60, w.Config().OffsetsRetentionMinutes)
	require.Equal(t, int64(600_000), w.Config().OffsetsRetentionCheckIntervalMs)
}
