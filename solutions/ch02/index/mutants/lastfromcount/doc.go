// Package lastfromcount is a known-buggy index lookup for the mutant bank of exercise
// ch02/index: the scan takes a batch's last offset to be baseOffset +
// recordsCount - 1, as if offsets were dense; after compaction a batch keeps
// its lastOffsetDelta with fewer records, and an empty batch has none.
// The suite must reject it; see solutions/kill_test.go.
package lastfromcount
