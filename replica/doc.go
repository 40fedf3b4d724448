// Package replica is one partition replica of Kafka's replication protocol
// as a deterministic state machine: leader and follower roles, the fetch
// protocol and its timing, the high watermark (HW), the in-sync replica set
// (ISR), acks 0, 1 and all with min.insync.replicas, the leader epoch cache
// and the truncation rules of each Kafka version.
//
// It follows etcd-io/raft's RawNode: a [Node] starts no goroutines, reads no
// clock and does no I/O except through the small record-level [Log]
// interface. The caller drives it:
//
//  1. Feed it messages with [Node.Step] (Produce, Fetch,
//     OffsetsForLeaderEpoch, their answers, AlterPartition answers) and the
//     controller's decisions with [Node.BecomeLeader] and
//     [Node.BecomeFollower].
//  2. Move its clock with [Node.Tick] (virtual milliseconds).
//  3. Take [Node.Ready]: messages to deliver (or drop), produce answers, ISR
//     proposals for the controller, events; act on them; call
//     [Node.Advance].
//  4. On a crash, throw the Node away, cut the Log to what survived, and
//     build a new Node with [NewNode] and the HW checkpoint.
//
// # Rule sets
//
// Where Kafka changed the rules, [Config.Rules] picks the version:
//
//	rule set  truncation as a new follower            fencing  ISR write                HW below min ISR
//	V0_10     to its own HW (R7.5)                    no       ZooKeeper, synchronous   advances
//	V0_11     to OffsetsForLeaderEpoch's end (R7.6)   no       ZooKeeper, synchronous   advances
//	V2_0      KIP-279 rounds (R7.7)                   no       ZooKeeper, synchronous   advances
//	V2_1      KIP-279 rounds, LESO for joining ISR    yes      ZooKeeper, synchronous   advances
//	Modern    DivergingEpoch in fetch (2.8+)          yes      AlterPartition (2.7+)    frozen (3.7+)
//
// The follower's truncation rule of every version is also available on its
// own, as the pure function [TruncationPoint]; the leader's side of it is
// [EpochCache.EndOffsetFor].
//
// # Timing
//
// A follower sends one Fetch at a time. The leader answers at once when it
// has records, carrying the HW from before the fetch (KAFKA-7104); otherwise
// it parks the fetch until an append or replica.fetch.wait.max.ms, and the
// answer carries the HW of that moment. So a follower learns of a new HW one
// fetch round after the leader (R3.4), which is what KIP-101's first scenario
// exploits.
//
// # ISR changes
//
// The leader shrinks the ISR on [Node.Tick] (R4.1) and grows it on follower
// fetches (R4.3), and proposes each change in [Ready.AlterPartitions]. The
// change is in flight until a MsgAlterPartitionResponse commits or refuses
// it; meanwhile the leader counts the maximal ISR (KIP-497). Before 2.7 the
// leader wrote ZooKeeper itself, synchronously: a caller that answers at
// once under those rule sets ([RuleSet.SynchronousISRWrite]) gets Kafka's
// behaviour of the time. Controller-side changes arrive as a [LeaderAndISR]
// with a newer partition epoch (and, before KRaft 3.6, a newer leader epoch).
//
// Other version differences: before 2.1 (KAFKA-7164) a follower restarts
// its truncation only when the leader's identity changes, not on every new
// leader epoch; from 2.1 a new leader caches its epoch at once (KAFKA-7415),
// before that at its first append in the epoch.
//
// # Idempotent producers
//
// A produce whose records carry a [ProducerSequence] is checked as KIP-98's
// leader does: a retry of records the leader holds is answered with their
// original offsets and not written again; a batch that skips sequences is
// refused with OUT_OF_ORDER_SEQUENCE_NUMBER; an older producer epoch with
// INVALID_PRODUCER_EPOCH. A new leader learns the sequences from its log.
//
// # What is not modelled
//
// Fetch sessions, byte-level batches (the Log decides), the follower's log
// start offset following the leader's, transactions, ELR (KIP-966), leader
// recovery state (KIP-704), and R5.1(b) (non-ISR followers holding back the
// HW). The rule names R0-R8 refer to replication-rules.md in the project's
// shared reference.
package replica
