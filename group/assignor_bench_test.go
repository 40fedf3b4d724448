package group_test

import (
	"fmt"
	"testing"

	"github.com/kafkalive/kafkalive/group"
)

// benchGroup is members consumers over topics topics of partitions each; with
// mixed, every third member skips the last topic (the general sticky path).
func benchGroup(members, topics int, partitions int32, mixed bool) ([]group.MemberSubscription, []group.TopicMetadata) {
	var tm []group.TopicMetadata
	var all []string
	for i := range topics {
		name := fmt.Sprintf("topic-%02d", i)
		all = append(all, name)
		tm = append(tm, group.TopicMetadata{Topic: name, Partitions: partitions})
	}
	var ms []group.MemberSubscription
	for i := range members {
		subs := all
		if mixed && i%3 == 0 {
			subs = all[:len(all)-1]
		}
		ms = append(ms, group.MemberSubscription{MemberID: fmt.Sprintf("consumer-%03d", i), Subscription: group.Subscription{Topics: subs, Generation: -1}})
	}
	return ms, tm
}

func BenchmarkAssign(b *testing.B) {
	for _, a := range []group.Assignor{group.RangeAssignor{}, group.RoundRobinAssignor{}, group.StickyAssignor{}, group.CooperativeStickyAssignor{}} {
		for _, mixed := range []bool{false, true} {
			ms, tm := benchGroup(30, 10, 30, mixed)
			b.Run(fmt.Sprintf("%s/30x300/mixed=%v", a.Name(), mixed), func(b *testing.B) {
				for b.Loop() {
					a.Assign(ms, tm)
				}
			})
		}
	}
}
