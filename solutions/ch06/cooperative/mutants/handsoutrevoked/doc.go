// Package handsoutrevoked is a known-buggy cooperative-sticky assignment for
// the mutant bank of exercise ch06/cooperative: it hands a moving partition to
// its new owner at once, while its old owner still consumes it (no KIP-429
// withholding).
// The suite must reject it; see solutions/cooperative_bank_test.go.
package handsoutrevoked
