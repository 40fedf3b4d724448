// Package flooronly is a known-buggy cooperative-sticky assignment for the
// mutant bank of exercise ch06/cooperative: it keeps only minQuota for a member
// that may keep maxQuota, while counting it at maxQuota.
// The suite must reject it; see solutions/cooperative_bank_test.go.
package flooronly
