// Package groupkit holds the suite that checks the kit's chapter 6 exercise,
// the cooperative-sticky assignment step (KIP-429), and any other
// implementation of the same function.
//
// The surface is a struct of funcs, [CooperativeSticky]. Like the storage
// suites in kafkalog/kafkalogkit it has three entry points:
//
//   - [CheckCooperativeSticky] runs fixed known answers (the rebalances of
//     the scenarios eager-vs-cooperative and crash-is-not-a-goodbye, worked
//     sticky examples, and one case per known mistake) and returns the first
//     violation;
//   - [CooperativeStickyProperties] is a rapid state machine: members join,
//     leave and crash, the group rebalances (with the follow-up rebalance
//     cooperative members trigger when they gave something up), and every
//     round is checked against KIP-429's rules: one owner per partition, a
//     revoked partition never handed to a new owner in the same round,
//     stickiness, balance within one after the follow-up round, the same
//     answer for the same input in any order;
//   - [TestCooperativeSticky] runs both as subtests; it is the one call the
//     exercise's test file makes.
//
// Each entry point takes the known mistakes to recognise in a failure
// ("this looks like ...") as its last, optional arguments; the kit's bank
// (solutions/bank) passes its mutants.
//
// The known answers' oracle is the library's [group.CooperativeStickyAssignor];
// the properties are written from the rules alone (KIP-429's withholding and
// AbstractStickyAssignor's quotas: balance within one, stickiness), so that a
// learner's assignment that obeys them passes whatever order it deals
// partitions in.
//
// The exercise covers the constrained case of Kafka's AbstractStickyAssignor:
// every member subscribes to every topic, and each partition is claimed by
// at most one member (one generation).
package groupkit
