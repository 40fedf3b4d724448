// Package keepszeropadding is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: zero padding is kept: a length of 0 is read as the end
// of the data, and the zeros stay in the file.
// The suite must reject it; see solutions/kill_test.go.
package keepszeropadding
