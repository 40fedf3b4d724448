package group_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/group"
)

// TestExpiryForgetsALoadedGroupWithATombstone: an Empty group loaded from
// its record expires its offsets retention after the record's state
// timestamp, and, forgotten, gets a tombstone for its metadata record
// (Kafka 3.7's cleanupGroupMetadata), so that the next coordinator does
// not load it back.
func TestExpiryForgetsALoadedGroupWithATombstone(t *testing.T) {
	c, err := group.NewCoordinator(group.DefaultConfig(), &group.MemoryOffsetStore{}, 50_000)
	if err != nil {
		t.Fatal(err)
	}
	if !c.LoadGroup(group.GroupRecord{Group: "g", Generation: 3, ProtocolType: "consumer", CurrentStateTimestampMs: 10_000}) {
		t.Fatal("LoadGroup refused a new group")
	}
	stored := map[string][]group.StoredOffset{"g": {{TopicPartition: group.TopicPartition{Topic: "t"}, CommitTimestampMs: 40_000}}}
	all := func(string) bool { return true }
	tp := []group.TopicPartition{{Topic: "t"}}

	c.Tick(59_999)
	if got := c.ExpireOffsets(50_000, stored, all); len(got) != 0 {
		t.Fatalf("expired %v before retention passed since the group became Empty (10 s)", got)
	}
	c.Tick(60_000)
	if diff := cmp.Diff(map[string][]group.TopicPartition{"g": tp}, c.ExpireOffsets(50_000, stored, all)); diff != "" {
		t.Fatalf("expired at 60 s (-want +got):\n%s", diff)
	}
	if _, ok := c.Group("g"); ok {
		t.Error("the group is still known after its offsets expired")
	}
	rd := c.Ready()
	if len(rd.Groups) != 1 || !rd.Groups[0].Tombstone || rd.Groups[0].Group != "g" {
		t.Errorf("Ready.Groups = %+v, want one tombstone for g", rd.Groups)
	}
}
