// Package maxtimestampfromrecords is a known-buggy batch encoder for the
// mutant bank of exercise ch01/batch: it computes maxTimestamp from the
// records (baseTimestamp + the largest timestamp delta) instead of writing
// the field. The cleaner's empty batch keeps the max timestamp of the
// records it removed, with baseTimestamp -1 and no records.
//
// Mistake: maxTimestamp is computed from the records (baseTimestamp + the
// largest timestampDelta); it is a field of its own, which the cleaner's
// empty batch keeps with no records and baseTimestamp -1.
//
// Breaks: B3 (header fields).
package maxtimestampfromrecords
