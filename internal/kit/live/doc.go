// Package live runs the learning kit's exercises inside the simulated
// cluster: it turns a learner's functions, in the types of each chapter's
// suite (kafkalog/kafkalogkit, replica/replicakit, group/groupkit), into the
// values the library takes (kafkalog.Parts, replica.Config.TruncationPoint, a
// cooperative-sticky assignor, the producers' batch encoder: cluster.Parts),
// guarded at the boundary, and plays the kit's guided scenarios on them beside
// the same scenarios on the reference.
//
// The boundary: every call runs with a deadline (Live.Deadline) and a recover.
// A stub that still panics with the exercises' TODO is "reference" from the
// start. A panic, a call that does not return in time, or a result out of
// range (a cut past the end of the file, a position outside the bytes, more
// segments than the log has, an assignment that gives a partition twice) is a
// Fault, kept with the failing input and the stack; from then on the part runs
// the reference, and the world goes on. A call that never returns leaves its
// goroutine running (Go cannot stop it); the part is not called again.
//
// exercises/live builds a Code from the exercises and serves the live page
// with it; the tests of package bank (solutions/bank) build one from each
// mutant of the bank and print which scenarios show the mutant's difference.
package live
