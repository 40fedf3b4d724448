package broker

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/group"
)

// partitionsGen draws distinct partitions of topics a to d, sorted.
func partitionsGen() *rapid.Generator[[]group.TopicPartition] {
	return rapid.Custom(func(t *rapid.T) []group.TopicPartition {
		set := rapid.SliceOfDistinct(rapid.Custom(func(t *rapid.T) group.TopicPartition {
			return group.TopicPartition{Topic: rapid.SampledFrom([]string{"a", "b", "c", "d"}).Draw(t, "topic"), Partition: rapid.Int32Range(0, 20).Draw(t, "partition")}
		}), func(tp group.TopicPartition) group.TopicPartition { return tp }).Draw(t, "partitions")
		return group.SortedPartitions(set)
	})
}

// TestSubscriptionRoundTrip: a world member's subscription, written as
// Kafka 3.7's consumer writes it for an outside leader, reads back as it
// was, for every assignor (the sticky ones also carry the owned partitions
// in their user data).
func TestSubscriptionRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom([]string{"range", "roundrobin", "sticky", "cooperative-sticky"}).Draw(t, "assignor")
		s := group.Subscription{
			Topics:          rapid.SliceOfDistinct(rapid.StringMatching(`[a-z]{1,3}`), func(s string) string { return s }).Draw(t, "topics"),
			OwnedPartitions: partitionsGen().Draw(t, "owned"),
			Generation:      rapid.Int32Range(-1, 50).Draw(t, "generation"),
		}
		got := decodeSubscription(name, encodeSubscription(name, s))
		if diff := cmp.Diff(s, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%s: the subscription read back differs (-sent +read):\n%s", name, diff)
		}
	})
}

// TestAssignmentRoundTrip: an assignment written as a
// ConsumerProtocolAssignment reads back with the same partitions, grouped
// by topic in the order the topics first appear.
func TestAssignmentRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tps := rapid.Permutation(partitionsGen().Draw(t, "partitions")).Draw(t, "order")
		var want []group.TopicPartition
		for _, tp := range tps {
			if !slices.ContainsFunc(want, func(w group.TopicPartition) bool { return w.Topic == tp.Topic }) {
				for _, same := range tps {
					if same.Topic == tp.Topic {
						want = append(want, same)
					}
				}
			}
		}
		if diff := cmp.Diff(want, decodeAssignment(encodeAssignment(tps)), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("the assignment read back differs (-want +read):\n%s", diff)
		}
	})
}

// TestEagerStickyUserData: an eager sticky member of an older client
// carries its previous assignment and generation in the user data only
// (StickyAssignorUserData); the subscription read has them as owned, and
// bytes that do not parse subscribe to nothing.
func TestEagerStickyUserData(t *testing.T) {
	ud := kmsg.NewStickyMemberMetadata()
	ud.Generation = 4
	ud.CurrentAssignment = []kmsg.StickyMemberMetadataCurrentAssignment{{Topic: "t", Partitions: []int32{2, 0}}}
	m := kmsg.NewConsumerMemberMetadata()
	m.Version = 1
	m.Topics, m.UserData = []string{"t"}, ud.AppendTo(nil)
	want := group.Subscription{Topics: []string{"t"}, OwnedPartitions: []group.TopicPartition{{Topic: "t", Partition: 2}, {Topic: "t", Partition: 0}}, Generation: 4}
	if diff := cmp.Diff(want, decodeSubscription("sticky", m.AppendTo(nil))); diff != "" {
		t.Errorf("sticky user data (-want +read):\n%s", diff)
	}
	if diff := cmp.Diff(group.Subscription{Topics: []string{"t"}, Generation: -1}, decodeSubscription("range", m.AppendTo(nil))); diff != "" {
		t.Errorf("range ignores the user data (-want +read):\n%s", diff)
	}
	if diff := cmp.Diff(group.Subscription{Generation: -1}, decodeSubscription("range", []byte{0, 1, 2})); diff != "" {
		t.Errorf("bytes that do not parse (-want +read):\n%s", diff)
	}
}
