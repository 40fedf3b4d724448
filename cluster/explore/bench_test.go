package explore_test

import (
	"testing"

	"github.com/kafkalive/kafkalive/cluster/explore"
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
