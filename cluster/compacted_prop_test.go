package cluster_test

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestPropCompactedTopicsReplicate: a compacted topic whose replicas'
// cleaners run on their own (as each Kafka broker's LogCleaner does),
// under any schedule of faults, keeps replicating: no broker halts on
// what its leader hands out (a batch whose last records the cleaner
// removed keeps its header's last offset, MemoryRecords.filterTo), and
// once every broker runs again for a while each replica has caught up
// with its leader, holds at every offset it shares with the leader the
// leader's record, and, unless a power cut lost acknowledged records or
// a follower was away longer than delete.retention.ms, keeps the same
// latest value for every key.
// Replay: go test ./cluster -run TestPropCompactedTopicsReplicate
// -rapid.seed=N.
func TestPropCompactedTopicsReplicate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64Range(1, 1000).Draw(t, "seed")
		rules := rapid.SampledFrom([]replica.RuleSet{replica.V3_7, replica.V4}).Draw(t, "rules")
		w, err := cluster.New(cluster.Config{ClockStartMs: clientClockMs, Seed: seed, Brokers: 3, Rules: rules, MinInsyncReplicas: 2,
			LogRetentionCheckIntervalMs: 1000, LogCleanerBackoffMs: 500})
		if err != nil {
			t.Fatalf("new world: %v", err)
		}
		cfg := w.Config().Log
		cfg.CleanupPolicy = kafkalog.CleanupPolicyCompact
		cfg.SegmentBytes = int64(rapid.IntRange(200, 1500).Draw(t, "segment.bytes"))
		cfg.MinCleanableDirtyRatio = 0.01
		cfg.MinCompactionLagMs = 0
		cfg.DeleteRetentionMs = int64(rapid.SampledFrom([]int{0, 2000, 86400000}).Draw(t, "delete.retention.ms"))
		if err := w.CreateTopic(cluster.TopicSpec{Name: "table", Partitions: 2, ReplicationFactor: 3, Config: &cfg}); err != nil {
			t.Fatalf("create topic: %v", err)
		}
		if err := w.AddConsumer(cluster.ConsumerConfig{Name: "c", Group: "g", Topics: []string{"table"}, PollIntervalMs: 500}); err != nil {
			t.Fatalf("add consumer: %v", err)
		}
		// batches of keyed records, so that the cleaner leaves gaps inside
		// batches and at their ends, among faults
		powerCuts := rapid.Bool().Draw(t, "power cuts")
		for step := range rapid.IntRange(1, 60).Draw(t, "steps") {
			switch rapid.IntRange(0, 9).Draw(t, "action") {
			case 0, 1:
				_ = w.Do(drawFault(t, powerCuts)) // a fault the world refuses (starting a running broker) changes nothing
			default:
				produceKeyed(t, w, step)
			}
			if err := w.RunFor(rapid.Int64Range(1, 1500).Draw(t, "run ms")); err != nil {
				t.Fatalf("run: %v", err)
			}
			requireNoInternalErrors(t, w)
		}
		for id := int32(1); id <= 3; id++ {
			_ = w.Start(id)
		}
		if err := w.RunFor(30000); err != nil {
			t.Fatalf("run: %v", err)
		}
		requireNoInternalErrors(t, w)
		for _, ps := range w.State().Partitions {
			if ps.Topic != "table" {
				continue
			}
			var leader *cluster.LogInfo
			for i := range ps.Logs {
				if ps.Logs[i].Role == "leader" {
					leader = &ps.Logs[i]
				}
			}
			if leader == nil {
				t.Fatalf("%s-%d has no leader with every broker running", ps.Topic, ps.Partition)
			}
			want := latest(leader.Records)
			at := map[int64]cluster.RecordInfo{}
			for _, r := range leader.Records {
				at[r.Offset] = r
			}
			for _, l := range ps.Logs {
				if l.LogEndOffset != leader.LogEndOffset {
					t.Fatalf("%s-%d: broker %d's log ends at %d, its leader's (broker %d) at %d", ps.Topic, ps.Partition, l.Broker, l.LogEndOffset, leader.Broker, leader.LogEndOffset)
				}
				for _, r := range l.Records {
					if lr, ok := at[r.Offset]; ok && (lr.Key != r.Key || lr.Value != r.Value || lr.Tombstone != r.Tombstone) {
						t.Fatalf("%s-%d offset %d: broker %d holds %q=%q, its leader %q=%q", ps.Topic, ps.Partition, r.Offset, l.Broker, r.Key, r.Value, lr.Key, lr.Value)
					}
				}
				// A power cut may lose acknowledged records that a replica's
				// cleaner had already compacted with later ones: that
				// replica, truncated to its new leader's end, then lacks
				// records its leader holds, for good (Kafka's cleaner cleans
				// up to the last stable offset, LogCleanerManager.cleanableOffsets,
				// and truncation does not undo a cleaning). And a follower
				// away for longer than delete.retention.ms may miss a
				// tombstone its leader's cleaner has removed: it then keeps
				// the deleted key's older value, as Kafka's does (the bound
				// delete.retention.ms's documentation puts on a reader that
				// starts from the beginning holds for a follower too).
				// Without power cuts, and with tombstones kept for longer
				// than the run, nothing is lost and every key ends alike.
				if got := latest(l.Records); !powerCuts && cfg.DeleteRetentionMs > 3_600_000 && fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s-%d: broker %d's latest values %v, its leader's (broker %d) %v\nits records: %s\nthe leader's: %s", ps.Topic, ps.Partition, l.Broker, got, leader.Broker, want, recordsText(l.Records), recordsText(leader.Records))
				}
			}
		}
	})
}

// drawFault is one fault on a drawn broker, a power cut among them when
// powerCuts says so.
func drawFault(t *rapid.T, powerCuts bool) cluster.Action {
	b := rapid.Int32Range(1, 3).Draw(t, "broker")
	kinds := []cluster.Action{{Kind: cluster.ActKill, Broker: b}, {Kind: cluster.ActStop, Broker: b}, {Kind: cluster.ActStart, Broker: b}}
	if powerCuts {
		kinds = append(kinds, cluster.Action{Kind: cluster.ActPowerCut, Broker: b, Torn: rapid.Bool().Draw(t, "torn")})
	}
	return kinds[rapid.IntRange(0, len(kinds)-1).Draw(t, "fault")]
}

// produceKeyed sends a batch of one to four records with keys drawn from
// a few to the drawn partition's leader, acks=all, not waiting for the
// answer.
func produceKeyed(t *rapid.T, w *cluster.World, step int) {
	p := rapid.Int32Range(0, 1).Draw(t, "partition")
	leader := int32(-1)
	for _, ps := range w.State().Partitions {
		if ps.Topic == "table" && ps.Partition == p {
			leader = ps.Leader
		}
	}
	if leader < 1 {
		return
	}
	var b kafkalog.RecordBatch
	b.PartitionLeaderEpoch, b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, -1, -1, -1
	for i := range rapid.IntRange(1, 4).Draw(t, "records") {
		key := rapid.SampledFrom([]string{"a", "b", "c", "d"}).Draw(t, "key")
		var value []byte
		if rapid.IntRange(0, 6).Draw(t, "tombstone") != 0 {
			value = fmt.Appendf(nil, "%s@%d.%d", key, step, i)
		}
		b.AppendRecord(int64(i), w.NowMs(), []byte(key), value)
	}
	req := kmsg.NewPtrProduceRequest()
	req.SetVersion(9)
	req.Acks, req.TimeoutMillis = -1, 5000
	rt := kmsg.NewProduceRequestTopic()
	rt.Topic = "table"
	rp := kmsg.NewProduceRequestTopicPartition()
	rp.Partition, rp.Records = p, b.AppendTo(nil)
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	_, _ = w.External(cluster.ExternalRequest{Client: 1, ClientID: "compacted", Broker: leader, Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)})
}

// recordsText is records as offset:key=value, one after another.
func recordsText(records []cluster.RecordInfo) string {
	var b strings.Builder
	for _, r := range records {
		fmt.Fprintf(&b, "%d:%s=%s(e%d) ", r.Offset, r.Key, r.Value, r.LeaderEpoch)
	}
	return b.String()
}

// latest is each key's last value in records (a tombstone removes it).
func latest(records []cluster.RecordInfo) map[string]string {
	out := map[string]string{}
	for _, r := range records {
		if r.Control {
			continue
		}
		if r.Tombstone {
			delete(out, r.Key)
			continue
		}
		out[r.Key] = r.Value
	}
	return out
}

// requireNoInternalErrors fails on any error the world caught inside
// itself (a broker halted on what it should have taken).
func requireNoInternalErrors(t *rapid.T, w *cluster.World) {
	if errs := w.InternalErrors(); len(errs) > 0 {
		t.Fatalf("the world failed inside: %+v", errs)
	}
}
