// Package newerkeepslog is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: when its own cache cannot look the leader's
// epoch up (an epoch newer than every cached one, or an empty cache) it
// keeps its log, as for an undefined answer; Kafka cuts at min(leader's end,
// LEO).
//
// Mistake: an answer the follower cannot look up (newer than every epoch it
// has, or any answer to an empty cache) is taken for no answer: it keeps its
// log instead of cutting at min(leader's end, LEO).
//
// Breaks: T9 (an epoch the follower cannot look up).
package newerkeepslog
