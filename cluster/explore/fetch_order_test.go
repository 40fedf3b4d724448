package explore_test

import (
	"testing"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/explore"
	"github.com/kafkalive/kafkalive/replica"
)

// After a long outage of two brokers, billing-1 crashed and billing-2
// (max.poll.records 3, as the default world sets it) was handed all of
// orders' partitions, orders-2 with a lag of hundreds of records. Read in
// partition order, orders-0 and orders-1 took the three records of every
// poll and orders-2 was never read again: its committed offset stayed
// where it was. Kafka's consumer drains a partition's fetched records and
// then moves it to the end of its fetch order (CompletedFetch.drain), so
// orders-2 is read on. (User explorer seed 4177 at 20 operations.)
func TestMemberReadsEveryPartitionItOwns(t *testing.T) {
	ops := []explore.UserOp{
		{Kind: explore.UserAction, Action: cluster.Action{Kind: cluster.ActPowerCut, Broker: 1, Torn: true}, Safe: true},
		{Kind: explore.UserAction, Action: cluster.Action{Kind: cluster.ActPowerCut, Broker: 2}, Safe: true},
		userAct(cluster.Action{Kind: cluster.ActCrashConsumer, Name: "billing-1"}),
		userAct(runAction(388558)),
	}
	modern := replica.Modern
	requireUserSequencePasses(t, explore.UserConfig{Rules: &modern, Ops: 20}, 4177, ops)
}
