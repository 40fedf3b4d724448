// Package explore hunts the simulated cluster for lost writes: it draws
// random sequences of operations from seeds, plays each on a fresh world,
// judges what the world did through its public API ([cluster.World.State]
// and a few reads beside it), and shrinks what fails to the fewest
// operations that still fail the same way. It is named for its job, as
// pebble's metamorphic tests are; kafkalive explore is its command.
//
// # Two explorers, one sweep
//
// [ReplicationConfig] is the replication explorer: [Schedule] draws a
// random fault schedule from a seed (produces, runs, crashes, fast
// restarts, power cuts torn or not, clean stops, OS writebacks,
// isolations and heals, aimed at the leader or a follower), and
// [RunSchedule] plays it on a three-broker world with one partition and an
// acks=all producer, heals and restarts everything, and reports
// acknowledged records lost and replicas diverged ([Outcome]).
//
// [UserConfig] is the user-level explorer: [UserSequence] draws what the
// page's and the terminal's users do to the world kafkalive serves
// (cluster/defaultworld), bad input included, and [RunUserSequence] plays
// it and checks invariants after every operation ([UserConfig] lists
// them, with its fault model).
//
// Both are an [Explorer], and [Sweep] runs either over a range of seeds
// on as many goroutines as asked (the report is the same whatever their
// number): the counts (schedules, acknowledged, lost, diverged, broken
// invariants, internal errors), every failing seed with how it failed,
// and the first failures replayed and shrunk ([Failure]). One command
// line replays a seed of either: kafkalive explore with the flags of the
// configuration ([Explorer.ReplayCommand]), --events printing the events
// of the shrunk run and the state it ended in.
//
// # Shrinking
//
// [Shrink] and [ShrinkUser] remove operations one at a time, from the
// last, while the shorter sequence still fails the same way: each
// candidate is replayed, and kept only if its run fails with the kind the
// drawn sequence's did ([Outcome.Kind]: an error, an acknowledged record
// lost, a divergence, or the first invariant of the world's checker;
// [UserOutcome.Kind]: the first invariant broken). What a sweep prints of
// a failure, its operations and its outcome, is a replay of the shrunk
// sequence. A shrinker that kept any failure turned, under 0.10's rules,
// schedules that lost acknowledged records into shorter ones that lost
// nothing and only left a replica out of the ISR (seeds 55 and 1073).
//
// # What the sweeps find
//
// The tests (-explore.n, -explore.seed-base) run configuration (a),
// modern rules with min.insync.replicas=2 and clean elections, and
// require no loss; and (b), 0.10 rules, and require the explorer to find a
// loss and print the shortest schedule with the seed that replays it.
// (a) holds only under a restricted fault model,
// [ReplicationConfig.RestrictPowerCuts]: without KIP-966's eligible leader
// replicas a single power cut of the last ISR member standing loses
// acknowledged data. The precondition counts an ISR member only if it
// runs, reaches the controller, is registered in its current incarnation
// and its session will not expire before its next heartbeat
// ([cluster.World.BrokerSession]): a broker that just healed from an
// isolation longer than a heartbeat interval is still unfenced, but the
// controller fences it within the window and shrinks the ISR to the broker
// that lost its page cache (seed 1013402, modern rules, lost v1@0). The
// explorer keeps this precondition rather than model KIP-966's eligible
// leader replicas (Kafka 4.0), which would let the controller elect a
// replica outside the ISR that still holds the committed records. A sweep
// of 20,000 schedules from seed 1,000,000 (go test ./cluster/explore -run
// TestExploreModernLosesNothing -explore.n=20000
// -explore.seed-base=1000000, or kafkalive explore --schedules 20000
// --seed 1000000) loses nothing.
package explore
