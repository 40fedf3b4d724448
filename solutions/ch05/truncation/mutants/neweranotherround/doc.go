// Package neweranotherround is a known-buggy truncation for the mutant bank
// of exercise ch05/truncation: its own lookup answers an epoch newer than
// every cached one with its latest epoch and its log end offset, as if the
// latest epoch were the largest one at or below it. The round then looks
// like one that never had the leader's epoch and asks again, for ever;
// Kafka's lookup finds nothing there (LeaderEpochFileCache.endOffsetFor
// answers undefined) and the follower cuts at min(leader's end, LEO).
//
// Mistake: an answer newer than every epoch of the follower is taken for an
// epoch it never had: it cuts at the end of its latest epoch (its LEO) and
// asks again, and gets the same answer for ever.
//
// Breaks: T9 (an epoch the follower cannot look up).
package neweranotherround
