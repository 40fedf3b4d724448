// Package recordlengthcountsitself is a known-buggy batch encoder for the
// mutant bank of exercise ch01/batch: a record's length varint counts its
// own bytes too.
//
// Mistake: a record's length counts its own length varint; it counts only
// the bytes after it.
//
// Breaks: B1 (record layout).
package recordlengthcountsitself
