// Package crcieee is a known-buggy batch encoder for the mutant bank of exercise
// ch01/batch: CRC-32/IEEE instead of CRC-32C (Castagnoli).
// The suite must reject it; see solutions/kill_test.go.
package crcieee
