package group

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// TopicPartition names one partition of one topic.
type TopicPartition struct {
	// Topic is the topic name.
	Topic string
	// Partition is the partition number, 0-based.
	Partition int32
}

// String formats tp the way Kafka logs it: topic-partition.
func (tp TopicPartition) String() string {
	return fmt.Sprintf("%s-%d", tp.Topic, tp.Partition)
}

// CompareTopicPartitions orders by topic name, then partition number: the
// order every assignor sorts partitions in.
func CompareTopicPartitions(a, b TopicPartition) int {
	if c := strings.Compare(a.Topic, b.Topic); c != 0 {
		return c
	}
	return cmp.Compare(a.Partition, b.Partition)
}

// SortedPartitions returns a sorted copy of tps without duplicates, never nil.
func SortedPartitions(tps []TopicPartition) []TopicPartition {
	out := append([]TopicPartition{}, tps...)
	slices.SortFunc(out, CompareTopicPartitions)
	return slices.Compact(out)
}

// FormatPartitions prints tps as [t-0 t-1], or [] when empty.
func FormatPartitions(tps []TopicPartition) string {
	parts := make([]string, len(tps))
	for i, tp := range tps {
		parts[i] = tp.String()
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// partitionSet is a set of partitions with sorted iteration.
type partitionSet map[TopicPartition]bool

func newPartitionSet(tps []TopicPartition) partitionSet {
	s := make(partitionSet, len(tps))
	for _, tp := range tps {
		s[tp] = true
	}
	return s
}

// minus returns the sorted partitions of a that are not in s.
func (s partitionSet) minus(a []TopicPartition) []TopicPartition {
	out := []TopicPartition{}
	for _, tp := range a {
		if !s[tp] {
			out = append(out, tp)
		}
	}
	return SortedPartitions(out)
}

// Difference returns the sorted partitions of a that are not in b.
func Difference(a, b []TopicPartition) []TopicPartition {
	return newPartitionSet(b).minus(a)
}
