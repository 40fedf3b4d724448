// Package crcheaderonly is a known-buggy batch encoder for the mutant bank of exercise
// ch01/batch: the CRC covers the header after the crc field but not the
// records.
// The suite must reject it; see solutions/kill_test.go.
package crcheaderonly
