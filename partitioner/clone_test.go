package partitioner_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/internal/clonetest"
	"github.com/kafkalive/kafkalive/partitioner"
)

// partitionerOp is one call on a sticky partitioner.
type partitionerOp struct {
	call          string
	topic         string
	numPartitions int32
	available     []int32
	prev          int32 // -1: the partition the topic sticks to, as a producer's batch is
	bytes         int
	full          bool
}

func drawPartitionerOp(t *rapid.T) partitionerOp {
	return partitionerOp{
		call:          rapid.SampledFrom([]string{"partition", "partition", "batch"}).Draw(t, "call"),
		topic:         rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "topic"),
		numPartitions: rapid.Int32Range(0, 6).Draw(t, "partitions"),
		available:     rapid.SliceOfN(rapid.Int32Range(-1, 6), 0, 4).Draw(t, "available"),
		prev:          rapid.Int32Range(-1, 5).Draw(t, "previous partition (-1: the one it sticks to)"),
		bytes:         rapid.IntRange(0, 300).Draw(t, "record bytes"),
		full:          rapid.Bool().Draw(t, "batches full"),
	}
}

// sticky is either partitioner with the generator it draws from.
type sticky struct {
	pcg     *rand.PCG
	sticky  *partitioner.Sticky
	uniform *partitioner.UniformSticky
}

func newSticky(seed uint64, uniform bool) *sticky {
	s := &sticky{pcg: rand.NewPCG(seed, 1)}
	if uniform {
		s.uniform = partitioner.NewUniformSticky(rand.New(s.pcg), 500)
	} else {
		s.sticky = partitioner.NewSticky(rand.New(s.pcg))
	}
	return s
}

// clone copies the generator and clones the partitioner onto the copy.
func (s *sticky) clone() *sticky {
	pcg := *s.pcg
	c := &sticky{pcg: &pcg}
	if s.uniform != nil {
		c.uniform = s.uniform.Clone(rand.New(c.pcg))
	} else {
		c.sticky = s.sticky.Clone(rand.New(c.pcg))
	}
	return c
}

// apply makes op's call and returns its answer.
func (op partitionerOp) apply(s *sticky) string {
	if op.call == "batch" && op.prev < 0 {
		answer := op
		answer.call, answer.prev = "partition", 0
		if _, err := fmt.Sscan(answer.apply(s), &op.prev); err != nil {
			return "no partition to stick to"
		}
	}
	if s.uniform != nil {
		if op.call == "batch" {
			s.uniform.Appended(op.topic, op.prev, op.bytes, op.full, op.numPartitions, op.available)
			return ""
		}
		return fmt.Sprint(s.uniform.Partition(op.topic, op.numPartitions, op.available))
	}
	if op.call == "batch" {
		return fmt.Sprint(s.sticky.OnNewBatch(op.topic, op.prev, op.numPartitions, op.available))
	}
	return fmt.Sprint(s.sticky.Partition(op.topic, op.numPartitions, op.available))
}

// TestCloneEvolvesAsAReplay drives a sticky partitioner (KIP-480's or
// KIP-794's) by random calls, clones it onto a copy of its generator, then
// calls the original and the clone apart, in random turns, and checks that
// each answers every call as a fresh partitioner replaying its own calls
// does, and that the two share no memory.
func TestCloneEvolvesAsAReplay(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed, uniform := rapid.Uint64().Draw(t, "seed"), rapid.Bool().Draw(t, "uniform sticky")
		orig := newSticky(seed, uniform)
		var before []partitionerOp
		for range rapid.IntRange(0, 30).Draw(t, "calls before the clone") {
			op := drawPartitionerOp(t)
			op.apply(orig)
			before = append(before, op)
		}
		sides := []*sticky{orig, orig.clone()}
		if shared := clonetest.Shared(sides[0], sides[1]); len(shared) > 0 {
			t.Fatalf("the clone shares %v with the original", shared)
		}
		replays := []*sticky{newSticky(seed, uniform), newSticky(seed, uniform)}
		for _, r := range replays {
			for _, op := range before {
				op.apply(r)
			}
		}
		for i := range rapid.IntRange(0, 40).Draw(t, "calls after") {
			side := rapid.IntRange(0, 1).Draw(t, "side")
			op := drawPartitionerOp(t)
			if got, want := op.apply(sides[side]), op.apply(replays[side]); got != want {
				t.Fatalf("call %d %+v on side %d answered %q, a replay %q", i, op, side, got, want)
			}
		}
	})
}
