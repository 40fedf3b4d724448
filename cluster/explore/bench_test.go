package explore_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/kafkalive/kafkalive/cluster/explore"
	"github.com/kafkalive/kafkalive/internal/cputime"
)

// BenchmarkExploreSchedule runs one fault schedule of configuration (a).
func BenchmarkExploreSchedule(b *testing.B) {
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		seed++
		if _, _, err := explore.RunSchedule(modernSafe, seed, explore.Schedule(modernSafe, seed)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUserSequence plays user-level sequences of 20 and of 80
// operations side by side, one seed of 1..20 after another, and reports
// the CPU time per simulated second (cpu-ns/sim-s; the goal: the long
// sequences within 1.2x of the short) and per event the world recorded
// (cpu-ns/event): a long sequence does more in each simulated second
// (more producers, more retries through longer outages), so the second
// figure says whether the world's cost follows what happens in it.
//
// The simulated seconds are all those the sequence ran
// ([explore.UserOutcome.SimulatedMs]): a long sequence resets its world
// and jumps back in time more often, and the time it leaves behind was
// simulated all the same. The clock of the world it ends with, which
// leaves that time out, is reported beside them (cpu-ns/end-sim-s).
func BenchmarkUserSequence(b *testing.B) {
	for _, ops := range []int{20, 80} {
		b.Run(fmt.Sprintf("ops=%d", ops), func(b *testing.B) {
			cfg := explore.UserConfig{Ops: ops}
			b.ReportAllocs()
			var cpu time.Duration
			var simMs, endMs, events int64
			seed := uint64(0)
			for b.Loop() {
				seed = seed%20 + 1
				seq := explore.UserSequence(cfg, seed)
				start := cputime.Now()
				out, w, err := explore.RunUserSequence(cfg, seed, seq)
				cpu += cputime.Now() - start
				if err != nil {
					b.Fatal(err)
				}
				simMs += out.SimulatedMs
				endMs += w.NowMs()
				if evs := w.Events(); len(evs) > 0 {
					events += int64(evs[len(evs)-1].Seq + 1)
				}
			}
			if simMs > 0 && events > 0 {
				b.ReportMetric(float64(cpu.Nanoseconds())/(float64(simMs)/1000), "cpu-ns/sim-s")
				b.ReportMetric(float64(cpu.Nanoseconds())/(float64(endMs)/1000), "cpu-ns/end-sim-s")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(events), "cpu-ns/event")
				b.ReportMetric(float64(simMs)/1000/float64(b.N), "sim-s/op")
			}
		})
	}
}

// BenchmarkUserSequenceRatio plays, for each seed of 1..20 in turn, the
// user-level sequence of 20 operations and that of 80 back to back, and
// reports the CPU time per simulated second of each
// (cpu-ns/sim-s@20, cpu-ns/sim-s@80) and their ratio (80/20; the goal:
// at most 1.2): both figures come from the same moments of a shared,
// noisy machine, so that their ratio holds where the absolute figures
// drift. Run a multiple of 20 iterations (-benchtime 20x) with -count 5
// or more and quote the medians.
func BenchmarkUserSequenceRatio(b *testing.B) {
	b.ReportAllocs()
	lengths := []int{20, 80}
	cpu := make([]time.Duration, len(lengths))
	simMs := make([]int64, len(lengths))
	seed := uint64(0)
	for b.Loop() {
		seed = seed%20 + 1
		for k, ops := range lengths {
			cfg := explore.UserConfig{Ops: ops}
			seq := explore.UserSequence(cfg, seed)
			start := cputime.Now()
			out, _, err := explore.RunUserSequence(cfg, seed, seq)
			cpu[k] += cputime.Now() - start
			if err != nil {
				b.Fatal(err)
			}
			simMs[k] += out.SimulatedMs
		}
	}
	perSimS := make([]float64, len(lengths))
	for k, ops := range lengths {
		if simMs[k] == 0 {
			return
		}
		perSimS[k] = float64(cpu[k].Nanoseconds()) / (float64(simMs[k]) / 1000)
		b.ReportMetric(perSimS[k], fmt.Sprintf("cpu-ns/sim-s@%d", ops))
	}
	b.ReportMetric(perSimS[1]/perSimS[0], "80/20")
}
