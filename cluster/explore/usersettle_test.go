package explore_test

import (
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/explore"
)

// A consumer that crashed while its JoinGroup waited is made a member of
// the generation that join completes and holds its partitions until its
// session expires, 45 s after that: the user explorer's settle waits for
// the rebalance that follows before it asks for commits. (Seed 8001161 at
// 20 operations: c8 joined generation 2 at 33 s with profiles-0, its
// session ending at 78 s, after the settle's 60 s from the crash.)
func TestUserSettleWaitsForACrashedMembersSession(t *testing.T) {
	ops := []explore.UserOp{
		userAct(cluster.Action{Kind: cluster.ActRun, Ms: 3400}),
		userAct(cluster.Action{Kind: cluster.ActAddConsumer, Consumer: cluster.ConsumerConfig{Name: "c8", Group: "search-index", Topics: []string{"profiles"}}}),
		userAct(cluster.Action{Kind: cluster.ActPartition, A: []int32{2}, B: []int32{3}}),
		userAct(cluster.Action{Kind: cluster.ActRun, Ms: 1300}),
		userAct(cluster.Action{Kind: cluster.ActCrashConsumer, Name: "c8"}),
	}
	requireUserSequencePasses(t, explore.UserConfig{}, 8001161, ops)
}
