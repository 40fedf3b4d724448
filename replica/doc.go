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
//  2. Move its clock with [Node.Tick] (virtual milliseconds). A host of
//     many replicas may tick each only at its [Node.NextTickMs], moving
//     its clock with [Node.SetNow] before it hands it anything else.
//  3. Take [Node.Ready]: messages to deliver (or drop), produce answers, ISR
//     proposals for the controller, events; act on them; call
//     [Node.Advance].
//  4. On a crash, throw the Node away, cut the Log to what survived, and
//     build a new Node with [NewNode] and the HW checkpoint.
//
// # Rule sets
//
// Where Kafka changed the rules, [Config.Rules] picks the version: V0_10
// (0.10), V0_11 (0.11 to 1.1, KIP-101), V2_0 (2.0, KIP-279), V2_1 (2.1 to
// 2.6), V3_7 (3.7 with KRaft) and V4 (4.1, the rule set called [Modern]).
// Every rule that differs, the version it comes from and where it lives in
// Kafka's source (read at the tag named; for 4.x, the KIP and Kafka 4.1's
// documentation):
//
//	rule                                     V0_10  V0_11  V2_0  V2_1  V3_7  V4    Kafka version and source
//	records carry the leader epoch           no     yes    yes   yes   yes   yes   0.11.0, KIP-101 (RecordBatch partitionLeaderEpoch)
//	new follower truncates to its HW         yes    -      -     -     -     -     0.10.2 ReplicaManager.makeFollowers
//	  ... to OffsetsForLeaderEpoch's end     -      yes    -     -     -     -     0.11.0 ReplicaFetcherThread.maybeTruncate
//	  ... in KIP-279 rounds (epoch, end)     -      -      yes   yes   -     -     2.0.0 AbstractFetcherThread.getOffsetTruncationState
//	  ... on fetch, DivergingEpoch           -      -      -     -     yes   yes   2.8.0 AbstractFetcherThread.truncateOnFetchResponse
//	undefined answer cuts at the HW          -      yes    yes   yes   no    no    2.0.0-2.7 ReplicaManager.makeFollowers (initial fetch offset = HW);
//	                                                                                2.8.0 ReplicaManager.initialFetchOffset (= LEO, but only with
//	                                                                                inter.broker.protocol.version 2.7+, truncation on fetch; 3.7.0
//	                                                                                MetadataVersion.isTruncationOnFetchSupported: below, the HW)
//	a log without epochs truncates to HW     yes    yes    yes   yes   yes   yes   3.7.0 AbstractFetcherThread.truncateToHighWatermark
//	epoch older than all cached: undefined   -      yes    yes   no    no    no    2.0.0 / 2.1.0 LeaderEpochFileCache.endOffsetFor
//	leader caches its epoch at election      no     no     no    yes   yes   yes   2.1.0 Partition.makeLeader (KAFKA-7415); before, at first append
//	an append's older epoch cuts the cache   -      no     no    yes   yes   yes   2.1.0 LeaderEpochFileCache.assign (KAFKA-7415); before, ignored
//	leader epoch fencing on requests         no     no     no    yes   yes   yes   2.1.0 Partition.localReplicaWithEpochOrException (KIP-320)
//	same leader, newer epoch restarts fetch  no     no     no    yes   yes   yes   2.1.0 Partition.makeFollower (KAFKA-7164)
//	ISR join needs the leader epoch start    no     no     no    yes   yes   yes   2.1.0 Partition.maybeExpandIsr (KAFKA-7128)
//	LEO = leader's LEO never leaves the ISR  no     no     no    yes   yes   yes   2.1.0 Partition.getOutOfSyncReplicas (KAFKA-7152)
//	replica.lag.time.max.ms default          10 s   10 s   10 s  10 s  30 s  30 s  2.5.0 KafkaConfig (KIP-537; V2_1 covers 2.5 and 2.6 too)
//	incremental fetch sessions between peers no     no     yes   yes   yes   yes   1.1.0 FetchSession.scala, FetchSessionHandler.java (KIP-227)
//	ISR write                                ZK     ZK     ZK    ZK    AP    AP    2.7.0 AlterIsr / AlterPartition (KIP-497); before, the leader wrote ZooKeeper
//	effective min ISR = min(minISR, RF)      no     no     no    no    yes   yes   3.7.0 Partition.effectiveMinIsr
//	HW frozen below the effective min ISR    no     no     no    no    yes   yes   3.7.0 Partition.maybeIncrementLeaderHW (KAFKA-15583)
//	ISR may empty; ELR, last known leader    no     no     no    no    no    yes   4.1 (KIP-966; eligible.leader.replicas.version 1 by default)
//	message.timestamp.after.max.ms default   -      -      -     -     none  1 h   4.0 (KIP-1030; KIP-937 brought the config in 3.6)
//	producer linger.ms default (cluster's)   0      0      0     0     0     5 ms  4.0 (KIP-1030; the simulated producers' default)
//
// ZK: written to ZooKeeper synchronously by the leader ([RuleSet.SynchronousISRWrite]);
// AP: proposed to the controller and answered asynchronously. Each row is a
// method of [RuleSet] ([RuleSet.EpochsInRecords], [RuleSet.Fencing],
// [RuleSet.CachesEpochOnElection], [RuleSet.EpochCacheTruncatesOnAppend],
// [RuleSet.ISRJoinNeedsLESO],
// [RuleSet.CaughtUpAtLeaderLEO], [RuleSet.InitialFetchOffsetIsLEO],
// [RuleSet.DefaultReplicaLagTimeMaxMs], [RuleSet.EffectiveMinISRCapped],
// [RuleSet.StrictMinISR], [RuleSet.TruncatesOnFetch],
// [RuleSet.EligibleLeaderReplicas], [RuleSet.DefaultMessageTimestampAfterMaxMs],
// [RuleSet.FetchSessions])
// or a case of
// [TruncationPoint]; the producers' linger.ms is the live cluster's
// (its client package's DefaultLingerMs).
//
// Why 2.0 cuts at the HW when the leader has no answer: a 2.0 leader caches
// its epoch only at its first append in it, so until then a follower whose
// latest epoch is newer than the leader's latest cached one gets
// "undefined" for it; a follower that kept its LEO there would keep records
// the leader never had. This package's random schedules
// (TestExplorerFindsZeroTenLoss) find acknowledged writes lost if 2.0 keeps
// its LEO, and none with Kafka's rule.
//
// The follower's truncation rule of every version is also available on its
// own, as the pure function [TruncationPoint]; the leader's side of it is
// [EpochCache.EndOffsetFor].
//
// # A caller's truncation
//
// Two [Config] fields plug another implementation of the follower's side in
// (the learning kit's exercise ch05/truncation, whose rule is 2.8+'s): under
// V3_7 and V4, [Config.TruncationPoint] decides each DivergingEpoch's cut; under
// V2_1, [Config.Truncate] runs the whole truncation, every question it asks
// a real OffsetsForLeaderEpoch round trip, and the node applies the log,
// epoch cache and HW it returns. Where the version's rule is not the
// exercise's, the reference decides: V2_1 cuts an undefined first answer at
// the HW, 2.8+ keeps the log. No Kafka version runs OffsetsForLeaderEpoch
// rounds with 2.8's undefined rule: ReplicaManager.initialFetchOffset (2.8.0
// to 3.7.0) starts a follower at its LEO only when truncation on fetch is
// used, and then the rounds come as DivergingEpochs.
//
// # Timing
//
// A follower sends one Fetch at a time. The leader answers at once when it
// has records, carrying the HW from before the fetch (KAFKA-7104); otherwise
// it parks the fetch until an append or replica.fetch.wait.max.ms, and the
// answer carries the HW of that moment. So a follower learns of a new HW one
// fetch round after the leader, which is what KIP-101's first scenario
// exploits.
//
// # Fetch sessions
//
// From Kafka 1.1 ([RuleSet.FetchSessions], KIP-227) a follower's broker
// fetches every partition it follows from a leader's broker in one
// incremental fetch session: a request leaves out the partitions whose
// fetch offset did not change (FetchSessionHandler.java), an answer the
// partitions with nothing new (FetchSession.scala's
// IncrementalFetchContext), and the leader's delayed fetch wakes for new
// data (DelayedFetch, Kafka 3.7). Here each replica sends its own
// fetches, so a session is modelled per partition: a parked fetch whose
// wait ends with nothing for a follower that already holds the leader's HW
// and is in the ISR is held ([MsgFetchHeld]) instead of answered empty; the
// follower sends nothing more, and counts as fetching at the log end all
// along (its catch-up time is the session's last fetch, every
// replica.fetch.wait.max.ms). An append answers the held fetch at once, a
// new HW or ISR at the end of its wait period; a follower that restarts,
// follows a new leader or ends its session ([Node.EndFetchSessions]: a lost
// connection, a session the leader evicted) opens a new one with a full
// fetch (Message.Incremental false). The follower's log, HW and ISR come
// out as with full fetches ([Config.FullFetches]); an idle partition costs
// its brokers nothing per fetch.
//
// # ISR changes
//
// The leader shrinks the ISR on [Node.Tick] (Partition.maybeShrinkIsr, every
// replica.lag.time.max.ms / 2) and grows it on follower fetches
// (Partition.maybeExpandIsr), and proposes each change in
// [Ready.AlterPartitions]. The change is in flight until a
// MsgAlterPartitionResponse commits or refuses it; meanwhile the leader
// counts the maximal ISR (KIP-497). Before 2.7 the leader wrote ZooKeeper
// itself, synchronously: a caller that answers at once under those rule
// sets ([RuleSet.SynchronousISRWrite]) gets Kafka's behaviour of the time.
// Controller-side changes arrive as a [LeaderAndISR] with a newer partition
// epoch (and, before KRaft 3.6, a newer leader epoch).
//
// # Idempotent producers
//
// A produce whose records carry a [ProducerSequence] is checked as Kafka's
// leader checks it (UnifiedLog.append with ProducerStateEntry and
// ProducerAppendInfo; the same at 3.7.0 and in 4.x, under every rule set
// here). The leader keeps, per producer, its latest epoch and that epoch's
// last [BatchesRetained] (five) batches: their first and last sequence and
// first offset (ProducerStateEntry.NUM_BATCHES_TO_RETAIN, Kafka 1.0,
// KAFKA-5494; 0.11 kept the last batch alone):
//   - a batch of the current epoch whose sequences are exactly those of one
//     of the five is a retry: it is answered with that batch's base offset,
//     NONE, and not written again (since 1.0, Log.analyzeAndValidateProducerState;
//     0.11 answered DUPLICATE_SEQUENCE_NUMBER, which its client took as a
//     success);
//   - an older epoch is INVALID_PRODUCER_EPOCH (KIP-588, 2.7);
//   - a newer epoch must start at sequence 0, and a batch of the current
//     epoch must continue its last sequence (0 after the largest int32);
//     anything else is OUT_OF_ORDER_SEQUENCE_NUMBER: a gap, a retry of a
//     batch older than the five kept, a retry of part of a batch;
//   - a producer the leader does not know starts at any sequence (KIP-360).
//
// This is why Kafka's idempotent producer keeps at most five requests in
// flight per connection (max.in.flight.requests.per.connection): a retry
// must reach the leader while its batch is still one of the five. A new
// leader reads the producers' last batches back from its log, batch
// boundaries included (Entry.BatchStart, or a batch's bytes in
// Entry.Batch), as a Kafka follower keeps them while it replicates.

// # Clones
//
// [Node.Clone] copies a node over its owner's copy of its Log (a simulation's
// snapshot, a fork of its timeline); [MemLog.Clone] copies the in-memory log.
// A clone copies what a node holds per follower, parked request and producer,
// and shares the rest: the contents of the messages and events it has not
// handed out (never changed once emitted) and the Config's functions; a
// producer's state is a value of fixed size (its epoch and last five
// batches), copied. A MemLog clone shares its records, which
// neither side writes in place below what they share.
//
// # What is not modelled
//
// Fetch sessions, byte-level batches (the Log decides), the follower's log
// start offset following the leader's, transactions, ELR (KIP-966: the live
// cluster's controller keeps it, under [RuleSet.EligibleLeaderReplicas]), leader
// recovery state (KIP-704), and 3.x's caught-up followers outside the ISR
// holding back the HW (Partition.maybeIncrementLeaderHW's
// shouldWaitForReplicaToJoinIsr).
package replica
