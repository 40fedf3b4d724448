// Package strictlyless is a known-buggy index lookup for the mutant bank of exercise
// ch02/index: it looks for the largest offset < target, missing exact hits.
// The suite must reject it; see solutions/kill_test.go.
package strictlyless
