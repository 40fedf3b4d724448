// Package replicakit holds the suite that checks the kit's chapter 5
// exercise, the follower's truncation point after a leader change (KIP-101,
// KIP-279), and any other implementation of the same two functions.
//
// The surface is a struct of funcs, [Truncation]. Like the storage suites in
// kafkalog/kafkalogkit it has three entry points:
//
//   - [CheckTruncation] runs fixed known answers (the scenarios
//     acks1-loses-acked-writes, kip101-part1, kip101-part2, kip101-part4 and
//     kip279-two-rounds, the cases of Kafka's LeaderEpochFileCacheTest that
//     bear on truncation, each kind of answer the leader can give, and one
//     case per known mistake) and returns the first violation;
//   - [TruncationProperties] is a rapid property: it plays random histories of
//     leader elections (clean and unclean), appends and replication on three
//     replicas, then lets a follower truncate against the leader and checks
//     the result record by record (log matching);
//   - [TestTruncation] runs both as subtests; it is the one call the
//     exercise's test file makes.
//
// Each entry point takes the known mistakes to recognise in a failure
// ("this looks like ...") as its last, optional arguments; the kit's bank
// (solutions/bank) passes its mutants.
//
// The oracle is the library's [replica.TruncationPoint] under the 2.8+ rules
// ([replica.Modern]: an undefined answer keeps the log; 2.0 to 2.7 cut at the
// high watermark; the DivergingEpoch of a Fetch carries the same answer as
// OffsetsForLeaderEpoch did), and the
// leader's answers come from [replica.EpochCache.EndOffsetFor]. The suite's
// own test checks that oracle against answers written down independently and
// against the records themselves (after truncation the follower's log is
// always the longest common prefix of the two logs).
package replicakit
