package cluster_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
	"github.com/kafkalive/kafkalive/internal/cputime"
)

// runMinutes runs w for the given simulated minutes as the server does,
// 100 ms at a time.
func runMinutes(b *testing.B, w *cluster.World, minutes int) {
	for range minutes * 600 {
		if err := w.RunFor(100); err != nil {
			b.Fatal(err)
		}
	}
}

// reportCPU reports the process's CPU time per operation (cpu-ns/op) and
// per simulated second (cpu-ns/sim-s) over b.N operations of simMs each.
func reportCPU(b *testing.B, cpu time.Duration, simMs int64) {
	if b.N == 0 || cpu == 0 {
		return
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(cpu.Nanoseconds())/(float64(b.N)*float64(simMs)/1000), "cpu-ns/sim-s")
}

// BenchmarkSimulatedTime runs the page's default world from its start for 10
// and for 60 simulated minutes, side by side: a world's cost should follow
// what happens in it, so the hour should cost about 6x the ten minutes
// (at most 7x), and at most 4 CPU-seconds.
func BenchmarkSimulatedTime(b *testing.B) {
	for _, minutes := range []int{10, 60} {
		b.Run(fmt.Sprintf("minutes=%d", minutes), func(b *testing.B) {
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				w, err := defaultworld.New(defaultworld.Seed)
				if err != nil {
					b.Fatal(err)
				}
				start := cputime.Now()
				runMinutes(b, w, minutes)
				cpu += cputime.Now() - start
			}
			reportCPU(b, cpu, int64(minutes)*60_000)
		})
	}
}

// BenchmarkIdlePartitions runs the default world for ten simulated seconds
// with an idle topic of 0 or 2,000 partitions of one or three replicas
// beside its own, its brokers ticking only the replicas with something due
// (ticks=timers) and, side by side, every replica at every step
// (ticks=every, Config.TickEveryPartition): with timers an idle partition
// costs its followers' fetches alone.
func BenchmarkIdlePartitions(b *testing.B) {
	for _, parts := range []int{0, 2000} {
		for _, rf := range []int{1, 3} {
			if parts == 0 && rf == 3 {
				continue
			}
			for _, every := range []bool{false, true} {
				ticks := "timers"
				if every {
					ticks = "every"
				}
				b.Run(fmt.Sprintf("partitions=%d/rf=%d/ticks=%s", parts, rf, ticks), func(b *testing.B) {
					w := idleWorld(b, parts, rf, every)
					b.ReportAllocs()
					b.ResetTimer()
					var cpu time.Duration
					for b.Loop() {
						start := cputime.Now()
						for range 100 {
							if err := w.RunFor(100); err != nil {
								b.Fatal(err)
							}
						}
						cpu += cputime.Now() - start
					}
					reportCPU(b, cpu, 10_000)
				})
			}
		}
	}
}

// idleWorld is the default world after a simulated minute, with an idle
// topic of parts partitions of rf replicas made then.
func idleWorld(b *testing.B, parts, rf int, every bool) *cluster.World {
	cfg := defaultworld.Config(defaultworld.Seed)
	cfg.TickEveryPartition = every
	w, err := defaultworld.NewWith(cfg)
	if err != nil {
		b.Fatal(err)
	}
	runMinutes(b, w, 1)
	if parts > 0 {
		if err := w.CreateTopic(cluster.TopicSpec{Name: "idle", Partitions: parts, ReplicationFactor: rf}); err != nil {
			b.Fatal(err)
		}
	}
	return w
}

// BenchmarkPartitionsMinute runs a simulated minute, 100 ms at a time as
// the server does, of the default world (after its first minute) and, side
// by side, of the same world with an idle topic of 2,000 partitions of
// three and of one replica made then: a world's cost should follow what
// happens in it, so the 2,000 idle partitions should cost at most 5x the
// default world's minute. The minute measured is the second after the
// topic's creation (steady), and, for three replicas, also the first with
// the creation itself (first=create): every replica opened, elected,
// fetched from and copied into the timeline once. x-default is each
// minute's CPU over the default world's in the same run.
func BenchmarkPartitionsMinute(b *testing.B) {
	var defaultCPU float64
	for _, c := range []struct {
		parts, rf int
		create    bool
	}{{0, 1, false}, {2000, 3, false}, {2000, 1, false}, {2000, 3, true}} {
		name := "world=default"
		switch {
		case c.create:
			name = fmt.Sprintf("partitions=%d/rf=%d/first=create", c.parts, c.rf)
		case c.parts > 0:
			name = fmt.Sprintf("partitions=%d/rf=%d", c.parts, c.rf)
		}
		b.Run(name, func(b *testing.B) {
			var w *cluster.World
			if !c.create {
				w = idleWorld(b, c.parts, c.rf, false)
			}
			b.ReportAllocs()
			b.ResetTimer()
			var cpu time.Duration
			for b.Loop() {
				if c.create {
					b.StopTimer()
					w = idleWorld(b, 0, c.rf, false)
					b.StartTimer()
				}
				start := cputime.Now()
				if c.create {
					if err := w.CreateTopic(cluster.TopicSpec{Name: "idle", Partitions: c.parts, ReplicationFactor: c.rf}); err != nil {
						b.Fatal(err)
					}
				}
				runMinutes(b, w, 1)
				cpu += cputime.Now() - start
			}
			reportCPU(b, cpu, 60_000)
			perOp := float64(cpu.Nanoseconds()) / float64(max(b.N, 1))
			if c.parts == 0 {
				defaultCPU = perOp
			} else if defaultCPU > 0 {
				b.ReportMetric(perOp/defaultCPU, "x-default")
			}
		})
	}
}
