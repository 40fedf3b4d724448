package client

import (
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/partitioner"
)

// TestWorldRandDrawsTheWorldsNumbers checks that a partitioner lent the
// world's generator through worldRand draws what it would draw from the
// generator itself, and leaves the generator where those draws leave it:
// the producers' partitions and every later draw of the world are the
// same as when the partitioner held the world's generator.
func TestWorldRandDrawsTheWorldsNumbers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		n := rapid.Int32Range(1, 50).Draw(t, "partitions")
		records := rapid.IntRange(1, 40).Draw(t, "records")
		direct := rand.New(rand.NewPCG(seed, seed))
		lent := rand.New(rand.NewPCG(seed, seed))
		src := &worldRand{}
		a, b := partitioner.NewUniformSticky(direct, 100), partitioner.NewUniformSticky(src.rand(), 100)
		s, u := partitioner.NewSticky(direct), partitioner.NewSticky(src.rand())
		for i := range records {
			src.lend(lent)
			pa, _ := a.Partition("t", n, nil)
			pb, _ := b.Partition("t", n, nil)
			a.Appended("t", pa, 60, true, n, nil)
			b.Appended("t", pb, 60, true, n, nil)
			sa, _ := s.OnNewBatch("t", pa, n, nil)
			sb, _ := u.OnNewBatch("t", pb, n, nil)
			src.release()
			if pa != pb || sa != sb {
				t.Fatalf("record %d: partitions %d and %d directly, %d and %d lent", i, pa, sa, pb, sb)
			}
		}
		if x, y := direct.Uint64(), lent.Uint64(); x != y {
			t.Fatalf("the generators part: next draw %d directly, %d lent", x, y)
		}
	})
}
