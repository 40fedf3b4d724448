// Package firstruleonly is a known-buggy retention rule for the mutant bank
// of exercise ch03/retention: only the first rule that deletes anything
// counts.
//
// Mistake: only the first rule that deletes anything is applied; Kafka runs
// all three and the longest prefix goes.
//
// Breaks: R1 (retention.ms (-1: forever)), R2 (retention.bytes (-1: no
// limit)), R3 (log start offset).
package firstruleonly
