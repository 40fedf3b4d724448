//go:build race

package kafkalog

// raceEnabled: the race detector's instrumentation allocates on its own, so
// allocation counts are not asserted under -race.
const raceEnabled = true
