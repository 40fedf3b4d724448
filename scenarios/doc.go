// Package scenarios holds kafkalive's guided scenarios and plays them on the
// simulated cluster.
//
// A scenario is a data file in data/ (embedded, so the binary carries
// them): the cluster to start, the setup, and numbered steps. Each step has
// a narration, actions on the world (produce, kill, power-cut, start,
// writeback, run, deliver, partition, heal, group consumers that join,
// close, crash, restart or stall, add-partitions...), a question with
// choices, the right answer and why, and the state expected after it,
// written by hand from what Kafka does (each scenario's source names the
// classes, methods and KIPs, at the version its rules follow). A branch replays the world up to an earlier step under
// another configuration (unclean election off, min.insync.replicas 2), or
// the same one, and goes on from there.
//
// A scenario's world starts Kafka's clock at a fixed time, 0
// (1970-01-01T00:00:00Z, [cluster.Config.ClockStartMs] left at its
// default), not at the wall clock's as the served world does: its records'
// timestamps, and so its outputs, are the same on any day it is played.
//
// A [Run] applies the steps to a fresh [cluster.World] and, after each one,
// checks the expectations against the state the simulation produced. An
// expectation is a subset match of named facts:
//
//	b1 follower [0 m1·e0, 1 m2·e0*] 2/1 EC [(0,0)]   a replica's log (any part)
//	ctl leader=2 e=1 isr={2,3}                     the controller's partition record
//	p m1=ACK(0) m2=PENDING                        what producer p was told
//	c position=1 read=1                           consumer c
//	W2 processed=30 duplicates=10                 group consumer W2
//	group workers state=Stable W2=[tasks-0]       a group, its members' partitions, offsets
//	segments events-0 3:[3,4,5] 6:[6,7,8]         the leader's segments
//	users-1 [0 dave=v1·e0] 1/1                    the leader's log of any partition
//	violations log-matching                       invariants broken during the step
//
// Nothing in a scenario file is ever shown as a result: every outcome comes
// from the simulation, and a check fails when the simulation diverges from
// what the file expects. A question's answer is backed by "shows" facts,
// checked after its step like the others, so that no question teaches what
// the screen then contradicts; neither the step's title nor its narration
// may give the answer away. Where the simulation is known not to reach an
// expected state, the expectation is followed by a "known" line that says
// why; the check must then still fail (so the note is removed once it
// passes), and no step with a question may carry one.
//
// The file format is described in format.md beside this file. The
// datadriven files in testdata/ record every step's events, state (as the
// scenario's view shows it) and checks (regenerate with go test ./scenarios -run TestStates -rewrite).
package scenarios
