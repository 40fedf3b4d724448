// Package ignorespolicy is a known-buggy retention rule for the mutant bank of exercise
// ch03/retention: retention.ms and retention.bytes apply even under
// cleanup.policy=compact.
// The suite must reject it; see solutions/kill_test.go.
package ignorespolicy
