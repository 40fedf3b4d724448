package main

import (
	"fmt"
	"io"
	"strings"
)

// goal is one performance goal on the median ratio of its family's subject
// (kafkalog; kafkalive for KgoProduce).
type goal struct {
	text     string // the goal as the issue states it
	family   string
	workload func(string) bool
	ratio    func(*samples) []float64 // per-round ratios the goal bounds
	max      float64                  // the median ratio must be at most this
}

func xPeer(s *samples) []float64  { return s.xPeer }
func xFloor(s *samples) []float64 { return s.xFloor }
func valueIs(v string) func(string) bool {
	return func(w string) bool { return strings.HasSuffix(w, "/value="+v) }
}
func anyWorkload(string) bool { return true }

// goals are the codec's goals and the log's goals, then the floor
// ratios they were derived from: the ratios to
// kmsg assume kmsg costs what it cost there, the floor ratios do not.
var goals = []goal{
	{"encode ≤ 0.75x kmsg at 100 B values", "Encode", valueIs("100"), xPeer, 0.75},
	{"encode ≤ 0.9x kmsg at 1 KiB values", "Encode", valueIs("1024"), xPeer, 0.9},
	{"decode ≤ 0.75x kmsg at 100 B values", "Decode", valueIs("100"), xPeer, 0.75},
	{"decode ≥ 60% of CRC-32C bandwidth at 1 KiB (x limit-crc ≤ 1.667)", "Decode", valueIs("1024"), xFloor, 1 / 0.6},
	{"encode x limit-copycrc ≤ 2.2 at 100 B values (the level of a hand-written encoder over the standard library)", "Encode", valueIs("100"), xFloor, 2.2},
	{"encode x limit-copycrc ≤ 1.45 at 1 KiB values", "Encode", valueIs("1024"), xFloor, 1.45},
	{"decode x limit-crc ≤ 5.5 at 100 B values", "Decode", valueIs("100"), xFloor, 5.5},
	{"decode never slower than kmsg", "Decode", anyWorkload, xPeer, 1},
	{"append 16 KiB batches ≥ 0.8x a raw write loop (x limit-write ≤ 1.25)", "Append", anyWorkload, xFloor, 1.25},
	{"offset index lookup ≤ 1.5x a plain binary search", "IndexLookup", anyWorkload, xFloor, 1.5},
	{"recovery ≤ 1.25x read + CRC of the segment", "Recovery", anyWorkload, xFloor, 1.25},
	// ns/op is wall-clock time per record: x kfake ≤ 1 is at least
	// kfake's records a second
	{"kgo produces into the live cluster at least as fast as into kfake (x kfake ≤ 1)", "KgoProduce", anyWorkload, xPeer, 1},
}

// checkGoals writes one line per goal with its subject's worst median over
// the goal's workloads, and one line for allocations; it returns how many
// missed.
func checkGoals(w io.Writer, t *table) int {
	fmt.Fprintf(w, "\n### Goals (the worst median ratio over the goal's workloads)\n\n")
	missed := 0
	for _, g := range goals {
		worst, where := -1.0, ""
		for _, b := range t.familyBenches(g.family) {
			s := b.by[subjectOf(g.family)]
			if s == nil || !g.workload(b.workload) || len(g.ratio(s)) == 0 {
				continue
			}
			if m := median(g.ratio(s)); m > worst {
				worst, where = m, b.workload
			}
		}
		if worst < 0 {
			fmt.Fprintf(w, "- [not run] %s\n", g.text)
			continue
		}
		verdict := "met"
		if worst > g.max {
			verdict, missed = "MISSED", missed+1
		}
		fmt.Fprintf(w, "- [%s] %s: worst %.2f at %s\n", verdict, g.text, worst, orDash(where))
	}
	return missed + checkAllocs(w, t)
}

// checkAllocs reports every kafkalog encode or decode benchmark that allocated
// in any round; the goal is 0 allocs/op on both paths.
func checkAllocs(w io.Writer, t *table) int {
	var bad []string
	ran := false
	for _, b := range t.benches {
		s := b.by[subjectImpl]
		if s == nil || (b.family != "Encode" && b.family != "Decode") {
			continue
		}
		ran = true
		for _, a := range s.allocs {
			if a > 0 {
				bad = append(bad, fmt.Sprintf("%s/%s (%g)", b.family, b.workload, a))
				break
			}
		}
	}
	switch {
	case !ran:
		fmt.Fprintf(w, "- [not run] 0 allocs/op on the encode and decode paths\n")
		return 0
	case len(bad) > 0:
		fmt.Fprintf(w, "- [MISSED] 0 allocs/op on the encode and decode paths: %s\n", strings.Join(bad, ", "))
		return 1
	}
	fmt.Fprintf(w, "- [met] 0 allocs/op on the encode and decode paths\n")
	return 0
}
