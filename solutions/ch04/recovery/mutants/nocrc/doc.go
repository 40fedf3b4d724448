// Package nocrc is a known-buggy recovery for the mutant bank of exercise
// ch04/recovery: the CRC is not checked.
//
// Mistake: the CRC is not checked, so a damaged batch is kept.
//
// Breaks: C3 (CRC-32C).
package nocrc
