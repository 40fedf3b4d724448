// Package crcwholebatch is a known-buggy batch encoder for the mutant bank
// of exercise ch01/batch: the CRC covers the whole batch from byte 0.
//
// Mistake: the CRC covers the whole batch from byte 0; Kafka's starts at
// attributes (byte 21).
//
// Breaks: B6 (CRC-32C over [21, end)).
package crcwholebatch
