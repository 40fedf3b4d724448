package cluster_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
)

var (
	writebackN    = flag.Int("writeback.n", 1, "power cuts of TestLiveWorldPowerCutLosesOnlyTheLast35s")
	writebackSeed = flag.Uint64("writeback.seed", 0, "run only this seed of TestLiveWorldPowerCutLosesOnlyTheLast35s")
)

// replicaKey names one broker's replica of a partition.
type replicaKey struct {
	broker int32
	tp     string
}

// logsOf returns every running replica's LEO and records (offset -> value).
func logsOf(st cluster.State) (map[replicaKey]int64, map[replicaKey]map[int64]string) {
	leos, recs := map[replicaKey]int64{}, map[replicaKey]map[int64]string{}
	for _, p := range st.Partitions {
		for _, lg := range p.Logs {
			k := replicaKey{lg.Broker, fmt.Sprintf("%s-%d", p.Topic, p.Partition)}
			leos[k] = lg.LogEndOffset
			recs[k] = map[int64]string{}
			for _, r := range lg.Records {
				recs[k][r.Offset] = r.Value
			}
		}
	}
	return leos, recs
}

// cutOutcome is what a power cut of the live world lost.
type cutOutcome struct {
	cutMs int64
	// oldestLostMs is, over the cut broker's partitions, the earliest second
	// at which the broker's log already held a record the cut lost (-1: none lost).
	oldestLostMs int64
	where        string
}

// powerCutLiveWorld runs the live world (with cfg changed by change) for
// cutMs, sampling every replica's LEO each second, cuts broker's power and
// finds the oldest record it lost.
func powerCutLiveWorld(t *testing.T, seed uint64, cutMs int64, broker int32, torn bool, change func(*cluster.Config)) cutOutcome {
	t.Helper()
	cfg := defaultworld.Config(seed)
	change(&cfg)
	w, err := defaultworld.NewWith(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var samples []map[replicaKey]int64 // samples[i]: the LEOs at i s
	var before map[replicaKey]map[int64]string
	for w.NowMs() < cutMs {
		if err := w.RunFor(min(1000-w.NowMs()%1000, cutMs-w.NowMs())); err != nil {
			t.Fatal(err)
		}
		var leos map[replicaKey]int64
		leos, before = logsOf(w.State())
		if w.NowMs()%1000 == 0 {
			samples = append(samples, leos)
		}
	}
	if err := w.PowerCut(broker, torn); err != nil {
		t.Fatal(err)
	}
	_, after := logsOf(w.State())
	out := cutOutcome{cutMs: cutMs, oldestLostMs: -1}
	var keys []replicaKey
	for k := range before {
		if k.broker == broker {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].tp < keys[j].tp })
	for _, k := range keys {
		for i, leos := range samples {
			lost := int64(-1)
			for off := range leos[k] {
				if v, ok := before[k][off]; ok && after[k][off] != v {
					lost = off
					break
				}
			}
			if lost >= 0 {
				if ms := int64(i) * 1000; out.oldestLostMs < 0 || ms < out.oldestLostMs {
					out.oldestLostMs, out.where = ms, fmt.Sprintf("%s offset %d", k.tp, lost)
				}
				break
			}
		}
	}
	return out
}

// TestLiveWorldPowerCutLosesOnlyTheLast35s: in the world kafkalive serves
// (Linux's flusher on its brokers' hosts), a broker whose power is cut
// after a few minutes of traffic loses only records written in the last
// 35 s (vm.dirty_expire_centisecs plus vm.dirty_writeback_centisecs):
// every record its log held 35 s before the cut is still on its disk.
// Without the flusher the same cut (untorn) loses older records, so the
// bound is the flusher's doing.
func TestLiveWorldPowerCutLosesOnlyTheLast35s(t *testing.T) {
	seeds := []uint64{*writebackSeed}
	if *writebackSeed == 0 {
		seeds = nil
		for i := range *writebackN {
			seeds = append(seeds, uint64(i+1))
		}
	}
	const bound = cluster.LinuxDirtyExpireMs + cluster.LinuxDirtyWritebackIntervalMs
	for _, seed := range seeds {
		r := rand.New(rand.NewPCG(seed, 0))
		cutMs := 80_000 + r.Int64N(100_000)
		broker, torn := int32(1+r.IntN(3)), r.IntN(2) == 0
		replay := fmt.Sprintf("go test ./cluster -run TestLiveWorldPowerCutLosesOnlyTheLast35s -writeback.seed=%d", seed)

		got := powerCutLiveWorld(t, seed, cutMs, broker, torn, func(*cluster.Config) {})
		if got.oldestLostMs >= 0 && got.oldestLostMs <= cutMs-bound {
			t.Errorf("seed %d: power-cut %d (torn %v) at %d ms lost %s, which its log held at %d ms, %d ms before the cut (more than %d)\nreplay: %s",
				seed, broker, torn, cutMs, got.where, got.oldestLostMs, cutMs-got.oldestLostMs, bound, replay)
		}
		lostFor := "nothing"
		if got.oldestLostMs >= 0 {
			lostFor = fmt.Sprintf("records written since %d ms (%d ms before the cut)", got.oldestLostMs, cutMs-got.oldestLostMs)
		}
		t.Logf("seed %d: power-cut %d (torn %v) at %d ms lost %s", seed, broker, torn, cutMs, lostFor)

		off := powerCutLiveWorld(t, seed, cutMs, broker, false, func(c *cluster.Config) { c.DirtyExpireMs = 0 })
		if off.oldestLostMs < 0 || off.oldestLostMs > cutMs-bound {
			t.Errorf("seed %d: without the flusher the same cut, untorn, lost only records younger than %d ms (oldest at %d ms): the test shows nothing\nreplay: %s",
				seed, bound, off.oldestLostMs, replay)
		} else {
			t.Logf("seed %d: without the flusher it lost %s, held since %d ms (%d ms before the cut)", seed, off.where, off.oldestLostMs, cutMs-off.oldestLostMs)
		}
	}
}
