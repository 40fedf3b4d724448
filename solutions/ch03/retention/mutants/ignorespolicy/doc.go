// Package ignorespolicy is a known-buggy retention rule for the mutant bank
// of exercise ch03/retention: retention.ms and retention.bytes apply even
// under cleanup.policy=compact.
//
// Mistake: retention.ms and retention.bytes are applied under
// cleanup.policy=compact.
//
// Breaks: R6 (cleanup.policy).
package ignorespolicy
