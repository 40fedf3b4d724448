package client

import "math/rand/v2"

// worldRand lends a producer's partitioners the world's generator for the
// length of a call: a [rand.Source] that draws from the generator [Env.Rand]
// gave, so that the partitioners' draws are the world's own, in the
// world's order, and the producer keeps no pointer to the world between
// calls. A [rand.Rand] over it draws what the world's generator would: it
// holds no state of its own beyond its source.
type worldRand struct {
	r *rand.Rand
}

// Uint64 implements [rand.Source].
func (s *worldRand) Uint64() uint64 { return s.r.Uint64() }

// rand returns a generator drawing from s.
func (s *worldRand) rand() *rand.Rand { return rand.New(s) }

// lend makes s draw from r until release.
func (s *worldRand) lend(r *rand.Rand) { s.r = r }

// release ends a lend.
func (s *worldRand) release() { s.r = nil }
