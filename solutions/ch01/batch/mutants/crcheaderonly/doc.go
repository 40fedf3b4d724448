// Package crcheaderonly is a known-buggy batch encoder for the mutant bank
// of exercise ch01/batch: the CRC covers the header after the crc field but
// not the records.
//
// Mistake: the CRC covers only the header after the crc field, not the
// records.
//
// Breaks: B6 (CRC-32C over [21, end)).
package crcheaderonly
