// Package trustszeropadding is a known-buggy index lookup for the mutant
// bank of exercise ch02/index: it counts the entries from the file length,
// so the zero-filled slots of a preallocated index are read as entries.
//
// Mistake: it trusts the zero-filled slots of a preallocated index as
// entries (offset baseOffset, position 0).
//
// Breaks: I4 (only the valid entries).
package trustszeropadding
