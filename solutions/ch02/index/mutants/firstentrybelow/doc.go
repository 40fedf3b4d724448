// Package firstentrybelow is a known-buggy index lookup for the mutant bank
// of exercise ch02/index: when the target is below the first entry it
// returns the first entry instead of (baseOffset, 0).
//
// Mistake: when the target is below the first entry it returns the first
// entry instead of (baseOffset, 0).
//
// Breaks: I2 (nothing below: (baseOffset, 0)).
package firstentrybelow
