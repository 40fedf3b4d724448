// Package crcwrongrange is a known-buggy recovery for the mutant bank of
// exercise ch04/recovery: the CRC is computed from byte 17 (the crc field
// itself) instead of byte 21.
//
// Mistake: the CRC is computed from byte 17 (the crc field itself); it
// covers bytes 21 to the end of the batch.
//
// Breaks: C3 (CRC-32C), C6 (cut at the first bad byte).
package crcwrongrange
