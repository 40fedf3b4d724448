// Package swappedfields is a known-buggy index lookup for the mutant bank of exercise
// ch02/index: it reads the entry's fields in the wrong order.
// The suite must reject it; see solutions/kill_test.go.
package swappedfields
