// Package maxforall is a known-buggy cooperative-sticky assignment for the
// mutant bank of exercise ch06/cooperative: it lets every member that owns
// maxQuota keep it, not only P mod N of them.
// The suite must reject it; see solutions/cooperative_bank_test.go.
package maxforall
