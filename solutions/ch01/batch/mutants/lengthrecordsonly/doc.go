// Package lengthrecordsonly is a known-buggy batch encoder for the mutant
// bank of exercise ch01/batch: the length field counts only the records.
//
// Mistake: the length field counts only the records; it counts everything
// after itself, header included.
//
// Breaks: B5 (length field).
package lengthrecordsonly
