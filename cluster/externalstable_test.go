package cluster_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// fetchedOffset is what a client's OffsetFetch of t-0 in group g gets
// from g's coordinator at version v (v8+ in the groups form; topics nil:
// every partition the group committed): the partition's offset and error
// code, or ok false when the group committed nothing for t-0.
type fetchedOffset struct {
	Offset int64
	Code   int16
	Found  bool
}

func fetchOffset(t *testing.T, w *cluster.World, g string, v int16, stable, all bool) fetchedOffset {
	t.Helper()
	req := kmsg.NewPtrOffsetFetchRequest()
	req.SetVersion(v)
	req.RequireStable = stable
	var topics []kmsg.OffsetFetchRequestTopic
	if !all {
		rt := kmsg.NewOffsetFetchRequestTopic()
		rt.Topic, rt.Partitions = "t", []int32{0}
		topics = []kmsg.OffsetFetchRequestTopic{rt}
	}
	if v >= 8 {
		rg := kmsg.NewOffsetFetchRequestGroup()
		rg.Group = g
		for _, rt := range topics {
			gt := kmsg.NewOffsetFetchRequestGroupTopic()
			gt.Topic, gt.Partitions = rt.Topic, rt.Partitions
			rg.Topics = append(rg.Topics, gt)
		}
		req.Groups = []kmsg.OffsetFetchRequestGroup{rg}
	} else {
		req.Group, req.Topics = g, topics
	}
	for b := int32(1); b <= 3; b++ {
		resp := ask[*kmsg.OffsetFetchResponse](t, w, b, req, 5000)
		if v >= 8 {
			if resp.Groups[0].ErrorCode != 0 {
				continue
			}
			for _, rt := range resp.Groups[0].Topics {
				for _, p := range rt.Partitions {
					if rt.Topic == "t" && p.Partition == 0 {
						return fetchedOffset{p.Offset, p.ErrorCode, true}
					}
				}
			}
			return fetchedOffset{}
		}
		if resp.ErrorCode != 0 {
			continue
		}
		for _, rt := range resp.Topics {
			for _, p := range rt.Partitions {
				if rt.Topic == "t" && p.Partition == 0 {
					return fetchedOffset{p.Offset, p.ErrorCode, true}
				}
			}
		}
		return fetchedOffset{}
	}
	t.Fatalf("no broker answered OffsetFetch of group %s", g)
	return fetchedOffset{}
}

// An OffsetFetch with require_stable (KIP-447; Kafka's consumer sends it
// at isolation.level=read_committed) of a partition whose offset a
// transaction has committed but not yet ended is answered
// UNSTABLE_OFFSET_COMMIT with offset -1, in both the v7 and the v8 groups
// form, whether it names the partition or asks for every partition the
// group committed (Kafka 3.7's GroupMetadataManager.getOffsets); one
// without require_stable gets the offset committed before. After the
// commit every form reads the transaction's offset.
func TestOffsetFetchRequireStable(t *testing.T) {
	w := wireTxnWorld(t, cluster.Config{Seed: 1, Rules: replica.V4})
	c := initTxnClient(t, w, xclient{1, "txn", "10.0.0.1:1"}, "tx", true)
	commitOffset := func(offset int64) { require.Zero(t, commitTxnOffset(t, w, c, "g", offset, -1), "TxnOffsetCommit") }
	createOffsetsTopic(t, w, "g")
	require.True(t, c.produce(t, 0, []string{"a"}))
	commitOffset(5)
	require.True(t, c.end(t, true))
	require.True(t, c.produce(t, 0, []string{"b"}))
	commitOffset(9)

	type form struct {
		Version     int16
		Stable, All bool
	}
	forms := []form{{7, false, false}, {7, true, false}, {7, true, true}, {8, false, false}, {8, true, false}, {8, true, true}, {9, true, true}}
	read := func() map[form]fetchedOffset {
		got := map[form]fetchedOffset{}
		for _, f := range forms {
			got[f] = fetchOffset(t, w, "g", f.Version, f.Stable, f.All)
		}
		return got
	}
	unstable, committed, stale := fetchedOffset{-1, 88, true}, fetchedOffset{9, 0, true}, fetchedOffset{5, 0, true}
	want := map[form]fetchedOffset{}
	for _, f := range forms {
		want[f] = stale
		if f.Stable {
			want[f] = unstable
		}
	}
	if diff := cmp.Diff(want, read()); diff != "" {
		t.Errorf("while the transaction is open (-want +got):\n%s", diff)
	}
	require.True(t, c.end(t, true))
	require.NoError(t, w.RunFor(1000))
	for _, f := range forms {
		want[f] = committed
	}
	if diff := cmp.Diff(want, read()); diff != "" {
		t.Errorf("after the commit (-want +got):\n%s", diff)
	}
	require.Empty(t, w.InternalErrors())
}

// An OffsetFetch v8 batching an empty group id with another group answers
// each group in its own place: INVALID_GROUP_ID for the empty one, the
// other group's offsets (or NOT_COORDINATOR) for the other.
func TestOffsetFetchBatchWithAnEmptyGroup(t *testing.T) {
	w := extWorld(t)
	require.NoError(t, w.AddConsumer(cluster.ConsumerConfig{Name: "m", Group: "g", Topics: []string{"t"}, PollIntervalMs: 1000}))
	require.NoError(t, w.RunFor(8000))
	req := kmsg.NewPtrOffsetFetchRequest()
	req.SetVersion(8)
	for _, g := range []string{"", "g"} {
		rg := kmsg.NewOffsetFetchRequestGroup()
		rg.Group = g
		req.Groups = append(req.Groups, rg)
	}
	got := map[string]int16{}
	for b := int32(1); b <= 3; b++ {
		resp := ask[*kmsg.OffsetFetchResponse](t, w, b, req, 5000)
		require.Len(t, resp.Groups, 2)
		for _, g := range resp.Groups {
			if g.ErrorCode != 16 { // NOT_COORDINATOR: another broker's answer
				got[g.Group] = g.ErrorCode
			}
		}
	}
	if diff := cmp.Diff(map[string]int16{"": 24, "g": 0}, got); diff != "" {
		t.Errorf("the groups' error codes (-want +got):\n%s", diff)
	}
}

// Transactional offsets settle producer by producer, as Kafka's group
// coordinator keeps them pending per producer until that producer's
// marker (GroupMetadataManager.handleTxnCompletion), not up to the offsets
// partition's last stable offset: with one __consumer_offsets partition,
// a transaction of producer tx1 left open with group g1's offset does not
// hold back group g2's offset, which producer tx2's transaction committed
// after it. g2's offset is read with or without require_stable and the
// world lists it (kafka-consumer-groups --describe); g1's stays pending.
func TestTxnOffsetsSettleProducerByProducer(t *testing.T) {
	w := wireTxnWorld(t, cluster.Config{Seed: 1, Rules: replica.V4, OffsetsTopicNumPartitions: 1})
	createOffsetsTopic(t, w, "g1")
	commitOffset := func(c *txnClient, g string, offset int64) {
		require.Zero(t, commitTxnOffset(t, w, c, g, offset, -1), "TxnOffsetCommit")
	}
	open := initTxnClient(t, w, xclient{1, "tx1", "10.0.0.1:1"}, "tx1", true)
	done := initTxnClient(t, w, xclient{2, "tx2", "10.0.0.2:1"}, "tx2", true)
	require.True(t, open.produce(t, 0, []string{"a"}))
	commitOffset(open, "g1", 4)
	require.True(t, done.produce(t, 0, []string{"b"}))
	commitOffset(done, "g2", 7)
	require.True(t, done.end(t, true))
	require.NoError(t, w.RunFor(1000))

	type fetch struct {
		Group  string
		Stable bool
	}
	got := map[fetch]fetchedOffset{}
	for _, f := range []fetch{{"g1", false}, {"g1", true}, {"g2", false}, {"g2", true}} {
		got[f] = fetchOffset(t, w, f.Group, 8, f.Stable, false)
	}
	want := map[fetch]fetchedOffset{
		{"g1", false}: {-1, 0, true}, {"g1", true}: {-1, 88, true},
		{"g2", false}: {7, 0, true}, {"g2", true}: {7, 0, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("OffsetFetch of t-0 (-want +got):\n%s", diff)
	}
	listed := map[string][]int64{}
	for _, g := range w.Groups() {
		for _, o := range g.Offsets {
			listed[g.Name] = append(listed[g.Name], o.Committed)
		}
	}
	if diff := cmp.Diff(map[string][]int64{"g2": {7}}, listed); diff != "" {
		t.Errorf("the world's groups' committed offsets (-want +got):\n%s", diff)
	}
	require.Empty(t, w.InternalErrors())
}
