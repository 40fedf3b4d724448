// Package notaprefix is a known-buggy retention rule for the mutant bank of
// exercise ch03/retention: it counts every deletable segment instead of
// stopping at the first one it keeps.
//
// Mistake: segments are counted wherever they are, not as a prefix:
// retention stops at the first segment it keeps.
//
// Breaks: R7 (oldest first).
package notaprefix
