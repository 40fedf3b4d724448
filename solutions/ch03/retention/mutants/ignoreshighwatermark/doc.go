// Package ignoreshighwatermark is a known-buggy retention rule for the mutant bank of exercise
// ch03/retention: the high watermark is not checked.
// The suite must reject it; see solutions/kill_test.go.
package ignoreshighwatermark
