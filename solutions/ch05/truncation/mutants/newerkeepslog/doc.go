// Package newerkeepslog is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: when its own cache cannot look the leader's epoch
// up (an epoch newer than every cached one, or an empty cache) it keeps its
// log, as for an undefined answer; Kafka cuts at min(leader's end, LEO).
// The suite must reject it; see solutions/truncation_bank_test.go.
package newerkeepslog
