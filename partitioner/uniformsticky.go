package partitioner

import (
	"fmt"
	"math/rand/v2"
)

// UniformSticky is the built-in partitioner for records without a key of
// Kafka 3.3+ (KIP-794, Java's BuiltInPartitioner): the producer stays on one
// partition until it has appended batch.size bytes to it, so every
// partition receives about the same number of bytes however fast its
// broker is. It switches once at least batch.size bytes went to the sticky
// partition and every batch queued for it is full (the caller says so), or
// unconditionally at twice batch.size. The next partition is drawn uniformly
// among the available ones and may be the same one again, as in Java.
// Adaptive partitioning (partitioner.adaptive.partitioning.enable, leaning
// away from long queues) is not modelled: every draw is uniform.
type UniformSticky struct {
	rng            *rand.Rand
	batchSizeBytes int
	current        map[string]*stickyInfo
}

// stickyInfo is one topic's sticky partition and the bytes produced to it.
type stickyInfo struct {
	partition     int32
	producedBytes int
}

// NewUniformSticky returns a KIP-794 partitioner switching after
// batchSizeBytes (batch.size, default 16384; values below 1 count as 1, as
// KafkaProducer passes max(1, batch.size)).
func NewUniformSticky(rng *rand.Rand, batchSizeBytes int) *UniformSticky {
	return &UniformSticky{rng: rng, batchSizeBytes: max(1, batchSizeBytes), current: map[string]*stickyInfo{}}
}

// Partition returns the partition the next keyless record of topic goes to.
// available lists the partitions with a leader; nil means all.
func (u *UniformSticky) Partition(topic string, numPartitions int32, available []int32) (int32, error) {
	if numPartitions < 1 {
		return 0, fmt.Errorf("uniform sticky partition for topic %q: %w", topic, ErrNoPartitions)
	}
	info, ok := u.current[topic]
	if !ok || info.partition >= numPartitions {
		info = &stickyInfo{partition: u.next(numPartitions, available)}
		u.current[topic] = info
	}
	return info.partition, nil
}

// Appended records that recordBytes were appended to partition of topic.
// allBatchesFull says whether every batch queued for that partition is full
// (RecordAccumulator's allBatchesFull, Java's enableSwitch): the switch waits
// for it unless twice batch.size has been produced. Bytes appended to a
// partition that is not the sticky one (keyed records) are ignored.
func (u *UniformSticky) Appended(topic string, partition int32, recordBytes int, allBatchesFull bool, numPartitions int32, available []int32) {
	info, ok := u.current[topic]
	if !ok || info.partition != partition || numPartitions < 1 {
		return
	}
	info.producedBytes += max(0, recordBytes)
	if info.producedBytes >= u.batchSizeBytes && allBatchesFull || info.producedBytes >= 2*u.batchSizeBytes {
		u.current[topic] = &stickyInfo{partition: u.next(numPartitions, available)}
	}
}

// next draws a partition uniformly among the available ones (all when none
// is given), like BuiltInPartitioner.nextPartition without load stats.
func (u *UniformSticky) next(numPartitions int32, available []int32) int32 {
	random := ToPositive(int32(u.rng.Uint32()))
	var valid []int32
	for _, p := range available {
		if p >= 0 && p < numPartitions {
			valid = append(valid, p)
		}
	}
	if len(valid) == 0 {
		return random % numPartitions
	}
	return valid[random%int32(len(valid))]
}
