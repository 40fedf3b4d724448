// Package keepshw is a known-buggy truncation for the mutant bank of
// exercise ch05/truncation: it leaves the high watermark above the new log
// end.
//
// Mistake: the high watermark is left above the new log end; it must become
// min(HW, LEO).
//
// Breaks: T6 (trim the epoch cache).
package keepshw
