package replica

import "fmt"

// Defaults applied by [NewNode] to zero [Config] fields, with Kafka's values.
const (
	DefaultMinInsyncReplicas           = 1       // min.insync.replicas
	DefaultReplicaLagTimeMaxMs         = 30000   // replica.lag.time.max.ms from 2.5 (KIP-537); see RuleSet.DefaultReplicaLagTimeMaxMs
	DefaultReplicaLagTimeMaxMsBefore25 = 10000   // replica.lag.time.max.ms before 2.5
	DefaultReplicaFetchWaitMaxMs       = 500     // replica.fetch.wait.max.ms
	DefaultReplicaFetchMaxBytes        = 1048576 // replica.fetch.max.bytes
	DefaultReplicaFetchBackoffMs       = 1000    // replica.fetch.backoff.ms
	DefaultReplicaSocketTimeoutMs      = 30000   // replica.socket.timeout.ms
	DefaultProduceRequestTimeoutMs     = 30000   // producer request.timeout.ms, carried in Produce
)

// Config is the static configuration of one partition replica. Field names
// follow Kafka's configuration keys; a zero value means Kafka's default.
type Config struct {
	// ID is this replica's broker id (broker.id / node.id).
	ID int32
	// Rules selects the Kafka version whose replication rules apply.
	Rules RuleSet
	// MinInsyncReplicas is min.insync.replicas (default 1). Under the
	// V3_7+ rules the effective value is min(MinInsyncReplicas, replication
	// factor) (3.7, Partition.effectiveMinIsr); before 3.7 it applies as set.
	MinInsyncReplicas int
	// ReplicaLagTimeMaxMs is replica.lag.time.max.ms (default
	// [RuleSet.DefaultReplicaLagTimeMaxMs]: 10000 before 2.5, 30000 from
	// 2.5): a follower that has not reached the leader's log end for this
	// long leaves the ISR (Partition.maybeShrinkIsr). The leader checks
	// every ReplicaLagTimeMaxMs/2 (ReplicaManager.startup's isr-expiration
	// task).
	ReplicaLagTimeMaxMs int64
	// ReplicaFetchWaitMaxMs is replica.fetch.wait.max.ms (default 500): how
	// long the leader parks a follower fetch that found nothing.
	ReplicaFetchWaitMaxMs int64
	// ReplicaFetchMaxBytes is replica.fetch.max.bytes (default 1 MiB), passed
	// to [Log.Read].
	ReplicaFetchMaxBytes int
	// ReplicaFetchBackoffMs is replica.fetch.backoff.ms (default 1000): the
	// pause after a fetch or OffsetsForLeaderEpoch answer with an error.
	ReplicaFetchBackoffMs int64
	// FullFetches turns the leader's incremental fetch sessions off, as
	// max.incremental.fetch.session.cache.slots=0 does: every follower
	// fetch that found nothing is answered, empty, when its
	// ReplicaFetchWaitMaxMs is over, and the follower asks again (the only
	// way under the rules without [RuleSet.FetchSessions]). See
	// [MsgFetchHeld] for what a session changes.
	FullFetches bool
	// ReplicaSocketTimeoutMs is replica.socket.timeout.ms (default 30000): a
	// follower request without an answer for this long is sent again.
	ReplicaSocketTimeoutMs int64
	// InitialHighWatermark is the HW read from replication-offset-checkpoint
	// when the replica is (re)opened. [NewNode] clamps it to the log, as
	// UnifiedLog.updateHighWatermark bounds a checkpointed high watermark.
	InitialHighWatermark int64
	// NowMs is the virtual time at which the node is created.
	NowMs int64
	// TruncationPoint, when set, replaces [TruncationPoint] in the follower's
	// truncation rounds under the [V3_7] and [V4] rules (2.8+), the rules of the
	// learning kit's exercise ch05/truncation, which plugs a learner's rule in
	// with it (exercises/live). It gets the follower's epoch cache, log end
	// offset, high watermark and the leader's answer. ok = false declines the
	// call (a panic or a timeout its caller caught), and so does a point
	// below 0 or past the log end offset: the reference answers instead. The
	// [EventTruncated] of a cut it chose has ByPart set. nil: the reference.
	TruncationPoint func(own []EpochEntry, leo, hw int64, answer EpochEndOffset) (offset int64, done bool, ok bool)
	// Truncate, when set, runs a follower's whole truncation under the
	// [V2_1] rules (KIP-279's OffsetsForLeaderEpoch rounds, as 2.1 to 2.6
	// run them), in place of the rounds of [TruncationPoint]: the learning
	// kit's exercise ch05/truncation plugs a learner's loop in with it. It
	// gets the follower's log as the truncation starts and ask, which
	// returns the leader's OffsetsForLeaderEpoch answer for an epoch; it
	// returns the follower's log as the truncation leaves it, which the node
	// applies as returned: the log cut at its LogEndOffset, the epoch cache
	// as its Epochs (entries the cut would have dropped put back), the HW as
	// its HighWatermark. See [FollowerState] for what is refused.
	//
	// Each question is a real round trip: the node answers ask with the
	// answers its requests got, in order, and calls Truncate again from the
	// start with each new answer. A question it has no answer for yet gets
	// the answer that cuts nothing (the epoch asked about, ending at the log
	// end the truncation started from), so that the call returns what the
	// answered rounds left: the node applies it, as Kafka cuts after each
	// answer, and sends that question. A truncation whose first answer is
	// undefined goes to [TruncationPoint] instead: Kafka 2.1 to 2.7 cut it
	// at the fetch offset, the HW (ReplicaManager.makeFollowers, 2.4.0),
	// where the exercise's 2.8+ rule keeps the log; in a later round the fetch offset
	// is where the last round cut, the LEO, and the two rules agree. ok =
	// false declines the call, and so does a truncation that asks more
	// questions than the follower has epochs plus one (each round that is not
	// done drops at least one epoch): the rounds of [TruncationPoint] go on
	// from the log as it is. The [EventTruncated] of a cut it chose has
	// ByPart set. nil: the reference.
	Truncate func(f FollowerState, ask func(epoch int32) EpochEndOffset) (FollowerState, bool)
}

// FollowerState is a follower's log as its truncation sees it
// ([Config.Truncate]): what it starts from and what it leaves. The node
// refuses (and the reference truncates instead) a state whose LogEndOffset
// is not within [log start, LEO], whose HighWatermark is below the log start
// or above the HW it had (a truncation never raises it), or whose Epochs are
// not a prefix of the cache it started with (a truncation only drops epochs
// from the end). Entries starting at or past the new LogEndOffset and an HW
// above it are applied: Kafka's log would never hold them (Log.truncateTo
// trims the cache, and from 2.4 Log.updateLogEndOffset lowers the HW), and
// the world's checker and the next answers show what they do.
type FollowerState struct {
	// Epochs is the leader epoch cache (leader-epoch-checkpoint), oldest first.
	Epochs []EpochEntry
	// LogEndOffset is the offset the next record would get.
	LogEndOffset int64
	// HighWatermark is the last high watermark the follower learnt.
	HighWatermark int64
}

// withDefaults returns c with Kafka's defaults filled in and checks ranges.
func (c Config) withDefaults() (Config, error) {
	if !c.Rules.Valid() {
		return c, fmt.Errorf("%w: Rules %d", ErrInvalidConfig, int(c.Rules))
	}
	fill64 := func(v *int64, d int64) {
		if *v == 0 {
			*v = d
		}
	}
	if c.MinInsyncReplicas == 0 {
		c.MinInsyncReplicas = DefaultMinInsyncReplicas
	}
	if c.ReplicaFetchMaxBytes == 0 {
		c.ReplicaFetchMaxBytes = DefaultReplicaFetchMaxBytes
	}
	fill64(&c.ReplicaLagTimeMaxMs, c.Rules.DefaultReplicaLagTimeMaxMs())
	fill64(&c.ReplicaFetchWaitMaxMs, DefaultReplicaFetchWaitMaxMs)
	fill64(&c.ReplicaFetchBackoffMs, DefaultReplicaFetchBackoffMs)
	fill64(&c.ReplicaSocketTimeoutMs, DefaultReplicaSocketTimeoutMs)
	switch {
	case c.MinInsyncReplicas < 1:
		return c, fmt.Errorf("%w: MinInsyncReplicas %d < 1", ErrInvalidConfig, c.MinInsyncReplicas)
	case c.ReplicaFetchMaxBytes < 1:
		return c, fmt.Errorf("%w: ReplicaFetchMaxBytes %d < 1", ErrInvalidConfig, c.ReplicaFetchMaxBytes)
	case c.ReplicaLagTimeMaxMs < 0, c.ReplicaFetchWaitMaxMs < 0, c.ReplicaFetchBackoffMs < 0, c.ReplicaSocketTimeoutMs < 0:
		return c, fmt.Errorf("%w: negative duration", ErrInvalidConfig)
	case c.InitialHighWatermark < 0:
		return c, fmt.Errorf("%w: InitialHighWatermark %d < 0", ErrInvalidConfig, c.InitialHighWatermark)
	}
	return c, nil
}
