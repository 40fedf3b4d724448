package explore_test

import (
	"fmt"
	"testing"

	"github.com/kafkalive/kafkalive/cluster/explore"
	"github.com/kafkalive/kafkalive/replica"
)

// TestUserExploreFoundSeeds replays, as drawn, the user explorer's
// sequences that found a bug, so that each stays fixed (a focused test
// beside the fix says what the bug was).
func TestUserExploreFoundSeeds(t *testing.T) {
	for _, tc := range []struct {
		rules replica.RuleSet
		seed  uint64
		why   string
		txn   bool
	}{
		{replica.Modern, 910069, "a recreated group was handed its predecessor's assignment (group/testdata/scenarios/store-outlives-group.txt)", false},
		{replica.Modern, 2, "a crashed consumer loaded by a new coordinator looked like an outside client (TestOwnMembersAreDescribedByTheirProcesses)", false},
		{replica.V3_7, 2, "the same, under Kafka 3.7's rules", false},
		{replica.Modern, 2972, "a cleanly stopped replica that cut damaged records at its load was elected from the ELR (TestDamagedCleanReplicaIsNoEligibleLeader)", false},
		{replica.Modern, 5129, "a wiped replica elected the last known leader, an unclean election in Kafka 4, was judged a loss (TestWipedLastKnownLeaderIsAnUncleanElection)", false},
		{replica.Modern, 4177, "a member handed three partitions read them in partition order and never read the last (TestMemberReadsEveryPartitionItOwns)", false},
		{replica.Modern, 4505, "kafka-configs --alter of a topic a jump back took away was judged good input refused (TestAlterConfigsOfATopicNotYetMadeIsRefused)", false},
		{replica.Modern, 2805884, "a copier's group, known only by its transactional offsets, was not listed once its offsets partition moved to a broker no group request had reached (TestTransactionalOffsetsGroupMovesWithItsPartition)", true},
		{replica.Modern, 2808517, "the same, on another sequence", true},
		{replica.Modern, 3102480, "a follower that was down while its leader's retention deleted records kept them once it led, which the copier had skipped (cluster/testdata/retention-follower.txt)", true},
		{replica.Modern, 3107340, "a copier's committed offsets were held pending behind another copier's open transaction in the same offsets partition (TestTxnOffsetsSettleProducerByProducer)", true},
		{replica.Modern, 3101597, "a follower's log start raised into a segment whose bytes below it were damaged was judged a mirror that does not hold its files (TestRaisedLogStartPassesOverTheBytesBelowIt)", true},
		{replica.Modern, 2802555, "a member that a rebalance gave two partitions with no offset committed them, draining the busiest first, and was judged to commit nothing more on its third", true},
		{replica.Modern, 2808139, "the cleaner of __consumer_offsets-0 met a batch whose magic byte a flip damaged and halted its broker; it now marks the partition uncleanable and goes on (broker's testdata/api/cleaner.txt, TestCleanerUnderRandomDamage; OffsetFetch's require_stable changed what the sequence's copiers do, and it no longer reaches that batch)", true},
	} {
		t.Run(fmt.Sprintf("%s/%d/transactions=%t", tc.rules, tc.seed, tc.txn), func(t *testing.T) {
			rules := tc.rules
			cfg := explore.UserConfig{Rules: &rules, Ops: 20, Transactions: tc.txn}
			t.Log(tc.why)
			requireUserSequencePasses(t, cfg, tc.seed, explore.UserSequence(cfg, tc.seed))
		})
	}
}
