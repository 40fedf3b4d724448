package replica

import (
	"fmt"
	"math"
	"strings"
)

// RuleSet selects which Kafka version's replication rules a [Node] follows.
// The rules differ in how a replica that becomes a follower finds the point
// where its log stops matching the leader's, in fencing, in how the ISR is
// counted while a change is in flight, and in whether the high watermark (HW)
// may move while the ISR is below min.insync.replicas.
// The package documentation's table lists every rule that differs, the
// Kafka version it comes from and where it lives in Kafka's source.
type RuleSet int

const (
	// V0_10 is Kafka 0.10 (before KIP-101): records carry no leader epoch, and a
	// replica that becomes a follower truncates its log to its own HW.
	V0_10 RuleSet = iota
	// V0_11 is Kafka 0.11.0 to 1.1 (KIP-101): a new follower asks the leader
	// OffsetsForLeaderEpoch for its latest epoch and truncates to the answer's
	// end offset (its HW when there is none). The leader adds its epoch to the
	// cache on its first append in that epoch.
	V0_11
	// V2_0 is Kafka 2.0 (KIP-279): OffsetsForLeaderEpoch answers (epoch, end
	// offset) and the follower repeats the question until its log is a prefix
	// of the leader's; an undefined answer cuts at the initial fetch offset,
	// the follower's HW. The leader still caches its epoch only at its first
	// append, so it can answer undefined for its own epoch.
	V2_0
	// V2_1 is Kafka 2.1 to 2.6 (KIP-320 and friends): as V2_0, plus leader
	// epoch fencing on every request (KIP-320), the new leader caches its
	// epoch at once (KAFKA-7415), a follower may join the ISR only at or past
	// the leader epoch start offset (KAFKA-7128), and a follower whose LEO
	// equals the leader's stays in the ISR however long ago it last caught
	// up (KAFKA-7152). Its replica.lag.time.max.ms default is 2.1's 10 s
	// (30 s from 2.5, KIP-537: set it to model 2.5 or 2.6). A truncation
	// lowers the follower's HW to the new log end at once, as 2.4's
	// Log.updateLogEndOffset does; 2.1 to 2.3 kept it, in Replica, until the
	// next fetch answer.
	V2_1
	// V3_7 is Kafka 3.7 with KRaft: as V2_1, plus truncation on fetch through
	// the DivergingEpoch of fetch answers (Fetch v12, KIP-595; used by replica
	// fetchers from 2.8, KAFKA-10554) with an initial fetch offset at the LEO,
	// ISR changes sent to the controller as AlterPartition and answered
	// asynchronously (KIP-497, 2.7), the 30 s replica.lag.time.max.ms default
	// (KIP-537, 2.5), and 3.7's min ISR rules (KAFKA-15583): the effective
	// min ISR is min(min.insync.replicas, replication factor), and the HW does
	// not move while the committed ISR is smaller than it. The ISR keeps its
	// last member, and only ISR members are eligible in a clean election.
	V3_7
	// V4 is Kafka 4.1: as V3_7, plus the rules 4.0 and 4.1 changed, each one
	// method of RuleSet listed in the package documentation's table (eligible
	// leader replicas, KIP-966, on by default for new 4.1 clusters; KIP-1030's
	// new defaults).
	V4
)

// Modern is the rule set the page, the command line, the scenarios and the
// notes call "modern": [V4]. The Kafka 3.7 rules stay selectable as [V3_7].
const Modern = V4

var ruleSetNames = [...]string{"v0.10", "v0.11", "v2.0", "v2.1", "v3.7", "v4"}

// String returns the rule set's name as the scenario files spell it.
func (r RuleSet) String() string {
	if r < 0 || int(r) >= len(ruleSetNames) {
		return fmt.Sprintf("RuleSet(%d)", int(r))
	}
	return ruleSetNames[r]
}

// ParseRuleSet returns the rule set named s ("v0.10", "v0.11", "v2.0",
// "v2.1", "v3.7" or "v4"); "modern" names [Modern].
func ParseRuleSet(s string) (RuleSet, error) {
	if s == "modern" {
		return Modern, nil
	}
	for i, name := range ruleSetNames {
		if name == s {
			return RuleSet(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown rule set %q (one of %s, or modern)", ErrInvalidConfig, s, strings.Join(ruleSetNames[:], ", "))
}

// Valid reports whether r is one of the rule sets above.
func (r RuleSet) Valid() bool { return r >= V0_10 && r <= V4 }

// EpochsInRecords reports whether records carry the leader epoch (0.11+).
func (r RuleSet) EpochsInRecords() bool { return r >= V0_11 }

// Fencing reports whether requests carry the current leader epoch and are
// refused when it does not match (2.1+, KIP-320).
func (r RuleSet) Fencing() bool { return r >= V2_1 }

// CachesEpochOnElection reports whether a new leader adds its epoch to the
// epoch cache at once, before writing anything in it (2.1+, KAFKA-7415).
func (r RuleSet) CachesEpochOnElection() bool { return r >= V2_1 }

// EpochCacheTruncatesOnAppend reports whether an append records every
// batch's leader epoch in the epoch cache, one below the latest removing
// the entries it contradicts (2.1+, KAFKA-7415: LeaderEpochFileCache.assign
// then truncateAndAppend), rather than only an epoch newer than the latest,
// at or after its start, ignoring any other (0.11 to 2.0).
func (r RuleSet) EpochCacheTruncatesOnAppend() bool { return r >= V2_1 }

// ISRJoinNeedsLESO reports whether a follower must reach the leader epoch
// start offset to join the ISR (2.1+, KAFKA-7128).
func (r RuleSet) ISRJoinNeedsLESO() bool { return r >= V2_1 }

// SynchronousISRWrite reports whether the leader wrote ISR changes to
// ZooKeeper itself, synchronously, under the partition lock (before 2.7):
// whoever drives the [Node] should then answer its AlterPartition at once,
// before anything else reaches the node. From 2.7 (KIP-497, AlterPartition)
// the answer comes whenever the controller sends it.
func (r RuleSet) SynchronousISRWrite() bool { return r < V3_7 }

// StrictMinISR reports whether the HW is frozen while the committed ISR is
// smaller than min.insync.replicas (3.7+, KAFKA-15583).
func (r RuleSet) StrictMinISR() bool { return r >= V3_7 }

// TruncatesOnFetch reports whether the follower learns its truncation point
// from DivergingEpoch in fetch answers instead of OffsetsForLeaderEpoch (2.8+).
func (r RuleSet) TruncatesOnFetch() bool { return r >= V3_7 }

// InitialFetchOffsetIsLEO reports whether a new follower whose log has
// epochs starts fetching at its LEO, so that an undefined truncation answer
// keeps its log (2.8+, ReplicaManager.initialFetchOffset). Before 2.8
// ReplicaManager.makeFollowers started it at its HW, and an undefined
// answer cut the log there.
func (r RuleSet) InitialFetchOffsetIsLEO() bool { return r >= V3_7 }

// CaughtUpAtLeaderLEO reports whether a follower whose LEO equals the
// leader's is never out of sync, however long ago it last caught up (2.1+,
// KAFKA-7152, Partition.getOutOfSyncReplicas). In 2.0 the time test alone
// decides.
func (r RuleSet) CaughtUpAtLeaderLEO() bool { return r >= V2_1 }

// EffectiveMinISRCapped reports whether min.insync.replicas counts as at
// most the replication factor (3.7+, Partition.effectiveMinIsr). Before
// 3.7 the setting applies as written: a value above the replication factor
// refuses every acks=all produce with NOT_ENOUGH_REPLICAS.
func (r RuleSet) EffectiveMinISRCapped() bool { return r >= V3_7 }

// EligibleLeaderReplicas reports whether the controller keeps each
// partition's Eligible Leader Replicas and last known leader, lets the ISR
// become empty, elects from the ELR and then the last known leader before
// any unclean election, and takes a broker that restarted after an unclean
// shutdown (detected by the broker epoch in its clean shutdown marker) out
// of every ISR and ELR (KIP-966: Kafka 4.0 behind
// eligible.leader.replicas.version, on by default for new clusters from
// 4.1). Before, an ISR never empties: its last member stays, and only ISR
// members are elected in a clean election.
func (r RuleSet) EligibleLeaderReplicas() bool { return r >= V4 }

// DefaultReplicaLagTimeMaxMs is the replica.lag.time.max.ms default of the
// rule set's Kafka version: 10000 before 2.5, 30000 from 2.5 (KIP-537). It
// is what [NewNode] fills in for a zero [Config.ReplicaLagTimeMaxMs].
func (r RuleSet) DefaultReplicaLagTimeMaxMs() int64 {
	if r >= V3_7 {
		return DefaultReplicaLagTimeMaxMs
	}
	return DefaultReplicaLagTimeMaxMsBefore25
}

// FetchSessions: from Kafka 1.1 (KIP-227) a follower's broker fetches from
// a leader's broker in an incremental fetch session, which leaves out of
// each request the partitions whose fetch offset did not change and out of
// each answer the partitions with nothing new (FetchSession.scala's
// IncrementalFetchContext, FetchSessionHandler.java). 0.10 and 0.11 send
// every partition in every fetch. See [Config.FullFetches].
func (r RuleSet) FetchSessions() bool { return r >= V2_0 }

// FollowsLeaderLogStart reports whether a follower moves its log start
// offset forward to its leader's after each fetch (KIP-107, Kafka 0.11:
// fetch answers carry the leader's log start, and
// ReplicaFetcherThread.processPartitionData applies it); a 0.10 follower
// moves its start only at its own retention pass. See [LogStartRaiser].
func (r RuleSet) FollowsLeaderLogStart() bool { return r >= V0_11 }

// DefaultMessageTimestampAfterMaxMs is the
// log.message.timestamp.after.max.ms default of the rule set's Kafka
// version: how far after the leader's clock a record's CreateTime may lie
// before the leader refuses its batch with INVALID_TIMESTAMP. One hour from
// Kafka 4.0 (KIP-1030); math.MaxInt64, no bound, before (3.6 brought the
// config, KIP-937).
func (r RuleSet) DefaultMessageTimestampAfterMaxMs() int64 {
	if r >= V4 {
		return 60 * 60 * 1000
	}
	return math.MaxInt64
}

// endOffsetBefore21 reports whether OffsetsForLeaderEpoch answers "undefined"
// for an epoch older than every cached one (before 2.1,
// LeaderEpochFileCache.endOffsetFor).
func (r RuleSet) endOffsetBefore21() bool { return r < V2_1 }
