package interop

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
	"github.com/kafkalive/kafkalive/web"
)

// TestReadOnlyAdminKadm asks the simulated brokers, through franz-go,
// every read-only admin API an observer of a cluster asks, and checks
// each answer against the world: DescribeCluster (brokers at their
// listeners, the cluster id), DescribeLogDirs (kadm: a log for every
// replica the world places, nowhere else), DescribeQuorum (the active
// controller and its voters), ListPartitionReassignments (kadm: none), and
// ListOffsets with the debugging replica id at each follower (its own log
// end offset).
func TestReadOnlyAdminKadm(t *testing.T) {
	lc := startLive(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	lc.createTopic(t, ctx, "observed", 3)
	cl := lc.kgoClient(t, kgo.DefaultProduceTopic("observed"), kgo.ClientID("admin-producer"))
	for i := range 30 {
		require.NoError(t, cl.ProduceSync(ctx, &kgo.Record{Key: []byte{byte('a' + i%5)}, Value: []byte("v" + strconv.Itoa(i))}).FirstErr())
	}
	adm := kadm.NewClient(cl)

	dc, err := kmsg.NewPtrDescribeClusterRequest().RequestWith(ctx, cl)
	require.NoError(t, err)
	require.NoError(t, kerr.ErrorForCode(dc.ErrorCode))
	var clusterID string
	lc.world(t, func(w *cluster.World) error { clusterID = w.ClusterID(); return nil })
	require.Equal(t, clusterID, dc.ClusterID)
	var listed []string
	for _, b := range dc.Brokers {
		listed = append(listed, strconv.Itoa(int(b.NodeID))+"@"+b.Host+":"+strconv.Itoa(int(b.Port)))
	}
	want := []string{"1@" + lc.bootstrap(1), "2@" + lc.bootstrap(2), "3@" + lc.bootstrap(3)}
	if diff := cmp.Diff(want, listed); diff != "" {
		t.Errorf("DescribeCluster brokers (-want +got):\n%s", diff)
	}

	dirs, err := adm.DescribeAllLogDirs(ctx, nil)
	require.NoError(t, err)
	for id, ds := range dirs {
		require.NoError(t, ds.Error(), "broker %d", id)
	}
	var st cluster.State
	lc.world(t, func(w *cluster.World) error { st = w.State(); return nil })
	for _, p := range st.Partitions {
		if p.Topic != "observed" {
			continue
		}
		for id := int32(1); id <= 3; id++ {
			d, ok := dirs[id]["/kafka-logs"]
			require.True(t, ok, "broker %d: no /kafka-logs", id)
			_, has := d.Topics["observed"][p.Partition]
			if has != slices.Contains(p.Replicas, id) {
				t.Errorf("DescribeLogDirs: broker %d holds observed-%d: %t, replicas %v", id, p.Partition, has, p.Replicas)
			}
		}
	}

	dq := kmsg.NewPtrDescribeQuorumRequest()
	dq.Topics = []kmsg.DescribeQuorumRequestTopic{{Topic: "__cluster_metadata", Partitions: []kmsg.DescribeQuorumRequestTopicPartition{{Partition: 0}}}}
	qr, err := dq.RequestWith(ctx, cl)
	require.NoError(t, err)
	require.NoError(t, kerr.ErrorForCode(qr.ErrorCode))
	require.Len(t, qr.Topics, 1)
	qp := qr.Topics[0].Partitions[0]
	require.NoError(t, kerr.ErrorForCode(qp.ErrorCode))
	require.Equal(t, st.ActiveController, qp.LeaderID, "the quorum's leader is the active controller")
	var voters []int32
	for _, v := range qp.CurrentVoters {
		voters = append(voters, v.ReplicaID)
	}
	require.Equal(t, []int32{1, 2, 3}, voters)

	reassigning, err := adm.ListPartitionReassignments(ctx, nil)
	require.NoError(t, err)
	require.Empty(t, reassigning)

	// the debugging replica id at each replica: its own log end offset,
	// never above what the world's State says it is
	for _, p := range st.Partitions {
		if p.Topic != "observed" {
			continue
		}
		for _, id := range p.Replicas {
			req := kmsg.NewPtrListOffsetsRequest()
			req.ReplicaID = -2
			rt := kmsg.NewListOffsetsRequestTopic()
			rt.Topic = "observed"
			rp := kmsg.NewListOffsetsRequestTopicPartition()
			rp.Partition, rp.Timestamp, rp.CurrentLeaderEpoch = p.Partition, -1, -1
			rt.Partitions = append(rt.Partitions, rp)
			req.Topics = append(req.Topics, rt)
			resp, err := req.RequestWith(ctx, cl.Broker(int(id)))
			require.NoError(t, err)
			got := resp.Topics[0].Partitions[0]
			require.NoError(t, kerr.ErrorForCode(got.ErrorCode), "broker %d observed-%d", id, p.Partition)
			var now cluster.State
			lc.world(t, func(w *cluster.World) error { now = w.State(); return nil })
			for _, pp := range now.Partitions {
				if pp.Topic == p.Topic && pp.Partition == p.Partition {
					for _, l := range pp.Logs {
						if l.Broker == id && got.Offset > l.LogEndOffset {
							t.Errorf("broker %d observed-%d: LEO %d answered, the log ends at %d", id, p.Partition, got.Offset, l.LogEndOffset)
						}
					}
				}
			}
		}
	}
}

// TestFollowerFetchingKgo: a franz-go consumer in rack r2 (client.rack)
// of a world whose brokers set broker.rack and the rack-aware
// replica.selector.class reads every record of a partition led by broker
// 1, and reads them from broker 2, the replica in its rack (KIP-392): the
// leader names it the preferred read replica and the follower serves the
// fetches.
func TestFollowerFetchingKgo(t *testing.T) {
	cfg := defaultworld.Config(defaultworld.Seed)
	cfg.BrokerRacks = []string{"r1", "r2", "r3"}
	cfg.ReplicaSelectorClass = cluster.RackAwareReplicaSelector
	cfg.ClockStartMs = time.Now().UnixMilli() // franz-go stamps its records with the wall clock
	live, err := web.NewLiveConfig(cfg)
	require.NoError(t, err)
	lc := serveLive(t, live, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	lc.createTopic(t, ctx, "racked", 1)
	var leader int32
	lc.world(t, func(w *cluster.World) error { leader = w.PartitionLeader("racked", 0); return nil })
	reader := leader%3 + 1 // a follower: every broker holds a replica
	rack := "r" + strconv.Itoa(int(reader))
	p := lc.kgoClient(t, kgo.DefaultProduceTopic("racked"), kgo.ClientID("racked-producer"))
	for i := range 20 {
		require.NoError(t, p.ProduceSync(ctx, &kgo.Record{Value: []byte("v" + strconv.Itoa(i))}).FirstErr())
	}
	reads := func() map[int32]int64 {
		out := map[int32]int64{}
		lc.world(t, func(w *cluster.World) error {
			for _, b := range w.Brokers() {
				out[b.ID] = b.FetchReads
			}
			return nil
		})
		return out
	}
	before := reads()
	c := lc.kgoClient(t, kgo.ConsumeTopics("racked"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.Rack(rack), kgo.ClientID("racked-consumer"))
	got := 0
	for got < 20 {
		fs := c.PollFetches(ctx)
		require.NoError(t, ctx.Err(), "read %d of 20", got)
		fs.EachError(func(topic string, p int32, err error) { t.Logf("fetch %s-%d: %v", topic, p, err) })
		got += fs.NumRecords()
	}
	after := reads()
	require.Greater(t, after[reader], before[reader], "broker %d (rack %s) served no fetch: leader %d, reads before %v after %v", reader, rack, leader, before, after)
}
