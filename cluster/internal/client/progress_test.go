package client

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// TestProgress marks records a group processed: a record below the
// furthest one processed, in that group and partition, is a duplicate.
func TestProgress(t *testing.T) {
	t0, t1 := kafkalog.TopicPartition{Topic: "t"}, kafkalog.TopicPartition{Topic: "t", Partition: 1}
	var p Progress
	type mark struct {
		group  string
		tp     kafkalog.TopicPartition
		offset int64
	}
	marks := []mark{{"g", t0, 0}, {"g", t0, 1}, {"g", t0, 0}, {"g", t1, 0}, {"h", t0, 1}, {"g", t0, 5}, {"g", t0, 3}, {"g", t0, 6}}
	var got []bool
	for _, m := range marks {
		got = append(got, p.Mark(m.group, m.tp, m.offset))
	}
	want := []bool{false, false, true, false, false, false, true, false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("duplicates (-want +got)\n%s", diff)
	}
}
