// Package crcieee is a known-buggy batch encoder for the mutant bank of
// exercise ch01/batch: CRC-32/IEEE instead of CRC-32C (Castagnoli).
//
// Mistake: CRC-32/IEEE (crc32.ChecksumIEEE) instead of CRC-32C (Castagnoli).
//
// Breaks: B6 (CRC-32C over [21, end)).
package crcieee
