package partitioner

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Seed and multiplier of Kafka's murmur2 (Utils.murmur2). Part of the
// keyed-partitioning contract: changing either moves every key.
const (
	murmur2Seed uint32 = 0x9747b28c
	murmur2M    uint32 = 0x5bd1e995
	murmur2R           = 24
)

// ErrNoPartitions is returned when a topic is said to have no partitions.
var ErrNoPartitions = errors.New("partitioner: topic has no partitions")

// Murmur2 returns Kafka's 32-bit MurmurHash2 of data, as the signed int Java
// returns from Utils.murmur2.
func Murmur2(data []byte) int32 {
	length := len(data)
	h := murmur2Seed ^ uint32(length)
	blocks := length / 4
	for i := range blocks {
		k := binary.LittleEndian.Uint32(data[4*i:])
		k *= murmur2M
		k ^= k >> murmur2R
		k *= murmur2M
		h *= murmur2M
		h ^= k
	}
	tail := data[4*blocks:]
	switch len(tail) {
	case 3:
		h ^= uint32(tail[2]) << 16
		fallthrough
	case 2:
		h ^= uint32(tail[1]) << 8
		fallthrough
	case 1:
		h ^= uint32(tail[0])
		h *= murmur2M
	}
	h ^= h >> 13
	h *= murmur2M
	h ^= h >> 15
	return int32(h)
}

// ToPositive clears the sign bit of n (Kafka's Utils.toPositive,
// n & 0x7fffffff). Unlike abs it never returns a negative number.
func ToPositive(n int32) int32 {
	return n & 0x7fffffff
}

// Partition returns the partition of a record whose key serialises to key,
// among numPartitions partitions: ToPositive(Murmur2(key)) % numPartitions.
// An empty key is a key (it hashes); a record with no key at all must go to
// [Sticky] instead. It returns [ErrNoPartitions] when numPartitions < 1.
func Partition(key []byte, numPartitions int32) (int32, error) {
	if numPartitions < 1 {
		return 0, fmt.Errorf("partition for key %q among %d: %w", key, numPartitions, ErrNoPartitions)
	}
	return ToPositive(Murmur2(key)) % numPartitions, nil
}
