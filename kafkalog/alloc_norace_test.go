//go:build !race

package kafkalog

// raceEnabled is false in ordinary test builds (see alloc_race_test.go).
const raceEnabled = false
