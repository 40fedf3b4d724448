package partitioner

import (
	"maps"
	"math/rand/v2"
)

// Clone returns an independent copy of the partitioner that draws from rng,
// which must be the owner's copy of the generator the partitioner draws from
// (in the same state), so that the two pick alike: the partition each topic
// sticks to is copied.
func (s *Sticky) Clone(rng *rand.Rand) *Sticky {
	return &Sticky{rng: rng, current: maps.Clone(s.current)}
}

// Clone returns an independent copy of the partitioner that draws from rng,
// which must be the owner's copy of the generator the partitioner draws from
// (in the same state), so that the two pick alike: the partition each topic
// sticks to, and the bytes it took so far, are copied.
func (u *UniformSticky) Clone(rng *rand.Rand) *UniformSticky {
	c := &UniformSticky{rng: rng, batchSizeBytes: u.batchSizeBytes, current: make(map[string]*stickyInfo, len(u.current))}
	for topic, info := range u.current {
		copied := *info
		c.current[topic] = &copied
	}
	return c
}
