// Package stopsatempty is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: it takes a batch with no records for damage and cuts the
// segment there. The log cleaner keeps such a batch on purpose when it holds
// the last sequence of a producer (its header is all it needs), and Kafka's
// recovery keeps it like any whole, valid batch.
// The suite must reject it; see solutions/kill_test.go.
package stopsatempty
