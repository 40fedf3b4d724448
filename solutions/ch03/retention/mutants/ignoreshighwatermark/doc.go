// Package ignoreshighwatermark is a known-buggy retention rule for the
// mutant bank of exercise ch03/retention: the high watermark is not checked.
//
// Mistake: the high watermark is ignored: segments with offsets the
// followers may not have yet are deleted.
//
// Breaks: R4 (high watermark).
package ignoreshighwatermark
