// Package crcrecordsonly is a known-buggy batch encoder for the mutant bank of exercise
// ch01/batch: the CRC covers only the records, from byte 61.
// The suite must reject it; see solutions/kill_test.go.
package crcrecordsonly
