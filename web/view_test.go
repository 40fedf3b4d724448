package web

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
	"github.com/kafkalive/kafkalive/replica"
)

var (
	viewSeed  = flag.Uint64("view.seed", 0, "TestViewSegmentFiles: the seed to replay (0: a new one)")
	viewSteps = flag.Int("view.steps", 40, "TestViewSegmentFiles: actions per run")
)

// A fresh world's replicas each have one empty active segment whose indexes
// are preallocated to segment.index.bytes.
func TestViewSegmentFilesOfAFreshWorld(t *testing.T) {
	w, err := defaultworld.New(defaultworld.Seed)
	require.NoError(t, err)
	v := BuildView(w, Focus{Topic: "profiles", Partition: 0})
	require.NotNil(t, v.Detail)
	idx := w.Config().Log.SegmentIndexBytes
	want := []SegmentView{{File: "00000000000000000000.log", Size: 0, Records: 0, Active: true,
		IndexBytes: idx / 8 * 8, TimeIndexBytes: idx / 12 * 12}}
	for _, l := range v.Detail.Logs {
		if diff := cmp.Diff(want, l.Segments); diff != "" {
			t.Errorf("broker %d's segment files of profiles-0 (-want +got):\n%s", l.Broker, diff)
		}
	}
	if got := v.Detail.SegmentBytes; got != w.Config().Log.SegmentBytes {
		t.Errorf("the detail says segments roll at %d bytes, the broker's segment.bytes is %d", got, w.Config().Log.SegmentBytes)
	}
}

// The default world's brokers show the size of their disks, which a
// client flooding a topic fills before the host's memory.
func TestViewDiskCapacity(t *testing.T) {
	w, err := defaultworld.New(defaultworld.Seed)
	require.NoError(t, err)
	v := BuildView(w, Focus{})
	require.Len(t, v.Brokers, 3)
	for _, b := range v.Brokers {
		require.Equal(t, int64(defaultworld.DiskBytes), b.DiskCap, "broker %d's disk", b.ID)
	}
}

// TestViewSegmentFiles plays random stops, kills, power cuts, starts and
// runs on the default world and checks each view's segment files against
// the replica it describes: a running replica's segments hold its records
// (all of them while no more than MaxSegments), the active one last with
// preallocated indexes, the rolled ones with indexes trimmed to whole
// entries; a down broker's files are listed with their records unknown.
func TestViewSegmentFiles(t *testing.T) {
	seed := *viewSeed
	if seed == 0 {
		seed = rand.Uint64()
	}
	t.Logf("seed %d (replay: go test ./web -run 'TestViewSegmentFiles$' -view.seed=%d)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	w, err := defaultworld.New(defaultworld.Seed)
	require.NoError(t, err)
	maxIdx := w.Config().Log.SegmentIndexBytes
	for step := 0; step < *viewSteps; step++ {
		id := int32(1 + rng.IntN(3))
		var what string
		switch rng.IntN(6) {
		case 0:
			what, err = fmt.Sprintf("stop %d", id), w.Stop(id)
		case 1:
			what, err = fmt.Sprintf("kill %d", id), w.Kill(id)
		case 2:
			what, err = fmt.Sprintf("power-cut %d", id), w.PowerCut(id, false)
		case 3:
			what, err = fmt.Sprintf("start %d", id), w.Start(id)
		default:
			ms := int64(1000 * (1 + rng.IntN(30)))
			what, err = fmt.Sprintf("run %d", ms), w.RunFor(ms)
		}
		_ = err // refused actions (stop a stopped broker) are the user's, not ours
		states := map[int32]string{}
		for _, b := range w.State().Brokers {
			states[b.ID] = b.State
		}
		f := Focus{Topic: "orders", Partition: int32(rng.IntN(3))}
		v := BuildView(w, f)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("seed %d, step %d (%s), %s-%d: %s", seed, step, what, f.Topic, f.Partition, fmt.Sprintf(format, args...))
		}
		for _, l := range v.Detail.Logs {
			segs := l.Segments
			if states[l.Broker] == cluster.BrokerRunning.String() {
				total := 0
				for i, s := range segs {
					total += s.Records
					if s.Active != (i == len(segs)-1) {
						fail("broker %d: segment %s active=%v at %d of %d", l.Broker, s.File, s.Active, i, len(segs))
					}
					if s.IndexBytes%8 != 0 || s.TimeIndexBytes%12 != 0 || s.IndexBytes < 0 || s.TimeIndexBytes < 0 {
						fail("broker %d: segment %s has indexes of %d and %d bytes (entries are 8 and 12 bytes)", l.Broker, s.File, s.IndexBytes, s.TimeIndexBytes)
					}
					if s.Active && (s.IndexBytes != maxIdx/8*8 || s.TimeIndexBytes != maxIdx/12*12) {
						fail("broker %d: the active segment %s has indexes of %d and %d bytes, not preallocated", l.Broker, s.File, s.IndexBytes, s.TimeIndexBytes)
					}
					if i > 0 && segs[i-1].File >= s.File {
						fail("broker %d: segments out of order: %s before %s", l.Broker, segs[i-1].File, s.File)
					}
				}
				if len(segs) == 0 {
					fail("broker %d runs the replica and shows no segment", l.Broker)
				}
				if len(segs) < MaxSegments && total != l.Count {
					fail("broker %d: its segments hold %d records, its log %d", l.Broker, total, l.Count)
				}
				continue
			}
			for _, s := range segs {
				if s.Records != -1 {
					fail("broker %d is %s and its segment %s claims %d records", l.Broker, states[l.Broker], s.File, s.Records)
				}
			}
		}
	}
}

// TestViewEligibleLeaderReplicas: under Kafka 4's rules the partition's
// row and detail carry its eligible leader replicas and last known leader
// once its ISR empties, and none while the ISR is whole.
func TestViewEligibleLeaderReplicas(t *testing.T) {
	w, err := cluster.New(cluster.Config{Seed: 1, MinInsyncReplicas: 2, Rules: replica.Modern})
	require.NoError(t, err)
	require.NoError(t, w.CreateTopic(cluster.TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}}))
	require.NoError(t, w.RunFor(500))
	focus := Focus{Topic: "t", Partition: 0}
	require.Empty(t, BuildView(w, focus).Detail.ELR)
	require.NoError(t, w.Stop(3))
	require.NoError(t, w.Stop(2))
	require.NoError(t, w.Kill(1))
	require.NoError(t, w.RunFor(10_000))
	v := BuildView(w, focus)
	require.Equal(t, int32(-1), v.Detail.Leader)
	require.Empty(t, v.Detail.ISR)
	require.Equal(t, []int32{1, 2}, v.Detail.ELR)
	require.Equal(t, []int32{1}, v.Detail.LastKnownELR)
	require.Equal(t, v.Detail.PartRow, v.Partitions[0])
}
