package cluster_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/cluster"
)

// A consumer that crashed while its JoinGroup waited is made a member of
// the generation that join completes and holds its partitions until its
// session expires, 45 s after that: the user explorer's settle waits for
// the rebalance that follows before it asks for commits. (Seed 8001161 at
// 20 operations: c8 joined generation 2 at 33 s with profiles-0, its
// session ending at 78 s, after the settle's 60 s from the crash.)
func TestUserSettleWaitsForACrashedMembersSession(t *testing.T) {
	do := func(a cluster.Action) cluster.UserOp { return cluster.UserOp{Kind: cluster.UserAction, Action: a} }
	ops := []cluster.UserOp{
		do(cluster.Action{Kind: cluster.ActRun, Ms: 3400}),
		do(cluster.Action{Kind: cluster.ActAddConsumer, Consumer: cluster.ConsumerConfig{Name: "c8", Group: "search-index", Topics: []string{"profiles"}}}),
		do(cluster.Action{Kind: cluster.ActPartition, A: []int32{2}, B: []int32{3}}),
		do(cluster.Action{Kind: cluster.ActRun, Ms: 1300}),
		do(cluster.Action{Kind: cluster.ActCrashConsumer, Name: "c8"}),
	}
	o, _, err := cluster.RunUserSequence(cluster.UserExploreConfig{}, 8001161, ops)
	if err != nil {
		t.Fatal(err)
	}
	var got []cluster.UserFailure
	if o.Failed() {
		got = o.Failures
	}
	if diff := cmp.Diff([]cluster.UserFailure(nil), got); diff != "" {
		t.Fatalf("failures (-want +got):\n%s", diff)
	}
}
