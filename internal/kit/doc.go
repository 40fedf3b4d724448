// Package kit is the machinery shared by the exercise suites
// (kafkalog/kafkalogkit, replica/replicakit, group/groupkit): the failure
// report a learner reads (the rule broken, the counterexample, a hexdump with
// the first wrong byte marked, the note section to read, the line that
// replays it, and "this looks like ..." when the learner's answers are those
// of a known mistake), the recognition of known mistakes by their answers
// (Known, Signatures: the suites receive the mistakes from the bank above
// them, solutions/bank, and never import it), the recognition of an untouched
// exercise stub, the deadline on a learner's call, and a recorder that
// implements rapid.TB so that a property can be run against a known-buggy
// implementation with its failure observed instead of failing the test that
// runs it.
package kit
