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

// A transactional offset commit (TxnOffsetCommit) counts, and ages, once
// its transaction commits: held open past the retention, it is not
// expired under it, and it is there right after EndTxn; committed long
// ago as it was, it expires at the next check.
func TestTransactionalOffsetsExpireOnceCommitted(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 3, MinInsyncReplicas: 2, Rules: replica.Modern,
		OffsetsRetentionMinutes: 1, OffsetsRetentionCheckIntervalMs: 10_000})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "g", Partitions: 1, ReplicationFactor: 3}))
	require.NoError(t, w.RunFor(500))
	c := xclient{1, "txn", "10.0.0.1:40000"}

	find := kmsg.NewPtrFindCoordinatorRequest()
	find.SetVersion(4)
	find.CoordinatorType, find.CoordinatorKeys = 1, []string{"tx"}
	var txnCoord int32
	for range 100 {
		r := xask[*kmsg.FindCoordinatorResponse](t, w, c, 1, find, 10)
		if r.Coordinators[0].ErrorCode == 0 {
			txnCoord = r.Coordinators[0].NodeID
			break
		}
		require.NoError(t, w.RunFor(100))
	}
	require.NotZero(t, txnCoord, "a transaction coordinator")
	tx := "tx"
	init := kmsg.NewPtrInitProducerIDRequest()
	init.SetVersion(4)
	init.TransactionalID, init.TransactionTimeoutMillis = &tx, 600_000
	var pid int64
	var epoch int16
	for range 100 {
		r := xask[*kmsg.InitProducerIDResponse](t, w, c, txnCoord, init, 5000)
		if r.ErrorCode == 0 {
			pid, epoch = r.ProducerID, r.ProducerEpoch
			break
		}
		require.NoError(t, w.RunFor(100))
	}
	require.NotZero(t, pid, "a producer id")

	add := kmsg.NewPtrAddOffsetsToTxnRequest()
	add.SetVersion(3)
	add.TransactionalID, add.ProducerID, add.ProducerEpoch, add.Group = tx, pid, epoch, "g"
	require.Zero(t, xask[*kmsg.AddOffsetsToTxnResponse](t, w, c, txnCoord, add, 5000).ErrorCode)

	groupCoord, _ := findCoordinator(t, w, c, "g", 10_000)
	commit := kmsg.NewPtrTxnOffsetCommitRequest()
	commit.SetVersion(3)
	commit.TransactionalID, commit.Group, commit.ProducerID, commit.ProducerEpoch, commit.Generation = tx, "g", pid, epoch, -1
	rt := kmsg.NewTxnOffsetCommitRequestTopic()
	rt.Topic = "g"
	rp := kmsg.NewTxnOffsetCommitRequestTopicPartition()
	rp.Offset, rp.LeaderEpoch = 5, -1
	rt.Partitions = append(rt.Partitions, rp)
	commit.Topics = append(commit.Topics, rt)
	for _, t2 := range xask[*kmsg.TxnOffsetCommitResponse](t, w, c, groupCoord, commit, 5000).Topics {
		for _, p := range t2.Partitions {
			require.Zero(t, p.ErrorCode, "TxnOffsetCommit")
		}
	}

	require.NoError(t, w.RunFor(90_000)) // past the retention, with the transaction open
	end := kmsg.NewPtrEndTxnRequest()
	end.SetVersion(3)
	end.TransactionalID, end.ProducerID, end.ProducerEpoch, end.Commit = tx, pid, epoch, true
	require.Zero(t, xask[*kmsg.EndTxnResponse](t, w, c, txnCoord, end, 5000).ErrorCode)
	require.NoError(t, w.RunFor(500)) // the markers written
	require.Equal(t, map[string]map[int32]int64{"g": {0: 5}}, fetchOffsets(t, w, c, groupCoord, "g"), "committed with its transaction")

	require.NoError(t, w.RunFor(11_000))
	require.Equal(t, map[string]map[int32]int64{"g": {}}, fetchOffsets(t, w, c, groupCoord, "g"), "expired at the next check: committed 90 s ago")
}
