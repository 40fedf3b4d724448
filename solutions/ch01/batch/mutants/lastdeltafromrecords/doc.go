// Package lastdeltafromrecords is a known-buggy batch encoder for the mutant bank of
// exercise ch01/batch: it writes lastOffsetDelta as the last record's offset
// delta instead of the field. After compaction the batch keeps its
// lastOffsetDelta although its last records are gone, and the cleaner's empty
// batch has no records at all.
// The suite must reject it; see solutions/kill_test.go.
package lastdeltafromrecords
