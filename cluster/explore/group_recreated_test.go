package explore_test

import (
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/explore"
	"github.com/kafkalive/kafkalive/replica"
)

// A group deleted while the append of its last assignment still waits
// for cut-off in-sync replicas, then joined anew by its members up to the
// same generation: when the old append ended, the coordinator applied the
// old generation's assignment (the old members' ids) to the new group,
// which went Stable with every member assigned nothing. Kafka 3.7's
// storeGroup callback holds the group it was made for, by then Dead, and
// does nothing; the new group's own record decides. (User explorer seed
// 910069 at 20 operations under Kafka 4's rules: group billing Stable at
// generation 1, both members assigned [].)
func TestRecreatedGroupIgnoresItsPredecessorsAppend(t *testing.T) {
	ops := []explore.UserOp{
		userAct(cluster.Action{Kind: cluster.ActPartition, A: []int32{2}, B: []int32{3}}),
		userAct(runAction(47000)),
		{Kind: explore.UserJump, BackMs: 30000},
		{Kind: explore.UserDeleteGroup, Action: cluster.Action{Name: "billing"}},
	}
	modern := replica.Modern
	requireUserSequencePasses(t, explore.UserConfig{Rules: &modern, Ops: 20}, 910069, ops)
}
