// Package keepszeropadding is a known-buggy recovery for the mutant bank of
// exercise ch04/recovery: zero padding is kept: a length of 0 is read as the
// end of the data, and the zeros stay in the file.
//
// Mistake: zero padding is kept: a length of 0 is read as the end of the
// data instead of corruption, and the zeros stay in the file.
//
// Breaks: C2 (length field).
package keepszeropadding
