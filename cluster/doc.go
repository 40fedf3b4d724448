// Package cluster is a deterministic simulated Kafka cluster built from the
// project's own parts: brokers that each keep their partition logs
// ([kafkalog.Log], byte-exact record batches in segment files) on their
// own in-memory file system ([vfs.MemFS], with a page cache, process
// crashes and power cuts), one [replica.Node] per partition replica, a
// KRaft-style controller, a network of message queues, producers, simple
// consumers and a virtual clock in milliseconds.
//
// # Driving a world
//
//  1. [New] builds a world from a [Config]: brokers 1..N running and
//     registered, time 0, one random generator seeded by Config.Seed.
//  2. Set it up: [World.CreateTopic], [World.AddProducer],
//     [World.AddConsumer].
//  3. Act on it: [World.Produce] (one record now), [World.Stop] (clean
//     shutdown: flush, checkpoints, clean shutdown marker, controlled
//     shutdown), [World.Kill] (process crash: the page cache survives),
//     [World.PowerCut] (only synced bytes survive; optionally torn writes),
//     [World.Start] (log recovery through kafkalog, registration),
//     [World.Writeback] (the OS writes dirty pages), [World.Partition] and
//     [World.Heal] (cut and restore network links), [World.Poll].
//  4. Let time pass: [World.Deliver] delivers messages in flight without
//     moving the clock (n at a time, or until the network is quiet, or only
//     between some nodes with [World.DeliverBetween]); [World.RunFor] moves
//     the clock tick by tick ([Config.TickMs]), each tick running every
//     replica, broker heartbeat, controller check and producer, then
//     delivering until quiet.
//  5. Look: [World.State] (as [State.Text] or [State.JSON]), [World.Events],
//     [World.Violations], [World.InFlight].
//
// Every action is an [Action] ([World.Do] applies any); messages are
// delivered in send order, so the same Config and actions always give the
// same events. The timeline is rebuilt by replay: [World.At] (after action
// k), [World.AtTime] (at a time, cutting a run there), [World.AtEvent] and
// [World.Fork] return independent worlds on which new actions make a new
// future. Replaying costs time in proportion to the history (about 3 ms
// for the whole KIP-101 part 3 scenario, BenchmarkAtReplay); snapshots
// were not needed at that price.
//
// # Rules and eras
//
// [Config.Rules] picks the Kafka version's replication rules
// ([replica.RuleSet]) and the controller's era. Before [replica.Modern]
// the controller behaves as a ZooKeeper-era one: the leader epoch goes up
// on each election (not when a partition goes offline) and on
// controller-side ISR shrinks (R4.5), and a broker that restarts before
// its session expired keeps its place (the KIP-101 scenarios rely on it).
// Under Modern (KRaft, 3.7+) the leader epoch goes up on every change of
// the leader field, including to and from none (R6.6), and a restarted
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
// Simplifications, each a choice for the scenarios: a broker writes its
// replication-offset-checkpoint at the end of every step in which a HW
// changed (Kafka: every 5 s; scenarios.md §0.2 item 4 reads the HW held
// before the crash), producers send one record per request (so followers
// store the leader's batches one record each), producers learn leaders
// from the controller at once, idempotence is not modelled, consumers
// read the leader's log directly (records below the HW), and the network
// has no latency: what is sent in a step is delivered in that step unless
// a link is cut or the receiver is down or restarted (a crashed broker's
// queued messages are lost with it).
//
// # The checker
//
// After every step the checker tests the invariants of scenarios.md §7.3:
// HW within the log, the leader's HW never moving back within an epoch,
// log matching below the smaller HW of any two running replicas, every
// running ISR member holding the leader's committed records, one leader
// per epoch, ordered epoch caches. Violations are recorded as
// [EventViolation] events and [World.Violations]; they never stop the
// world (KIP-101 part 3 breaks log matching on purpose under 0.10 rules).
//
// # The explorer
//
// [Schedule] draws a random fault schedule from a seed, [RunSchedule] plays
// it on a three-broker world with one partition and an acks=all producer,
// heals and restarts everything, and reports acknowledged records lost and
// replicas diverged; [Shrink] removes operations while it still fails. The
// tests run configuration (a), modern rules with min.insync.replicas=2 and
// clean elections, and require no loss; and (b), 0.10 rules, and require
// the explorer to find a loss and print the shortest schedule with the
// seed that replays it. (a) holds only under a restricted fault model,
// [ExploreConfig.RestrictPowerCuts]: without KIP-966's eligible leader
// replicas a single power cut of the last ISR member standing loses
// acknowledged data (R8.5, §7.3 item 4).
//
// # The state as JSON
//
// [State.JSON] prints the state with these field names (snake_case,
// stable; fields marked "extra" go beyond the list):
//
//	{
//	  "time_ms": 9900,                   virtual time
//	  "rules": "v0.10",                  extra: the rule set
//	  "brokers": [{
//	    "id": 1,
//	    "state": "running",              running | stopped | crashed | off
//	    "controller": "unfenced",        the controller's view: unfenced | fenced | unregistered
//	    "disk_bytes": 2555,              bytes of its files on disk (survive a power cut)
//	    "cache_bytes": 2400,             bytes only in the page cache (lost by a power cut)
//	    "bytes_in_per_sec": 0,           extra: network bytes received in the last whole second
//	    "bytes_out_per_sec": 40          extra: network bytes sent in the last whole second
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
//	    "results": [{
//	      "value": "m2",
//	      "partition": 0,                extra
//	      "offset": 1,                   omitted unless acknowledged with an offset
//	      "error": "NOT_ENOUGH_REPLICAS",omitted unless it failed
//	      "status": "acked"              extra: acked | failed | pending | sent (acks=0)
//	    }]
//	  }],
//	  "consumers": [{"name": "c", "topic": "kip101", "partition": 0, "position": 2, "read": 2}],
//	  "groups": [],                      reserved for consumer groups (issue 6), omitted when empty
//	  "cut_links": [[1, 2]]              extra: network links cut, omitted when none
//	}
//
// A broker that is not running shows its replica logs as they would be
// read back on restart (from the page cache after a crash, from the disk
// after a power cut), with role "down" and the HW from its checkpoint.
//
// The rule names R0-R11 and sections S1-S12 refer to replication-rules.md
// and scenarios.md in the project's shared reference.
package cluster
