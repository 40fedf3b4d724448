// Package replicakit holds the suite that checks the kit's chapter 5
// exercise, the follower's truncation point after a leader change (KIP-101,
// KIP-279), and any other implementation of the same two functions.
//
// The surface is a struct of funcs, [Truncation]. Like the storage suites in
// kafkalog/kafkalogtest it has three entry points:
//
//   - [CheckTruncation] runs fixed known answers (scenarios S2, S5, S6, S8 and S8b, the
//     cases of Kafka's LeaderEpochFileCacheTest that bear on truncation: H1,
//     H3, H4 and H6-H8, and one case per known mistake) and returns the first
//     violation;
//   - [TruncationProperties] is a rapid property: it plays random histories of
//     leader elections (clean and unclean), appends and replication on three
//     replicas, then lets a follower truncate against the leader and checks
//     the result record by record (log matching);
//   - [TestTruncation] runs both as subtests; it is the one call the
//     exercise's test file makes.
//
// The oracle is the library's [replica.TruncationPoint] under the 2.1+ rules
// ([replica.V2_1]; Modern's DivergingEpoch carries the same answer), and the
// leader's answers come from [replica.EpochCache.EndOffsetFor]. The suite's
// own test checks that oracle against answers written down independently and
// against the records themselves (after truncation the follower's log is
// always the longest common prefix of the two logs).
package replicakit
