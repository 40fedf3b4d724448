package cluster_test

import (
	"fmt"
	"testing"

	"github.com/kafkalive/kafkalive/cluster/defaultworld"
)

// BenchmarkSnapshot is the cost of one snapshot of the page's default
// world (World.Clone, which the timeline takes every few simulated
// seconds) after it ran for 1 and for 60 simulated minutes: a snapshot
// should cost what changes in the world, not what it holds, so the second
// should cost at most about twice the first.
func BenchmarkSnapshot(b *testing.B) {
	for _, minutes := range []int64{1, 60} {
		b.Run(fmt.Sprintf("after=%dmin", minutes), func(b *testing.B) {
			w, err := defaultworld.New(1)
			if err != nil {
				b.Fatal(err)
			}
			for range minutes {
				if err := w.RunFor(60_000); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				_ = w.Clone()
			}
		})
	}
}
