// Package cluster is a deterministic simulated Kafka cluster built from the
// project's own parts: brokers that each keep their partition logs
// ([kafkalog.Log], byte-exact record batches in segment files) on their
// own in-memory file system ([vfs.MemFS], with a page cache, process
// crashes and power cuts), one [replica.Node] per partition replica, a
// KRaft-style controller (a separate node, or inside the brokers), a network of message queues, producers, simple
// consumers, consumer groups ([group.Coordinator] on the brokers,
// [group.Member] in the consumers) and a virtual clock in milliseconds.
//
// # The rooms
//
// Each part of a cluster is a machine of its own, in a package of its own
// under cluster/internal, and talks to the others only through envelopes
// (netsim.Envelope) that the World routes. The World is the composition
// root: it holds the machines, routes each envelope to the machine it is
// addressed to (the machine's Step), moves the clock and ticks every
// machine (Tick), records what they note as [Event]s, takes snapshots
// (each machine's Clone), and checks the invariants after every step. A
// machine sees the world through an Env interface of its own package (the
// clock, the network, the recorder, the few questions it may ask of the
// others), which the World implements (host.go) and which a machine's
// tests fake (each room has datadriven tests in its testdata/).
//
// Where to look:
//
//   - A produce request: cluster/internal/broker. The partition leader's
//     replica takes it (Broker.Step hands it to its replica.Node, which
//     appends to its replicalog.Log and answers once acks allow); a real
//     client's Produce is api_produce.go there. The simulated producers are
//     cluster/internal/client (Producer).
//   - A follower's fetch: cluster/internal/broker too: the follower's
//     replica.Node sends it, the leader's answers from its log
//     (replicalog.Log.ReadFetch), the follower appends what it got.
//   - A controller election: cluster/internal/controller (registrations,
//     heartbeats and fencing, elections from the ISR or unclean, the
//     leaders' AlterPartition, the quorum of combined mode). It also holds
//     the topics every other machine reads.
//   - A group join: the coordinator is in cluster/internal/broker (each
//     broker runs a group.Coordinator and appends its commits to its own
//     replicas of __consumer_offsets; a real client's JoinGroup is
//     api_joingroup.go); the member is in cluster/internal/client
//     (Consumer, around a group.Member).
//   - Below them: netsim (envelopes, node ids, the network), replicalog (a
//     replica's log and its mirror), topicconfig (the one table of topic
//     configs), metadata (topics and their ids), event (the event kinds),
//     validator (Kafka's LogValidator), seq (the sequences snapshots share
//     block by block).
//   - Beside the core: cluster/explore (the explorers), cluster/defaultworld
//     (the page's world), internal/kafkatools (Kafka's command-line tools,
//     which print what the World's state shows).
//
// # Driving a world
//
//  1. [New] builds a world from a [Config]: brokers 1..N running and
//     registered, time 0, one random generator seeded by Config.Seed.
//  2. Set it up: [World.CreateTopic], [World.AddProducer],
//     [World.AddConsumer] (a simple consumer of one partition, or with
//     [ConsumerConfig.Group] a group member), [World.AddPartitions],
//     [World.DeleteTopic] (kafka-topics --delete: directories renamed
//     -delete, groups subscribed to it rebalance).
//  3. Act on it: [World.Produce] (one record now), [World.Stop] (clean
//     shutdown: flush, checkpoints, clean shutdown marker, controlled
//     shutdown), [World.Kill] (process crash: the page cache survives),
//     [World.PowerCut] (only synced bytes survive; optionally torn writes),
//     [World.Start] (log recovery through kafkalog, registration),
//     [World.Writeback] (the OS writes every dirty page; with
//     [Config.DirtyExpireMs] it also writes back old ones on its own),
//     [World.Corrupt] (a disk damages the bytes of a file of a broker that
//     is down: a flipped byte, bytes read back as zeros), [World.Partition] and
//     [World.Heal] (cut and restore network links), [World.Poll];
//     group consumers: [World.CloseConsumer] (commit, LeaveGroup),
//     [World.CrashConsumer] (nothing), [World.RestartConsumer],
//     [World.StallConsumer] (busy, no poll()).
//  4. Let time pass: [World.Deliver] delivers messages in flight without
//     moving the clock (n at a time, or until the network is quiet, or only
//     between some nodes with [World.DeliverBetween]); [World.RunFor] moves
//     the clock tick by tick ([Config.TickMs]), each tick running every
//     broker heartbeat, controller check and producer and the replicas
//     with something due (a parked fetch's or produce's wait over, the ISR
//     shrink check, a follower's request timed out: a quiet partition
//     costs nothing), then delivering until quiet.
//  5. Look: [World.State] (as [State.Text] or [State.JSON]), [World.Events],
//     [World.Violations], [World.InFlight], [World.Segments]. Kafka's
//     command-line tools (kafka-topics, kafka-consumer-groups,
//     kafka-configs...) print what these show, in package
//     internal/kafkatools: the World never prints a tool's text.
//
// # Timestamps and transactions
//
// A produce may carry the record's timestamp as the application sets it
// ([Action.TimestampMs], ProducerRecord's: a backfill's records, days or
// weeks apart in one batch); the leader takes any, as Kafka 3.7 does by
// default (message.timestamp.before.max.ms and after.max.ms are
// Long.MAX_VALUE, KIP-937), and with a topic's bounds set refuses a
// timestamp outside them as INVALID_TIMESTAMP, a client's batch with an
// error record for each record refused (LogValidator.validateRecord, which
// also refuses a record without a key in a compacted topic, and a producer's
// batch that says LogAppendTime). In a CreateTime topic it writes the largest
// of a client batch's records' timestamps into the batch's maxTimestamp,
// and CreateTime into its attributes, whatever the client's header said
// (LogValidator's setMaxTimestamp, with a new CRC), as the time index and
// retention by time read that field. The world's clock starts at 0 ms
// (1970-01-01).
// A producer with a transactional.id ([ProducerConfig].TransactionalID)
// runs its transactions through the brokers' transaction coordinator
// (cluster/internal/txn) as Kafka's producer does: InitProducerId
// (fencing an older producer with the same id), AddPartitionsToTxn, then
// transactional batches; [ActCommitTransaction] and [ActAbortTransaction]
// send EndTxn, and the coordinator has each partition's leader append a
// COMMIT or ABORT marker, a control batch (WriteTxnMarkers). A partition
// leader verifies a transaction's first batch on it with the coordinator
// before appending it (KIP-890 part 1, on since Kafka 3.6, so under both
// rule sets; [Config].DisableTransactionPartitionVerification turns it
// off, and a stray write then leaves a hanging transaction, which
// [ActAbortHanging] aborts as kafka-transactions abort does). Under Kafka
// 4's rules the cluster runs transaction.version 2 (KIP-890 part 2, as a
// new 4.1 cluster is formatted): the producers send no AddPartitionsToTxn,
// their batches have the leader add each partition, and the coordinator
// bumps the producer epoch at every transaction's end, which fences a late
// write of a transaction that ended. Consumers read
// as read_uncommitted, the Java default, or with
// [ConsumerConfig].IsolationLevel [ReadCommitted] up to the partition's
// last stable offset, skipping aborted transactions; either passes a marker
// without handing it out. The producers' transaction.go
// (cluster/internal/client) says what is not modelled.
//
// # Consumer groups
//
// A group's coordinator is the group coordinator of the broker leading its
// partition of __consumer_offsets, abs(hash(group.id)) mod
// offsets.topic.num.partitions ([Config.OffsetsTopicNumPartitions], 50),
// found anew for each request (FindCoordinator). The topic is created,
// compacted, with the first group consumer. Each broker process runs one
// [group.Coordinator]; it stores commits by producing them (the
// [group.AppendOffsetCommitKey] / [group.AppendOffsetCommitValue] bytes)
// to the offsets partition through its own leader replica, acks=all, and
// answers only once they are acknowledged; it reads committed offsets
// back from that log below its HW, so a coordinator on another broker
// finds them after a failover. It stores each classic group's metadata
// there too ([group.GroupRecord], a GroupMetadataValue as Kafka 3.7 writes
// it), and a broker whose replica becomes the partition's leader loads the
// groups from its log: the members carry on with their member ids and
// generation, as in Kafka. Every
// offsets.retention.check.interval.ms ([Config.OffsetsRetentionCheckIntervalMs])
// each coordinator expires offsets under offsets.retention.minutes
// ([Config.OffsetsRetentionMinutes], KIP-211: an Empty group's that long
// after it became Empty, a group that only commits each that long after
// its commit) with tombstones, and forgets a group left Empty without
// offsets.
//
// A group consumer runs its [group.Member] like KafkaConsumer: the
// heartbeat thread every tick, poll() every PollIntervalMs (auto-commit
// when due, the rebalance work, then up to max.poll.records from the
// leaders below their HW). Revoked partitions are committed first
// (auto-commit and commitSync modes); newly assigned ones start at the
// committed offset or auto.offset.reset. A record the group had processed
// before counts as a duplicate for the consumer processing it again. A
// crash sends nothing: the coordinator notices at session expiry; a
// static member (group.instance.id) that returns within its session
// takes its place back without a rebalance; a consumer stalled past
// max.poll.interval.ms leaves from its heartbeat thread. Requests held
// while no coordinator is known are sent in order once one is.
//
// # Keys, partitions, retention and compaction
//
// Keyed records go to murmur2(key) mod partitions. Records without a key
// go through the keyless partitioner of the rule set's client
// ([ProducerConfig.Partitioner]): under modern rules KIP-794's built-in
// uniform sticky partitioner (Kafka 3.3+), which stays on a partition until
// batch.size bytes (16384, about 230 small records here) went to it; under
// older rules KIP-480's sticky partitioner (2.4-3.2) with a new batch after
// every record, since each record is sent as its own batch: the partition
// changes at every record. [World.AddPartitions] grows a topic: existing records stay,
// keys may map elsewhere, group members learn the new count at once and
// their leader rebalances. Every broker applies retention every
// log.retention.check.interval.ms ([Config.LogRetentionCheckIntervalMs])
// with each replica's own HW, and its cleaner compacts logs with
// cleanup.policy=compact every log.cleaner.backoff.ms
// ([Config.LogCleanerBackoffMs]); per-topic settings come from
// [TopicSpec.Config]. A keyless record for a compacted topic fails with
// INVALID_RECORD. A cleaning round that meets a batch it cannot parse
// (disk damage) marks the partition uncleanable on that broker, as Kafka
// 3.7's LogCleaner does: the broker keeps serving, its cleaner goes on with
// the other logs and passes that one over (no compaction, no deletion of
// old segments) until it restarts or stops hosting it
// ([BrokerInfo.UncleanablePartitions]).
//
// Every action is an [Action] ([World.Do] applies any); messages are
// delivered in send order, so the same Config and actions always give the
// same events. The timeline is rebuilt by replay: [World.At] (after action
// k), [World.AtTime] (at a time, cutting a run there), [World.AtEvent] and
// [World.Fork] return independent worlds on which new actions make a new
// future. Without snapshots replay starts from the new world and costs
// time in proportion to the history (about 3 ms for the whole KIP-101
// part 3 scenario, BenchmarkAtReplay), which is what the scenarios use.
//
// # Snapshots and a bounded history
//
// [World.Clone] copies a world machine by machine, each by its own Clone
// (brokers with their file systems, logs, replicas and coordinators, the
// controller, the clients, the messages in flight, the random generator),
// sharing what nothing changes in place: file pages until either side
// writes them, appended batches and their decoded records, sealed index
// entries, the blocks of a mirror's chunks and of a producer's results
// until either side writes one (seq.Vec). A snapshot so costs what changed
// since the last, not what the world holds (BenchmarkSnapshot: the page's
// world after 60 simulated minutes costs about 1.5 times what it costs
// after one). A snapshot shares more: it holds the same copy of a replica
// as the snapshot before it while nothing changed that replica (every path
// of its broker that may change a replica, or hands it out, drops the kept
// copy; views read through Peek; a replica's timers are its broker's, so
// that setting or firing one drops nothing, and a follower's tick with
// nothing due is skipped), so that a snapshot of thousands of idle
// partitions copies the few that changed, and of the file systems the
// files and directories that changed (a directory from the last
// snapshot's copy, with the entries changed since); the controller's
// partition records and a broker's lists of its partitions are shared
// until either side changes them. The clone and
// its original then evolve independently, and identically under the same
// actions. With [Config.Timeline] ([TimelineConfig]) the world takes a
// snapshot (a clone without history) every SnapshotEveryMs, between
// actions; the timeline
// replays from the nearest snapshot before the moment asked for, and
// gives the same world a full replay gives. Snapshots older than DenseMs
// thin out to one per SparseEveryMs; those older than KeepMs fall off,
// and with them the events, actions and finished producer results before
// the oldest snapshot kept ([World.StartMs]): [Event.Seq] and [Event.Step]
// still count from the start, and the producers' sent, acked and failed
// counts include what fell off. KeepBytes bounds the history the same way
// by the bytes of the external requests kept to replay it, taking
// snapshots early as they pile up. The live page's default world keeps ten
// minutes this way, or 256 MiB of client requests.
//
// # What a replica log holds in memory
//
// Every replica's log is kafkalog's, on its broker's MemFS: the bytes are
// in the files (pages shared copy-on-write between a file's page cache,
// its durable copy and the snapshots). Beside the files, a replica log
// keeps a mirror of its records for the page, the checker, the world's
// own consumers and the followers' fetches: one chunk per batch, and a
// batch whose offsets follow one another (every producer's) is kept as
// where it lies in its segment file, its bytes read back and decoded when
// someone reads its records (a follower's fetch takes the bytes and
// decodes nothing), its decoded records kept only while among the 32,768
// decoded last. A log of millions of records thus costs its files and a
// few words a batch, not a second copy or a decoded record each.
//
// A client's batch is in memory once. The wire layer hands each request's
// body to the world ([Preparer.HandOver]); the leader stamps offsets and
// its epoch into the batch where it lies in the body, as Kafka 3.7's
// LogValidator stamps them in its request buffer, and appends it with
// kafkalog's AppendAsLeaderNoCopy, so that its segment file keeps those
// bytes as its pages (vfs.WriteAtNoCopy); a follower's fetch reads back
// that same memory while the file still holds it (vfs.HoldsAt: damage
// or a rewrite shows, and the fetch then copies what the file holds), and
// the follower keeps it too. The three replicas' files and the timeline's
// request share one copy, where each used to hold its own. A
// broker's disk may have a size
// ([Config.BrokerDiskBytes]; the page's world gives each 2 GiB): a write
// past it fails with No space left on device and the broker halts, as a
// Kafka broker whose only log dir failed does, so that a client producing
// flat out into a topic without retention fills the simulated disks, not
// the host's memory.
//
// # More actions
//
// [World.SetProducer] changes a producer's rate (a fraction of records a
// second allowed, [ProducerConfig.Rate]), acks and keys.
// [World.ResetOffsets] is kafka-consumer-groups --reset-offsets
// --execute: an admin OffsetCommit (generation -1, no member) that the
// coordinator takes only while the group is Empty; [World.PlanReset]
// shows the offsets it would commit (earliest: the log start offset;
// latest: the high watermark; an offset clamped to those). [World.BrokerFS]
// is a read-only, copy-on-write view of a broker's files, for
// kafka-dump-log.
//
// # The controller in the brokers (KRaft combined mode)
//
// By default the controller is a separate node, [ControllerID], that never
// fails (the scenarios use it). With [Config.CombinedControllers] it runs
// inside the brokers, every broker a voter of the metadata quorum: the
// active controller starts on broker 1; when its broker stops, crashes or
// loses power, messages to and from the controller are dropped until the
// voters elect the lowest-id running voter, [Config.ControllerFailoverMs]
// later (3000: controller.quorum.fetch.timeout.ms plus
// controller.quorum.election.timeout.ms) and only with a majority of
// voters running. The new controller has the same metadata (the metadata
// log is replicated on the quorum) and gives every broker a fresh
// session, so the lost broker is fenced a session timeout later. The
// state shows it as "active_controller" (the broker id, -1 while none;
// omitted with a separate controller) and a "controller bN" line in
// [State.Text]. Simplification: a controlled shutdown of the broker that
// hosts the active controller is not handled before it goes (its message
// is dropped with the controller), so the broker is fenced by session
// expiry under the next controller.
//
// # Rules and eras
//
// [Config.Rules] picks the Kafka version's replication rules
// ([replica.RuleSet]) and the controller's era. Before [replica.V3_7]
// the controller behaves as a ZooKeeper-era one: the leader epoch goes up
// on each election (not when a partition goes offline) and on
// controller-side ISR shrinks (as the ZooKeeper-era controller's
// KafkaController.onBrokerFailure did), and a broker that restarts before
// its session expired keeps its place (the KIP-101 scenarios rely on it).
// Under V3_7 and V4 (KRaft) the leader epoch goes up on every change of
// the leader field, including to and from none (KRaft's
// PartitionChangeBuilder), and a restarted
// broker always registers fenced, so it is fenced first if the controller
// had not noticed. Broker sessions (broker.session.timeout.ms, default
// 9000) are kept by heartbeats (broker.heartbeat.interval.ms, 2000); the
// controller fences expired brokers together, elects the first ISR member
// in assignment order, keeps the last ISR member when the ISR would empty
// (the partition goes offline), and elects the first live replica when
// unclean.leader.election.enable is set. Leaders change the ISR through
// AlterPartition messages; partition states reach the brokers as
// LeaderAndIsr messages and, if lost, through the brokers' heartbeats.
//
// Simplifications, each a choice for the scenarios (see also the checkpoints
// below): producers send one record per request (so followers
// store the leader's batches one record each), producers learn leaders
// from the controller at once, producers take the defaults of their rule
// set's client (under modern rules acks=all and enable.idempotence=true, as
// since Kafka 3.0; [ProducerConfig]), whose sequences travel in the
// batches' producer fields, so new leaders know them, consumers
// read the leader's log directly (records below the HW), and the network
// has no latency: what is sent in a step is delivered in that step unless
// a link is cut or the receiver is down or restarted (a crashed broker's
// queued messages are lost with it).
//
// # Checkpoints and the OS's writeback
//
// By default, a choice for the scenarios, a broker writes its
// replication-offset-checkpoint at the end of every step in which an HW
// changed (the scenarios read the HW held just before a crash), writes
// recovery-point-offset-checkpoint only at a clean shutdown (so a restart
// after a crash recovers every segment), and its host's kernel writes
// dirty pages back only when asked ([World.Writeback]): records stay in
// the page cache until Kafka syncs them (a rolled segment, a clean
// shutdown). Config turns on Kafka's schedules (Kafka 3.7.0's, from
// ReplicaManager.startHighWatermarkCheckPointThread and
// LogManager.startupWithConfigOverrides):
// [Config.ReplicaHighWatermarkCheckpointIntervalMs] (5 s in Kafka, from
// the start), [Config.LogFlushOffsetCheckpointIntervalMs] (60 s, the first
// 30 s after the start, and at once after a truncation or a deleted
// partition, as LogManager.truncateTo and asyncDelete do) and
// [Config.LogFlushStartOffsetCheckpointIntervalMs] (60 s, the first after
// 30 s); and Linux's flusher threads with [Config.DirtyExpireMs] and
// [Config.DirtyWritebackIntervalMs] (30 s and 5 s in Linux): every 5 s the
// kernel writes back each file and directory dirty for 30 s or more, all
// its dirty pages at once ([vfs.MemFS.WritebackExpired]), whether the
// broker process runs, stopped or crashed. The world kafkalive serves
// ([github.com/kafkalive/kafkalive/cluster/defaultworld.Config]) has all
// of them on, so a power cut there loses at most the last 35 s of a
// broker's writes. Linux's background writeback
// (past vm.dirty_background_ratio of memory) and a journaling file
// system's commits are not modelled. Neither the flusher nor the
// checkpoints record events.
//
// # The fault model, and what nothing may do
//
// A user or a client can stop, kill, power-cut and start brokers, cut and
// heal links, send any record, and type any name or number. None of it
// stops the world: an invalid action (a broker that does not exist,
// starting a running broker, an unknown producer, a negative time) is
// refused with an [ErrInvalidConfig] error and not recorded; a record too
// large is answered with Kafka's error code (MESSAGE_TOO_LARGE above
// max.message.bytes, RECORD_LIST_TOO_LARGE above segment.bytes, as Kafka
// 3.7's UnifiedLog.append checks; the producer itself refuses a record
// above max.request.size, 1 MiB, with MESSAGE_TOO_LARGE). A power cut
// loses only bytes that were never synced: the log directory is created
// with its parent synced (LogManager.createAndValidateLogDirs), and so is
// every partition directory (kafkalog). A follower fetching from inside a
// gap the leader's cleaner left appends the records after it at their own
// offsets (UnifiedLog.appendAsFollower), instead of asking for the same
// offset forever. A group consumer reacts to every error as Kafka 3.7's
// client does: UNKNOWN_MEMBER_ID forgets the member id and rejoins,
// ILLEGAL_GENERATION rejoins with it, FENCED_INSTANCE_ID is fatal,
// REBALANCE_IN_PROGRESS rejoins when Stable; COORDINATOR_NOT_AVAILABLE and
// NOT_COORDINATOR look the coordinator up again, and retry a JoinGroup or
// SyncGroup; a coordinator that stops leading the group's offsets
// partition answers the members it holds NOT_COORDINATOR
// (GroupCoordinator.onGroupUnloaded); a broken connection to a
// coordinator that died fails the request at once (a DisconnectException:
// the client retries), and one lost on a cut link fails when the link
// heals; a lost OffsetFetch is asked again. A file damaged on disk
// ([ActCorrupt]) that Kafka 3.7 cannot load stops the broker's start as it
// stops Kafka's (a checkpoint that does not parse takes the log dir
// offline, and with one log dir the broker halts; a log kafkalog refuses
// to open is a fatal startup error; a recovery-point or log-start-offset
// checkpoint that does not parse is reset instead): the broker is
// [BrokerFailed], an event says why ([World.StartFailure]), its files stay
// as they are, and it starts once the operator removes the damaged file or
// partition directory ([ActWipe]), the replica then coming back empty and
// fetching from its leader.
//
// What is left is an internal error: a bug of the simulation, never the
// user's doing (a log that fails under a broker, a network that is not
// quiet after [DefaultMaxDeliveriesPerQuiet] deliveries). It is recorded
// as an [EventError] event and in [World.InternalErrors] (time, step,
// broker, error, and how to replay it: World.At of the step before, then
// the step's action), [World.Err] returns the first, and the world goes
// on: the broker whose log failed halts (Kafka's ReplicaManager halts a
// broker whose every log directory failed) and can be started again; a
// message storm is dropped, and the requests in it are resent after their
// timeouts. The explorers count internal errors as failures.
//
// [World.CheckConverged] is where the world must end once every broker
// runs and every link has been healed long enough: every partition led
// with its full ISR, every group with running members Stable with its
// partitions assigned; [CheckCommitsMoved] checks, between two states,
// that committed offsets move on. RunFor in slices (a second at a time,
// as the live page runs it) gives the same world as one long RunFor, as
// long as each slice is a multiple of [Config.TickMs].
//
// # Real Kafka clients
//
// A Kafka client outside the world (kcat, franz-go, the Java client) talks
// to the brokers through the wire layer (package kafkawire, driven by
// package web), which hands each request to [World.External] as an
// [ActExternal] action holding its bytes, so that the timeline replays and
// forks it like any other action (without a connection, its answer goes
// nowhere); the answers come out of [World.ExternalAnswers]. The broker
// the request came to serves it: the Kafka APIs are the broker's room
// (cluster/internal/broker, one file per API: api_produce.go,
// api_fetch.go, api_joingroup.go...), with the requests that wait for the
// world (broker.Requests: acks=all produces, long-polling fetches, group
// requests at a coordinator); the admin requests it forwards meet the
// controller's checks (cluster/internal/controller). Metadata,
// Produce (v3+), Fetch (v4+), ListOffsets, OffsetForLeaderEpoch (a
// consumer's check for truncation after a leader change, KIP-320),
// InitProducerId, CreateTopics, CreatePartitions, DeleteTopics,
// DescribeConfigs, IncrementalAlterConfigs, AlterConfigs and, with the
// group APIs, DeleteGroups are answered as a Kafka 3.7 broker does
// (a topic's configs altered apply to its replicas at once, as
// UnifiedLog.updateConfig applies them; the brokers' own configs are
// static, and __consumer_offsets' are not altered; CreatePartitions
// leaves the offsets topic as it is: with more partitions, groups would
// move to coordinators without their offsets). DescribeTopicPartitions
// (Kafka 3.8+, what Kafka 4's admin client asks to describe topics) is
// answered as Kafka 4.1 does: each partition's ISR, eligible leader
// replicas and last known leader (KIP-966), paged by a cursor. CreateTopics takes LogConfig's topic configs, validated as Kafka
// 3.7's controller does; a topic's own min.insync.replicas and
// unclean.leader.election.enable override the brokers' for its
// partitions. A Metadata request for a topic that does not exist creates
// it (auto.create.topics.enable, Config.DisableAutoCreateTopics), with one
// partition on one replica, and answers UNKNOWN_TOPIC_OR_PARTITION until
// the next request, as a KRaft broker does. A topic made so without a
// segment.bytes of its own gets Config.ClientTopicSegmentBytes when set.
// The world holds at most [MaxPartitions] partitions. A produce's batch is not encoded again: the leader's log appends
// the client's bytes with the offsets and its leader epoch stamped in
// place ([replica.ProducerBatch]: the leader takes the batch whole, its
// records read once, on the connection's goroutine, as Kafka's
// LogValidator reads them, and not kept: the mirror holds the bytes), and
// the followers fetch and store those bytes undecoded ([replica.FetchLog],
// [replica.Entry.Count]), so compression, headers, timestamps and
// the producer id, epoch and sequence survive on every replica, and a
// consumer's fetch returns the stored batches as they are. Client n is node
// [ExternalNode](n) of the network: cutting its links to a broker makes
// that broker's answers to it never arrive (the connection hangs). The
// consumer-group APIs (FindCoordinator, JoinGroup, SyncGroup, Heartbeat,
// LeaveGroup, OffsetCommit, OffsetFetch, DescribeGroups, ListGroups, and
// KIP-848's ConsumerGroupHeartbeat and ConsumerGroupDescribe) are served by
// the same coordinators as the world's own consumers, so that external and
// simulated members share groups: the coordinator keeps the
// wire's metadata and assignment bytes, translated at the boundary for the
// "consumer" protocol type, opaque for any other (the broker's groups.go).
//
// # The checker
//
// After every step the checker tests these invariants, on the partitions
// whose replicas, leader or ISR changed in it (on all of them when a
// broker's registration or fencing changed; [Config.TickEveryPartition]
// checks all of them always). A replica handed a replication message or
// ticked counts as changed only if its progress (role, epochs, log start,
// LEO, HW), its records or its epoch cache changed: a follower fetching
// from an idle leader changes none of them. The invariants:
// HW within the log, the leader's HW never moving back within an epoch,
// log matching below the smaller HW of any two running replicas, every
// running ISR member holding the leader's committed records, one leader
// per epoch, ordered epoch caches. Violations are recorded as
// [EventViolation] events and [World.Violations]; they never stop the
// world (KIP-101 part 3 breaks log matching on purpose under 0.10 rules).
//
// # The explorers
//
// Package cluster/explore hunts the world for lost writes from outside:
// random fault schedules on one partition, and random sequences of what
// the page's users do to the world it serves (cluster/defaultworld), each
// judged by what the world's public API shows, shrunk, and replayed by
// one command line.
//
// # The state as JSON
//
// [State.JSON] prints the state with these field names (snake_case,
// stable; fields marked "extra" go beyond the list):
//
//	{
//	  "time_ms": 9900,                   virtual time
//	  "rules": "v0.10",                  extra: the rule set
//	  "active_controller": 1,            extra: KRaft combined mode only (Config.CombinedControllers); -1 while none
//	  "brokers": [{
//	    "id": 1,
//	    "state": "running",              running | stopped | crashed | off | failed (its log dir did not load)
//	    "controller": "unfenced",        the controller's view: unfenced | fenced | unregistered
//	    "disk_bytes": 2555,              bytes of its files on disk (survive a power cut)
//	    "cache_bytes": 2400,             bytes only in the page cache (lost by a power cut)
//	    "bytes_in_per_sec": 0,           extra: network bytes received in the last whole second
//	    "bytes_out_per_sec": 40,         extra: network bytes sent in the last whole second
//	    "fetch_reads": 12,               extra: reads of its logs for consumers' fetches (the five fetch fields: omitted while 0)
//	    "fetch_scanned_batches": 9,      extra: batch headers their scans walked past from the index entry
//	    "fetch_scanned_bytes": 2480,     extra: the bytes of those batches
//	    "last_fetch_offset": 40,         extra: the offset the latest of those reads asked for
//	    "last_fetch_first_batch": 38,    extra: the base offset of the batch it began with (-1: none)
//	    "uncleanable_partitions": ["__consumer_offsets-0"]  extra: the partitions its cleaner marked uncleanable (a damaged batch; omitted while none)
//	  }],
//	  "partitions": [{
//	    "topic": "kip101", "partition": 0,
//	    "leader": 2,                     -1 when offline
//	    "leader_epoch": 1,
//	    "replicas": [1, 2],              assignment, preferred leader first
//	    "isr": [1, 2],
//	    "log_start_offset": 0,           the leader's; -1 when offline
//	    "high_watermark": 2,             the leader's; -1 when offline
//	    "log_end_offset": 2,             the leader's; -1 when offline
//	    "logs": [{                       one per replica, in assignment order
//	      "broker": 1,
//	      "role": "follower",            extra: leader | follower | none | down
//	      "log_end_offset": 2,
//	      "high_watermark": 2,           this replica's own HW (a follower's lags)
//	      "epochs": [{"epoch": 0, "start_offset": 0}],
//	      "records": [{
//	        "offset": 1,
//	        "key": "alice",              omitted when the record has no key
//	        "value": "m2",
//	        "leader_epoch": 0,           -1 under 0.10 rules (no epochs in records)
//	        "durable": true,             false while only in the page cache
//	        "differs_from_leader": true  extra, omitted when false
//	      }]
//	    }]
//	  }],
//	  "producers": [{
//	    "name": "p", "sent": 3, "acked": 3, "failed": 0,
//	    "lost_after_ack": 1,             extra: acknowledged, then gone: a replica without it became leader
//	    "sent_no_ack": 0,                extra: sent with acks=0, which gets no answer (never counted acked)
//	    "results": [{
//	      "value": "m2",
//	      "partition": 0,                extra
//	      "offset": 1,                   omitted unless acknowledged with an offset
//	      "error": "NOT_ENOUGH_REPLICAS",omitted unless it failed
//	      "status": "acked"              extra: acked | lost (acknowledged, then gone) | failed | pending | sent (acks=0)
//	    }]
//	  }],
//	  "consumers": [
//	    {"name": "c", "topic": "kip101", "partition": 0, "position": 2, "read": 2},  a simple consumer
//	    {"id": "W2",                     a group consumer: client.id
//	     "group": "workers",
//	     "processed": 30,                records handed to the application
//	     "duplicates": 10,               of those, records the group had processed before
//	     "member_id": "W2-2cee1459-5a2c-4f11-968d-eb0e2b7e4efd",  extra: client.id and a UUID, as Kafka makes it; "" when not joined
//	     "status": "running"}            extra: running | crashed | closed
//	  ],
//	  "groups": [{                       omitted when there are none
//	    "name": "workers",
//	    "state": "Stable",               Empty | PreparingRebalance | CompletingRebalance | Stable | Dead | Unknown (no coordinator)
//	    "generation": 2,
//	    "protocol": "eager",             eager | cooperative
//	    "assignor": "range",             extra, omitted outside a generation
//	    "coordinator": 3,                extra: broker id, -1 if none
//	    "leader": "W2-2cee1459-5a2c-4f11-968d-eb0e2b7e4efd",  extra, omitted when none
//	    "members": [{
//	      "id": "W2-2cee1459-5a2c-4f11-968d-eb0e2b7e4efd",
//	      "partitions": [{"topic": "tasks", "partition": 0}],  what it reads now
//	      "client_id": "W2",             extra
//	      "instance_id": "w2",           extra: static members only
//	      "host": "/10.0.0.100",         extra
//	      "assignment": [...],           extra: the coordinator's record of its last SyncGroup
//	      "idle": "rebalancing: ..."     extra: why it reads nothing (or is busy), omitted otherwise
//	    }],
//	    "offsets": [{
//	      "topic": "tasks", "partition": 0,
//	      "committed": 10,               -1 if none
//	      "log_end_offset": 20,          the leader's HW, -1 when offline
//	      "lag": 10,                     log_end_offset - committed, -1 when unknown
//	      "member": "W2-2cee1459-5a2c-4f11-968d-eb0e2b7e4efd"  extra: the member assigned it, omitted if none
//	    }]
//	  }],
//	  "cut_links": [[1, 2]]              extra: network links cut, omitted when none
//	}
//
// Records with a null value carry "tombstone": true (extra, omitted
// otherwise). The partitions of __consumer_offsets are left out of
// "partitions" (and their replicas' events out of the timeline); the
// groups show what they hold.
//
// A broker that is not running shows its replica logs as they would be
// read back on restart (from the page cache after a crash, from the disk
// after a power cut), with role "down" and the HW from its checkpoint.
package cluster
