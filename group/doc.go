// Package group is Kafka's consumer-group protocols as pure state machines:
// the classic one (JoinGroup and SyncGroup, the client-side assignors), and
// the consumer group protocol of KIP-848 (ConsumerGroupHeartbeat, the
// server-side assignors), generally available in Kafka 4.0.
//
// # Pieces
//
//   - [Coordinator] is the broker side (GroupCoordinator with its
//     ClassicGroups): states Empty, PreparingRebalance, CompletingRebalance,
//     Stable and Dead ([State]); JoinGroup, SyncGroup, Heartbeat, LeaveGroup,
//     OffsetCommit and OffsetFetch as [Request] values given to
//     [Coordinator.Step]; generations, member ids (Kafka's client.id-UUID
//     and group.instance.id-UUID, the UUIDs from a stream that
//     Config.MemberIDSeed seeds, or client.id-N numbered per group without
//     a seed), session.timeout.ms, the rebalance timeout,
//     group.initial.rebalance.delay.ms, static membership (KIP-345) and
//     Kafka's error codes ([ErrorCode]).
//   - [Member] is one consumer's side (ConsumerCoordinator): it joins,
//     assigns when it is the leader, heartbeats every heartbeat.interval.ms,
//     enforces max.poll.interval.ms, and knows what it owns, what it must
//     revoke and what it may fetch, under the eager protocol or the
//     cooperative one of KIP-429 ([RebalanceProtocol]).
//   - The assignors range, roundrobin, sticky and cooperative-sticky are pure
//     functions behind [Assignor].
//   - [ConsumerGroupCoordinator] is the broker side of consumer-protocol
//     groups (Kafka 4's GroupMetadataManager with its ConsumerGroups, read in
//     the trunk of late 2024 and checked against KIP-848): group, target
//     assignment and member epochs; the server-side uniform and range
//     assignors ([ServerAssignors]); subscriptions by topic names and by
//     regular expression (Kafka 4.0's SubscribedTopicRegex); reconciliation,
//     revoke first and assign once released, one member at a time with no
//     barrier (CurrentAssignmentBuilder); group.consumer.session.timeout.ms and
//     each member's rebalance timeout; commits and offset fetches checked
//     against the member epoch (STALE_MEMBER_EPOCH). [ConsumerMember] is the
//     consumer's side (the Java consumer's ConsumerMembershipManager):
//     heartbeats carrying what it owns, reconciliation inside poll, commits
//     at its epoch.
//   - Committed offsets live behind [OffsetStore]; [MemoryOffsetStore] is the
//     in-memory one, the cluster backs it with a compacted __consumer_offsets
//     log, whose records [AppendOffsetCommitKey], [AppendOffsetCommitValue]
//     and [ReadOffsetCommit] write and read in Kafka's bytes; the group's
//     partition of that topic (its coordinator) is [OffsetsPartition]. [Lag]
//     is HW − committed.
//   - A group's metadata (generation, protocol, leader, members with their
//     timeouts, subscriptions and assignments) is stored beside its offsets
//     as a [GroupRecord] in Ready.Groups, whose bytes
//     [AppendGroupMetadataKey], [AppendGroupMetadataValue],
//     [ReadGroupMetadataKey] and [ReadGroupMetadataValue] write and read
//     ([GroupMetadataValue]); a coordinator taking the groups over loads
//     them with [Coordinator.LoadGroup] (see "Coordinator failover" below).
//     [MemoryGroupStore] keeps the latest record of each group in memory.
//   - A consumer-protocol group's changes are records too
//     ([ConsumerGroupRecord] in Ready.ConsumerGroups, Kafka 4's
//     ConsumerGroup* keys and values: [AppendConsumerGroupRecordKey],
//     [AppendConsumerGroupRecordValue], [ReadConsumerGroupRecord]); a
//     coordinator taking the groups over replays them with
//     [ConsumerGroupCoordinator.LoadGroups] (see "Consumer group failover").
//
// Nothing here starts a goroutine, reads a clock or draws from a random
// source: time comes in as nowMs arguments, and every output is sorted or in
// an order Kafka's own hash maps give (the members of a JoinGroup answer, and
// the order a leader's assignor meets them in: the iteration orders of Kafka
// 3.7's Scala GroupMetadata.members and of the Java consumer's HashMap in
// ConsumerCoordinator.onLeaderElected, computed from Java's String.hashCode),
// so the same inputs give the same outputs (a test reads the package's
// imports to keep it so). An assignor that sorts what it meets, as Kafka's
// and this package's do, gives every leader the same answer.
//
// # Eager and cooperative, in one picture
//
// A member joins a group whose two members own p0–p5:
//
//	eager (sticky)                       cooperative (cooperative-sticky)
//	E1,E2 revoke everything, rejoin      K1,K2 rejoin listing what they own
//	gen 2: E1 [0 2] E2 [1 3] E3 [4 5]    gen 2: K1 [0 2] K2 [1 3] K3 [] (4,5 withheld)
//	nobody read p0–p5 in between         K1,K2 revoke p4,p5 and rejoin
//	                                     gen 3: K3 [4 5]; p0–p3 never stopped
//
// The consumer group protocol (KIP-848) has no rounds: N3's heartbeat bumps
// the group epoch and the coordinator computes the target at once; N1 and
// N2 each give one partition up at their own next heartbeat, N3 takes it at
// its next one, and nobody else stops.
//
// # What the caller of a Coordinator must do
//
//  1. Create it with [NewCoordinator], giving it an [OffsetStore] and the
//     current time.
//  2. Whenever simulated time moves, call [Coordinator.Tick] with the new
//     time before delivering requests stamped with it. Tick expires
//     sessions, ends join phases and drops members that never synced.
//  3. Deliver each request with [Coordinator.Step], naming the address the
//     answer must go to. Requests from one consumer must arrive in the order
//     it sent them (one FIFO link per consumer), as over Kafka's TCP
//     connection.
//  4. After Step or Tick, if [Coordinator.HasReady], take [Coordinator.Ready]:
//     first write every record of Ready.Commits to the offset store (append
//     it to __consumer_offsets and wait until it is durable), then deliver
//     Ready.Responses in order. An OffsetCommit answer promises the offsets
//     are stored. Append each record of Ready.Groups to the group's
//     partition (a batch of its own, acks=all) and, when the append ends,
//     call [Coordinator.GroupStored] with its StoreID and None or the
//     error to answer: a leader's SyncGroup is answered only then, so take
//     Ready again afterwards.
//  5. Read state for display with [Coordinator.Group] and
//     [Coordinator.Groups]; delete an Empty group with
//     [Coordinator.DeleteGroup].
//  6. When the caller starts leading a group's __consumer_offsets
//     partition, give each group's latest record there to
//     [Coordinator.LoadGroup]; when it stops, [Coordinator.UnloadGroup]
//     each of its groups and answer what it holds for them
//     NOT_COORDINATOR.
//
// # Coordinator failover
//
// Kafka 3.7's coordinator writes a group's metadata to __consumer_offsets
// (GroupMetadataManager.storeGroup) when the leader's SyncGroup brings the
// assignment (GroupCoordinator.doSyncGroup: the group goes Stable only once
// the append succeeds; a failed append answers every waiting SyncGroup
// with the error storeGroup maps it to and rebalances), when a join phase
// leaves the group empty (onCompleteJoin; nothing waits), and when a
// static member rejoins a Stable group under a new member id
// (updateStaticMemberAndRebalance: answered once stored, undone if the
// append fails); a deleted group gets a tombstone
// (cleanupGroupMetadata). An append's end acts only on the group that
// made the record, still at that generation: Kafka's callback holds the
// GroupMetadata object, so a group deleted or expired meanwhile and made
// again under its id, even at the same generation, is left to its own
// record. The value is GroupMetadataValue version 3, the
// highest non-flexible one, which 3.7 writes; versions 0 to 4 are read.
// A coordinator elected for the partition (onElection) reads it to its end
// at once (not at a group's first request, which would start the loaded
// sessions later and hide the group until then) and loads the latest
// record of each group (loadGroupsAndOffsets,
// GroupMetadata.loadGroup): a group with members is Stable, one without is
// Empty, at the stored generation, with the stored leader, protocol and
// members, each member supporting only the stored assignor; each member's
// session starts at the load (onGroupLoaded schedules its heartbeat
// expiration). So members that heartbeat the new coordinator with their
// member id and generation carry on without a rebalance, and those gone
// expire a session later. What was never stored is lost: a rebalance under
// way at the failover (the loaded group is at the last stored generation,
// and its members' answers at a newer one are ILLEGAL_GENERATION), member
// ids handed out but not yet joined. Numbered member ids (client.id-N,
// without a seed) are counted per group; a loaded group counts on from the
// highest N among its members (Kafka's ids, and seeded ones here, are
// random UUIDs and never meet this question).
//
// # Consumer group failover
//
// Kafka 4's coordinator keeps a consumer-protocol group (KIP-848) as
// records in __consumer_offsets, written with every change
// (GroupMetadataManager, read in the trunk of late 2024): the member's
// metadata (subscription, client, rebalance timeout, assignor), the
// subscription metadata (the subscribed topics that exist, with their ids
// and partition counts), the group epoch, each member's target assignment
// and the target assignment epoch (the delta only), and each member's
// current assignment (epoch, previous epoch, state, partitions owned and
// pending revocation). A member that leaves or is fenced gets three
// tombstones; a deleted group, or an empty one the classic protocol takes
// over, createGroupTombstoneRecords' six kinds. The records of one
// operation are appended in one batch with the commits of the same answer,
// and the answer waits until the in-sync replicas have them (Kafka answers
// once they are committed). Topics are named by id in the records.
//
// A coordinator elected for the partition replays every record in log
// order and installs the groups (replay, onLoaded): members keep their
// ids, epochs and partitions and heartbeat on at their epochs, with no
// rebalance and no partition owned twice; each member's session, and the
// rebalance timeout of a member still revoking, start at the load. A
// write that fails answers the heartbeat COORDINATOR_NOT_AVAILABLE,
// NOT_COORDINATOR or UNKNOWN_SERVER_ERROR as Kafka's
// CoordinatorOperationExceptionHelper maps it, but the state it answered
// from is kept, where Kafka reverts to the last committed offset (a member
// that retries at its previous epoch is accepted). A heartbeat that
// changes nothing is answered at once (Kafka waits for the writes before
// it to be committed). Kafka 4.1's KIP-1101 stores a hash of the
// subscribed topics in place of the subscription metadata record: this
// package writes 4.0's records.
//
// # What the caller of a Member must do
//
//  1. Create it with [NewMember] and tell it the partition counts of its
//     topics with [Member.SetMetadata] (again whenever they change).
//  2. Call [Member.Poll] each time the application calls poll(): that is
//     where rejoining happens, so a member that stops polling stops
//     rebalancing. Call [Member.Tick] as time passes: it sends heartbeats
//     and enforces max.poll.interval.ms, like the Java heartbeat thread.
//  3. Deliver every coordinator answer with [Member.Step].
//  4. After each call, if [Member.HasReady], take [Member.Ready] and act on it
//     in this order: send Requests to the coordinator in order; for Lost,
//     stop fetching at once (no commit is possible); for Revoke, stop
//     fetching, commit the positions you want kept, then call
//     [Member.Revoked] with them (the member sends the commit, and rejoins
//     or leaves once it is answered or after request.timeout.ms); for
//     Assigned, look up committed offsets ([Member.FetchCommitted] or the
//     store; none means auto.offset.reset) and start fetching (the answer
//     comes back in Ready.Fetched).
//  5. Fetch only from [Member.Fetchable]. An eager member owns nothing from
//     the moment it starts rejoining until its SyncGroup answer; a
//     cooperative member keeps fetching what it keeps.
//  6. Commit with [Member.Commit] (auto-commit every auto.commit.interval.ms
//     or after processing); a member outside a generation reports
//     [ErrCommitFailed] in Ready.Errors.
//  7. For a clean shutdown call [Member.Close] and handle its Revoke as in
//     step 4; a dynamic member then sends LeaveGroup. For a crash just stop
//     calling it: the coordinator notices when the session expires.
//
// # Versions
//
// The coordinator follows Kafka 3.x's classic protocol (GroupCoordinator,
// read at 3.7.0), and the assignors follow Kafka 3.7.0's clients. Rule by
// rule, with the version it comes from:
//
//	rule                                                         Kafka version  source
//	MEMBER_ID_REQUIRED on a dynamic member's first join          2.2 (KIP-394)  GroupCoordinator.doNewMemberJoinGroup
//	member id client.id-UUID (group.instance.id-UUID if static)  0.9 (2.3)      GroupMetadata.generateMemberId (4.x: ClassicGroup)
//	consumer-protocol member id made by the client (a Uuid)      4.0 (KIP-1082) ConsumerGroupHeartbeat v1, AsyncKafkaConsumer
//	static membership, FENCED_INSTANCE_ID                        2.3 (KIP-345)  GroupCoordinator.doStaticNewMemberJoinGroup
//	cooperative rebalancing, cooperative-sticky                  2.4 (KIP-429)  CooperativeStickyAssignor, ConsumerCoordinator
//	SyncGroup's protocol type and name checked                   2.5 (KIP-559)  GroupCoordinator.validateSyncGroup
//	session.timeout.ms default 45000 (10000 before)              3.0 (KIP-735)  ConsumerConfig
//	static leader skips the assignment                           3.2 (KIP-814)  JoinGroupResponse skipAssignment
//	Dead group: COORDINATOR_NOT_AVAILABLE to Join, Sync,         3.x            GroupCoordinator.handleJoinGroup, validateSyncGroup,
//	  Heartbeat, Leave, OffsetCommit (2.0: UNKNOWN_MEMBER_ID)                   validateHeartbeat, handleLeaveGroup, validateOffsetCommit
//	Dead group: OffsetFetch finds no offsets                     3.7            GroupMetadataManager.getOffsets
//	heartbeat in CompletingRebalance answers NONE                2.x            GroupCoordinator.handleHeartbeat
//	pending-sync timeout                                         KAFKA-12890    GroupCoordinator.onExpirePendingSync
//	a join phase nobody rejoined waits for sessions              KAFKA-8220     GroupCoordinator.tryCompleteJoin
//	a new member's parked join dropped after 5 minutes           KAFKA-7610     GroupCoordinator.addPendingMemberExpiration
//	group metadata stored (sync, empty, static), loaded on       3.7            GroupMetadataManager.storeGroup, loadGroupsAndOffsets,
//	  election; GroupMetadataValue v3 written                                   GroupCoordinator.onElection, onGroupLoaded
//	consumer group records written with every change, replayed   4.0 (KIP-848)  GroupMetadataManager.consumerGroupHeartbeat, replay,
//	  on election; member sessions restart at the load                          onLoaded; ConsumerGroup.createGroupTombstoneRecords
//	range, round-robin                                           3.7            RangeAssignor, RoundRobinAssignor
//	sticky: balance first, then keep owned partitions            0.11 (KIP-54)  StickyAssignor
//	sticky, identical subscriptions: the quota algorithm         2.6            AbstractStickyAssignor.constrainedAssign
//	                                                                            (3.7: ConstrainedAssignmentBuilder)
//	sticky: a member keeps a prefix of its previous list         3.7            ConstrainedAssignmentBuilder.assignOwnedPartitions
//	  (Kafka's order: kept, then dealt), not its lowest ones
//	claims: highest generation wins, a tie owns nothing          2.3 (KIP-341)  AbstractStickyAssignor.allSubscriptionsEqual
//	cooperative-sticky withholds only partitions changing owner  3.7            CooperativeStickyAssignor.adjustAssignment,
//	  (a stale older-generation claim holds nothing back)                       partitionsTransferringOwnership
//	sticky with different subscriptions: simplified              -              see [StickyGeneralCase], [StickyGeneralCaseNote]
//
// Simplifications: where Kafka iterates a HashMap (the members in
// assignOwnedPartitions, a cooperative member's owned partitions, topic
// groups in the sticky user data), the project uses a sorted order, and a
// new leader is the lowest member id (Kafka 3.7 takes the first in its map's
// order: GroupMetadata.remove, maybeElectNewJoinedLeader); a
// subscription is compared on the topics that exist, where Kafka compares
// the topic names as subscribed; the sticky general case
// ([StickyGeneralCase]) is the project's own balancing, not
// GeneralAssignmentBuilder's.
//
// Clones. [Coordinator.Clone] copies a coordinator over its owner's copy of
// the offsets it reads ([OffsetReader]), [Member.Clone] a consumer (with its owner's copies of its
// assignors where they reach their owner's state), [MemoryOffsetStore.Clone]
// the in-memory store: a simulation's snapshot, a fork of its timeline. A
// clone copies each group and member and shares what is replaced but never
// changed in place (a member's protocols and assignment, a consumer's
// subscribed topics) and the contents of the answers and requests not yet
// taken. The assignors keep no state: pure functions, shared as they are.
//
// Offset expiry. [Coordinator.ExpireOffsets] is Kafka 3.7's
// cleanupGroupMetadata under KIP-211's rule (offsets.retention.minutes,
// 7 days): an Empty group's offsets expire together, that long after it
// became Empty; a simple consumer's (a group that only commits) one by one,
// that long after their latest commit; a Stable consumer group's only for
// topics no member subscribes to. The caller runs it every
// offsets.retention.check.interval.ms and writes the tombstones.
//
// Not modelled: rack-aware assignment, the loading phase of a failover
// (COORDINATOR_LOAD_IN_PROGRESS: the load here is instant), the revert of
// a consumer group's state when its records' append fails, and KIP-848's
// mixed groups (classic members in a consumer group, online migration
// between the protocols).
package group
