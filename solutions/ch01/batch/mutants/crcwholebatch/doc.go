// Package crcwholebatch is a known-buggy batch encoder for the mutant bank of exercise
// ch01/batch: the CRC covers the whole batch from byte 0.
// The suite must reject it; see solutions/kill_test.go.
package crcwholebatch
