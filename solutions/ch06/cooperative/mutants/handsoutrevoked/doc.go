// Package handsoutrevoked is a known-buggy cooperative-sticky assignment for
// the mutant bank of exercise ch06/cooperative: it hands a moving partition
// to its new owner at once, while its old owner still consumes it (no
// KIP-429 withholding).
//
// Mistake: partitions that move are handed to their new owner at once, while
// the old owner still consumes them (the sticky target without KIP-429's
// withholding).
//
// Breaks: G2 (revoke before reassigning).
package handsoutrevoked
