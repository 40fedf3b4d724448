// Package scenarios holds kafkalive's guided scenarios and plays them on the
// simulated cluster.
//
// A scenario is a data file in data/ (embedded, so the binary carries
// them): the cluster to start, the setup, and numbered steps. Each step has
// a narration, actions on the world (produce, kill, power-cut, start,
// writeback, run, deliver, partition, heal...), a question with choices,
// the right answer and why, and the state expected after it, written by
// hand from the tables of the shared reference scenarios.md (§1-3, S1-S8b).
// A branch replays the world up to an earlier step under another
// configuration (unclean election off, min.insync.replicas 2) and goes on
// from there.
//
// A [Run] applies the steps to a fresh [cluster.World] and, after each one,
// checks the expectations against the state the simulation produced. An
// expectation is a subset match of named facts:
//
//	b1 follower [0 m1·e0, 1 m2·e0*] 2/1 EC [(0,0)]   a replica's log (any part)
//	ctl leader=2 e=1 isr={2,3}                     the controller's partition record
//	p m1=ACK(0) m2=PENDING                        what producer p was told
//	c position=1 read=1                           consumer c
//	violations log-matching                       invariants broken during the step
//
// Nothing in a scenario file is ever shown as a result: every outcome comes
// from the simulation, and a check fails when the simulation diverges from
// the reference. Where the simulation is known not to reach a reference
// state, the expectation is followed by a "known" line that says why; the
// check must then still fail (so the note is removed once it passes).
//
// The file format is described in format.md beside this file. The
// datadriven files in testdata/ record every step's events, full state and
// checks (regenerate with go test ./scenarios -run TestStates -rewrite).
package scenarios
