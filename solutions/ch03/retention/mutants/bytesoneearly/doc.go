// Package bytesoneearly is a known-buggy retention rule for the mutant bank of exercise
// ch03/retention: retention.bytes stops one segment early.
// The suite must reject it; see solutions/kill_test.go.
package bytesoneearly
