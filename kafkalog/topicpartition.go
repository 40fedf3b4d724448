package kafkalog

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// TopicPartition names one partition of a topic.
type TopicPartition struct {
	// Topic is the topic name.
	Topic string
	// Partition is the partition number, from 0.
	Partition int32
}

// String returns "topic-partition", as Kafka prints a TopicPartition.
func (tp TopicPartition) String() string { return tp.DirName() }

// DirName returns the name of the partition's directory in a log dir:
// "<topic>-<partition>", e.g. "my-topic-3".
func (tp TopicPartition) DirName() string {
	return tp.Topic + "-" + strconv.FormatInt(int64(tp.Partition), 10)
}

// Compare orders partitions by topic, then partition number (for
// slices.SortFunc): the order in which checkpoint files are written and log
// dirs are listed.
func (tp TopicPartition) Compare(other TopicPartition) int {
	if c := strings.Compare(tp.Topic, other.Topic); c != 0 {
		return c
	}
	return cmp.Compare(tp.Partition, other.Partition)
}

// SortedTopicPartitions returns the keys of m in Compare order, so that a map
// of partitions can reach output deterministically.
func SortedTopicPartitions[V any](m map[TopicPartition]V) []TopicPartition {
	tps := make([]TopicPartition, 0, len(m))
	for tp := range m {
		tps = append(tps, tp)
	}
	slices.SortFunc(tps, TopicPartition.Compare)
	return tps
}

// Directory name suffixes that mark a partition directory that is not live
// (LocalLog.java): being deleted, being moved to another log dir, or a stray.
const (
	deleteDirSuffix = "-delete"
	futureDirSuffix = "-future"
	strayDirSuffix  = "-stray"
)

// ParseTopicPartitionDir parses a partition directory name "<topic>-<partition>"
// (the partition number follows the last dash). Directories Kafka marks as being
// deleted ("topic-0.<uuid>-delete"), future replicas ("-future") or strays
// ("-stray") are not live partitions and give ok == false, as do names without a
// topic or with a partition number that is negative or not a decimal int32.
func ParseTopicPartitionDir(name string) (TopicPartition, bool) {
	for _, s := range []string{deleteDirSuffix, futureDirSuffix, strayDirSuffix} {
		if strings.HasSuffix(name, s) {
			return TopicPartition{}, false
		}
	}
	dash := strings.LastIndexByte(name, '-')
	if dash <= 0 || dash == len(name)-1 {
		return TopicPartition{}, false
	}
	digits := name[dash+1:]
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return TopicPartition{}, false
		}
	}
	p, err := strconv.ParseInt(digits, 10, 32)
	if err != nil {
		return TopicPartition{}, false
	}
	return TopicPartition{Topic: name[:dash], Partition: int32(p)}, true
}
