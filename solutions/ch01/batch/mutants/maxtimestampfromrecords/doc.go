// Package maxtimestampfromrecords is a known-buggy batch encoder for the mutant bank
// of exercise ch01/batch: it computes maxTimestamp from the records
// (baseTimestamp + the largest timestamp delta) instead of writing the field.
// The cleaner's empty batch keeps the max timestamp of the records it
// removed, with baseTimestamp -1 and no records.
// The suite must reject it; see solutions/kill_test.go.
package maxtimestampfromrecords
