package cluster_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/replica"
)

// tailOf is what StateWith should return, made from State's every
// record: the selected partitions' logs keep their newest tail records
// (all with tail 0), the others none; Omitted and FirstOffset say what was
// left out.
func tailOf(st cluster.State, selected func(string, int32) bool, tail int) cluster.State {
	for i := range st.Partitions {
		p := &st.Partitions[i]
		keep := -1
		switch {
		case !selected(p.Topic, p.Partition):
			keep = 0
		case tail > 0:
			keep = tail
		}
		for j := range p.Logs {
			l := &p.Logs[j]
			if keep < 0 || len(l.Records) <= keep {
				continue
			}
			l.Omitted, l.FirstOffset = len(l.Records)-keep, l.Records[0].Offset
			l.Records = l.Records[len(l.Records)-keep:]
		}
	}
	return st
}

// TestPropStateWithIsTheTailOfState: for any schedule of faults (power
// cuts leave followers with records unlike the leader's) and any choice
// of partition and tail, StateWith lists exactly the newest records State
// lists for the chosen partition, marks and durability included, and
// nothing else differs; and SegmentCounts counts the records Segments
// lists.
func TestPropStateWithIsTheTailOfState(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64Range(1, 1000).Draw(t, "seed")
		faults := drawFaults(t)
		// Cut links, unclean elections and Kafka 0.10's truncation to the
		// high watermark leave replicas with records unlike the leader's
		// at the same offsets.
		for range rapid.IntRange(0, 4).Draw(t, "cuts") {
			a := rapid.Int32Range(1, 3).Draw(t, "cut a")
			faults = append(faults, cluster.Action{Kind: cluster.ActPartition, A: []int32{a}, B: []int32{a%3 + 1, (a+1)%3 + 1}},
				cluster.Action{Kind: cluster.ActRun, Ms: rapid.Int64Range(1, 20000).Draw(t, "cut ms")},
				cluster.Action{Kind: cluster.ActKill, Broker: rapid.Int32Range(1, 3).Draw(t, "kill")},
				cluster.Action{Kind: cluster.ActRun, Ms: rapid.Int64Range(1, 20000).Draw(t, "killed ms")},
				cluster.Action{Kind: cluster.ActHeal})
		}
		log := cluster.DefaultLogConfig()
		log.SegmentBytes = 512
		rules, err := replica.ParseRuleSet(rapid.SampledFrom([]string{"v0.10", "v0.11", "modern"}).Draw(t, "rules"))
		if err != nil {
			t.Fatal(err)
		}
		w, err := cluster.New(cluster.Config{Seed: seed, Brokers: 3, Rules: rules, MinInsyncReplicas: 1, Log: log, UncleanLeaderElectionEnable: true})
		if err != nil {
			t.Fatalf("seed %d: new world: %v", seed, err)
		}
		_ = w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 3, ReplicationFactor: 3})
		_ = w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "1", Keys: []string{"a", "b", "c"}, RecordsPerSec: 20})
		for _, a := range faults {
			_ = w.Do(a)
		}
		part := rapid.Int32Range(0, 3).Draw(t, "partition shown (3: none)")
		tail := rapid.IntRange(0, 60).Draw(t, "tail")
		selected := func(topic string, p int32) bool { return topic == "t" && p == part }
		want := tailOf(w.State(), selected, tail)
		got := w.StateWith(cluster.StateOptions{Records: selected, Tail: tail})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("seed %d, faults %v: StateWith(partition %d, tail %d) is not the tail of State (-want +got):\n%s", seed, faults, part, tail, diff)
		}
		checkPreview(t, w, want, cluster.StateOptions{Records: selected, Tail: tail, Preview: rapid.IntRange(1, 8).Draw(t, "preview")})
		newest := rapid.IntRange(0, 5).Draw(t, "newest segments")
		for b := int32(1); b <= 3; b++ {
			for p := int32(0); p < 3; p++ {
				segs, err := w.Segments(b, "t", p)
				counts, cerr := w.SegmentCounts(b, "t", p, newest)
				if (err == nil) != (cerr == nil) {
					t.Fatalf("seed %d: broker %d t-%d: Segments says %v, SegmentCounts %v", seed, b, p, err, cerr)
				}
				if newest > 0 && len(segs) > newest {
					segs = segs[len(segs)-newest:]
				}
				var want []cluster.SegmentCount
				for _, s := range segs {
					want = append(want, cluster.SegmentCount{BaseOffset: s.BaseOffset, Size: s.Size, Records: len(s.Offsets), Active: s.Active})
				}
				if err == nil && len(want) == 0 {
					want = []cluster.SegmentCount{}
				}
				if diff := cmp.Diff(want, counts); diff != "" {
					t.Fatalf("seed %d, faults %v: broker %d t-%d: SegmentCounts(%d) is not Segments counted (-want +got):\n%s", seed, faults, b, p, newest, diff)
				}
			}
		}
		if diff := cmp.Diff(w.State(), w.StateWith(cluster.StateOptions{})); diff != "" {
			t.Fatalf("seed %d: StateWith's zero options differ from State (-State +StateWith):\n%s", seed, diff)
		}
	})
}

// checkPreview: StateWith with opts.Preview lists want's records (opts
// without Preview) with keys and values cut to opts.Preview bytes and
// their whole sizes, and marks a record unlike the leader's only when want
// does; with a preview longer than any value it is want itself.
func checkPreview(t *rapid.T, w *cluster.World, want cluster.State, opts cluster.StateOptions) {
	cutTo := func(s string, n int) string { return s[:min(len(s), n)] }
	wide := opts
	wide.Preview = 1 << 20
	wideSt := w.StateWith(wide)
	if diff := cmp.Diff(want, wideSt, cmpopts.IgnoreFields(cluster.RecordInfo{}, "KeySize", "ValueSize")); diff != "" {
		t.Fatalf("StateWith with a wide preview is not StateWith (-want +got):\n%s", diff)
	}
	got := w.StateWith(opts)
	for i := range want.Partitions {
		for j := range want.Partitions[i].Logs {
			for k, r := range wideSt.Partitions[i].Logs[j].Records {
				g := got.Partitions[i].Logs[j].Records[k]
				if r.ValueSize != len(r.Value) && !r.Tombstone || r.Tombstone && r.ValueSize != -1 {
					t.Fatalf("record %+v: ValueSize %d", r, r.ValueSize)
				}
				if g.DiffersFromLeader && !r.DiffersFromLeader {
					t.Fatalf("the preview marks %+v unlike the leader's, the whole record %+v is not", g, r)
				}
				r.Key, r.Value, r.DiffersFromLeader = cutTo(r.Key, opts.Preview), cutTo(r.Value, opts.Preview), g.DiffersFromLeader
				if diff := cmp.Diff(r, g); diff != "" {
					t.Fatalf("a record cut to %d bytes (-want +got):\n%s", opts.Preview, diff)
				}
			}
		}
	}
}
