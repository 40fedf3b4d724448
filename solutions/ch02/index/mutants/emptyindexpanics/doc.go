// Package emptyindexpanics is a known-buggy index lookup for the mutant bank
// of exercise ch02/index: it reads the first entry before it looks at how
// many there are.
//
// Mistake: the first entry is read before checking that there is one: an
// index with no entries and no bytes (a segment smaller than
// index.interval.bytes) makes the lookup read past the end and panic.
//
// Breaks: I6 (no panic).
package emptyindexpanics
