// Package crcrecordsonly is a known-buggy batch encoder for the mutant bank
// of exercise ch01/batch: the CRC covers only the records, from byte 61.
//
// Mistake: the CRC covers only the records (from byte 61); Kafka's starts at
// attributes (byte 21).
//
// Breaks: B6 (CRC-32C over [21, end)).
package crcrecordsonly
