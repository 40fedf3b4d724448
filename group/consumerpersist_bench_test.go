package group_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/group"
)

// BenchmarkConsumerGroupHeartbeat: a steady heartbeat (nothing changes) of
// one member of a Stable consumer group of n members, and a heartbeat of
// a member that joins such a group (a new target, a record per member
// whose target moved); Ready is taken after each, so that the cost of the
// records written (or of finding there are none) is counted.
func BenchmarkConsumerGroupHeartbeat(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		c, err := group.NewConsumerGroupCoordinator(group.DefaultConsumerGroupConfig(), &group.MemoryOffsetStore{}, 0)
		require.NoError(b, err)
		c.SetTopics([]group.TopicMetadata{{Topic: "t", Partitions: int32(n), ID: topicID("t")}})
		beat := func(r group.ConsumerGroupHeartbeat) group.Ready {
			r.GroupID = "g"
			require.NoError(b, c.Step("a", r))
			return c.Ready()
		}
		for i := range n {
			beat(group.ConsumerGroupHeartbeat{MemberID: fmt.Sprintf("m%d", i), RebalanceTimeoutMs: 300000,
				SubscribedTopicNames: []string{"t"}, Owned: []group.TopicPartition{}})
		}
		st, _ := c.Group("g")
		for round := 0; st.State != group.ConsumerGroupStable && round < 10; round++ {
			for _, m := range st.Members {
				beat(group.ConsumerGroupHeartbeat{MemberID: m.MemberID, MemberEpoch: m.MemberEpoch, RebalanceTimeoutMs: -1, Owned: m.Assigned})
			}
			st, _ = c.Group("g")
		}
		require.Equal(b, group.ConsumerGroupStable, st.State)
		m := st.Members[0]
		b.Run(fmt.Sprintf("steady/members=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rd := beat(group.ConsumerGroupHeartbeat{MemberID: m.MemberID, MemberEpoch: m.MemberEpoch, RebalanceTimeoutMs: -1})
				if len(rd.ConsumerGroups) != 0 {
					b.Fatalf("a steady heartbeat wrote %d records", len(rd.ConsumerGroups))
				}
			}
		})
	}
}
