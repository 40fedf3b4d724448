package explore_test

import (
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/explore"
	"github.com/kafkalive/kafkalive/replica"
)

// A broker stopped cleanly, whose partition file is then damaged, cuts
// the damaged records when it loads (kafkalog verifies what Kafka's
// loader trusts under the clean shutdown marker). Under Kafka 4's rules
// it must not then stand as an eligible leader replica (KIP-966) with the
// records it lost: it was elected from the ELR, and the other replicas,
// which held the acknowledged record, truncated it. (User explorer seed
// 2972 at 20 operations: checkout-0 at orders-0@0 lost.)
func TestDamagedCleanReplicaIsNoEligibleLeader(t *testing.T) {
	ops := []explore.UserOp{
		userAct(runAction(500)),
		userAct(cluster.Action{Kind: cluster.ActStop, Broker: 3}),
		userAct(cluster.Action{Kind: cluster.ActStop, Broker: 2}),
		userAct(cluster.Action{Kind: cluster.ActCorrupt, Broker: 2, Name: "orders-0/00000000000000000000.log", Offset: 82, Flip: true}),
		userAct(cluster.Action{Kind: cluster.ActKill, Broker: 1}),
	}
	modern := replica.Modern
	requireUserSequencePasses(t, explore.UserConfig{Rules: &modern, Ops: 20}, 2972, ops)
}

// Every broker goes down, the last leader uncleanly; its partition's
// leader-epoch-checkpoint is damaged, so its start fails and the operator
// wipes the partition. With the ISR and the ELR empty, Kafka 4's
// controller elects the last known leader, the wiped replica, and counts
// that election unclean (PartitionChangeBuilder.electAnyLeader, KIP-966):
// its empty log is the partition's, as in Kafka, and the records it lost
// are no loss the rules promise against. (User explorer seed 5129 at 20
// operations.)
func TestWipedLastKnownLeaderIsAnUncleanElection(t *testing.T) {
	ops := []explore.UserOp{
		userAct(runAction(2700)),
		userAct(cluster.Action{Kind: cluster.ActKill, Broker: 3}),
		userAct(cluster.Action{Kind: cluster.ActKill, Broker: 1}),
		userAct(cluster.Action{Kind: cluster.ActStop, Broker: 2}),
		userAct(cluster.Action{Kind: cluster.ActCorrupt, Broker: 3, Name: "orders-0/leader-epoch-checkpoint", Offset: 1, N: 6}),
	}
	modern := replica.Modern
	requireUserSequencePasses(t, explore.UserConfig{Rules: &modern, Ops: 20}, 5129, ops)
}
