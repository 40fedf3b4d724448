package partitioner

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Sticky is the partitioner for records without a key, as in KIP-480 (Kafka
// 2.4–3.2, Java's StickyPartitionCache): every keyless record of a topic goes
// to the same partition until the producer closes the batch for that
// partition, then the producer moves to another partition chosen at random.
//
// The producer (the caller) must call [Sticky.Partition] for each keyless
// record and [Sticky.OnNewBatch] whenever the batch it was filling for the
// sticky partition is full or sent. Randomness comes only from the injected
// *rand.Rand. A Sticky is not safe for concurrent use; the simulation has
// none.
type Sticky struct {
	rng     *rand.Rand
	current map[string]int32
}

// NewSticky returns a sticky partitioner that draws from rng.
func NewSticky(rng *rand.Rand) *Sticky {
	return &Sticky{rng: rng, current: make(map[string]int32)}
}

// Partition returns the partition that keyless records of topic go to now.
// The first call for a topic picks one at random. available lists the
// partitions that have a leader; nil or empty means "pick among all
// numPartitions", as Java does when none is available. A sticky partition
// that no longer exists (numPartitions shrank in a test) is replaced.
func (s *Sticky) Partition(topic string, numPartitions int32, available []int32) (int32, error) {
	if numPartitions < 1 {
		return 0, fmt.Errorf("sticky partition for topic %q: %w", topic, ErrNoPartitions)
	}
	if p, ok := s.current[topic]; ok && p < numPartitions {
		return p, nil
	}
	p := s.pick(-1, numPartitions, available)
	s.current[topic] = p
	return p, nil
}

// OnNewBatch tells the partitioner that the batch for prevPartition of topic
// was closed, and returns the partition keyless records go to from now on.
// Only a batch of the current sticky partition moves it (another partition's
// batch, e.g. one filled by keyed records, changes nothing). The new partition
// differs from the old one whenever more than one partition is available.
func (s *Sticky) OnNewBatch(topic string, prevPartition, numPartitions int32, available []int32) (int32, error) {
	if numPartitions < 1 {
		return 0, fmt.Errorf("sticky new batch for topic %q: %w", topic, ErrNoPartitions)
	}
	old, ok := s.current[topic]
	if ok && old != prevPartition && old < numPartitions {
		return old, nil
	}
	if !ok {
		old = -1
	}
	p := s.pick(old, numPartitions, available)
	s.current[topic] = p
	return p, nil
}

// pick draws a partition other than old: from available when it is given,
// else from all partitions. Java redraws until it differs; drawing from the
// candidates without old gives the same distribution with one draw.
func (s *Sticky) pick(old, numPartitions int32, available []int32) int32 {
	candidates := s.candidates(numPartitions, available)
	if len(candidates) == 0 {
		return ToPositive(int32(s.rng.Uint32())) % numPartitions
	}
	if len(candidates) > 1 {
		candidates = slices.DeleteFunc(candidates, func(p int32) bool { return p == old })
	}
	return candidates[ToPositive(int32(s.rng.Uint32()))%int32(len(candidates))]
}

// candidates returns the valid, sorted, distinct available partitions, or
// every partition when there is more than one and none is marked available.
func (s *Sticky) candidates(numPartitions int32, available []int32) []int32 {
	var out []int32
	for _, p := range available {
		if p >= 0 && p < numPartitions {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) == 0 && numPartitions > 1 {
		for p := range numPartitions {
			out = append(out, p)
		}
	}
	return out
}
