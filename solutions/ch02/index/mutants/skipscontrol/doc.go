// Package skipscontrol is a known-buggy index lookup for the mutant bank of exercise
// ch02/index: the scan skips control batches (transaction markers), as if
// they were not part of the log; they hold offsets like any batch, and
// Kafka's scan returns them.
// The suite must reject it; see solutions/kill_test.go.
package skipscontrol
