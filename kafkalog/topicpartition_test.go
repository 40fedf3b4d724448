package kafkalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseTopicPartitionDir(t *testing.T) {
	type result struct {
		TP TopicPartition
		OK bool
	}
	tests := []struct {
		dir  string
		want result
	}{
		{"my-topic-3", result{TopicPartition{"my-topic", 3}, true}},
		{"__consumer_offsets-39", result{TopicPartition{"__consumer_offsets", 39}, true}},
		{"myTopic-0", result{TopicPartition{"myTopic", 0}, true}},
		{"Retry.TestTopicPatient-0", result{TopicPartition{"Retry.TestTopicPatient", 0}, true}},
		{"__cluster_metadata-0", result{TopicPartition{"__cluster_metadata", 0}, true}},
		{"my-topic-3.2f9b1c0d8e7a4b5c9d0e1f2a3b4c5d6e-delete", result{}},
		{"my-topic-3.2f9b1c0d8e7a4b5c9d0e1f2a3b4c5d6e-future", result{}},
		{"my-topic-3.abc-stray", result{}},
		{"my-topic", result{}},
		{"-3", result{}},
		{"topic-", result{}},
		{"topic--1", result{TopicPartition{"topic-", 1}, true}},
		{"topic-99999999999", result{}},
		{"topic-+1", result{}},
		{"lost+found", result{}},
	}
	for _, tc := range tests {
		var got result
		got.TP, got.OK = ParseTopicPartitionDir(tc.dir)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseTopicPartitionDir(%q) (-want +got):\n%s", tc.dir, diff)
		}
	}
}

func TestTopicPartitionDirNameRoundTrip(t *testing.T) {
	for _, tp := range []TopicPartition{{"a", 0}, {"my-topic", 12}, {"x.y_z", 2147483647}} {
		got, ok := ParseTopicPartitionDir(tp.DirName())
		if !ok || got != tp {
			t.Errorf("directory %q of %v parsed back as %v, %v", tp.DirName(), tp, got, ok)
		}
	}
}

func TestSortedTopicPartitions(t *testing.T) {
	m := map[TopicPartition]int64{
		{"b", 0}: 1, {"a", 10}: 2, {"a", 2}: 3, {"a-1", 0}: 4, {"__consumer_offsets", 49}: 5,
	}
	want := []TopicPartition{{"__consumer_offsets", 49}, {"a", 2}, {"a", 10}, {"a-1", 0}, {"b", 0}}
	for range 5 { // map order differs from run to run; the result must not
		if diff := cmp.Diff(want, SortedTopicPartitions(m)); diff != "" {
			t.Fatalf("SortedTopicPartitions (-want +got):\n%s", diff)
		}
	}
}
