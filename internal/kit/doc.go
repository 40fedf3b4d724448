// Package kit is the machinery shared by the exercise suites in
// kafkalog/kafkalogkit: the failure report a learner reads (the rule broken,
// the counterexample, a hexdump with the first wrong byte marked, the note
// section to read, the line that replays it, and "this looks like ..." when the
// counterexample matches a known mistake), the recognition of an untouched
// exercise stub, and a recorder that implements rapid.TB so that a property can
// be run against a known-buggy implementation with its failure observed instead
// of failing the test that runs it.
package kit
