package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// render writes one Markdown table per family: a row per workload, a column
// per implementation with median ns/op, MB/s and [x floor], then the
// subject's median ratio to the peer (kafkalog x kmsg; kafkalive x kfake for
// KgoProduce) and its allocations.
func render(w io.Writer, t *table) {
	fmt.Fprintf(w, "Medians of %d rounds; ratios are computed within each round, then the median is taken.\n", t.rounds)
	if t.metric == "cpu" {
		fmt.Fprintf(w, "Times are the process's CPU time per op (cpu-ns/op), not wall-clock time.\n")
	}
	fmt.Fprintf(w, "Cells: ns/op (MB/s) [x floor]. Compare ratios, not absolute figures, between runs.\n")
	for _, fam := range t.families() {
		benches := t.familyBenches(fam)
		impls := familyImpls(benches)
		subject, peer := subjectOf(fam), peerOf(fam)
		hasPeer := slices.Contains(impls, peer) && slices.Contains(impls, subject)
		fmt.Fprintf(w, "\n### %s\n\n| workload | %s |", fam, strings.Join(impls, " | "))
		if hasPeer {
			fmt.Fprintf(w, " %s x %s |", subject, peer)
		}
		fmt.Fprintf(w, " %s allocs/op |\n|---|%s", subject, strings.Repeat("---|", len(impls)))
		if hasPeer {
			fmt.Fprint(w, "---|")
		}
		fmt.Fprintln(w, "---|")
		for _, b := range benches {
			fmt.Fprintf(w, "| %s |", orDash(b.workload))
			for _, impl := range impls {
				fmt.Fprintf(w, " %s |", cellText(b, impl))
			}
			if hasPeer {
				fmt.Fprintf(w, " %s |", ratioText(b.by[subject], func(s *samples) []float64 { return s.xPeer }))
			}
			fmt.Fprintf(w, " %s |\n", allocsText(b.by[subject]))
		}
	}
}

func (t *table) familyBenches(fam string) []*bench {
	var bs []*bench
	for _, b := range t.benches {
		if b.family == fam {
			bs = append(bs, b)
		}
	}
	return bs
}

func familyImpls(benches []*bench) []string {
	var impls []string
	for _, b := range benches {
		for _, impl := range b.impls {
			if !slices.Contains(impls, impl) {
				impls = append(impls, impl)
			}
		}
	}
	return impls
}

func cellText(b *bench, impl string) string {
	s := b.by[impl]
	if s == nil {
		return "-"
	}
	txt := formatNs(median(s.ns))
	if mb := median(s.mb); mb > 0 {
		txt += fmt.Sprintf(" (%.0f)", mb)
	}
	if impl != b.floor() && len(s.xFloor) > 0 {
		txt += fmt.Sprintf(" [%.2f]", median(s.xFloor))
	}
	return txt
}

func ratioText(s *samples, pick func(*samples) []float64) string {
	if s == nil || len(pick(s)) == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", median(pick(s)))
}

func allocsText(s *samples) string {
	if s == nil || median(s.allocs) < 0 {
		return "-"
	}
	return fmt.Sprintf("%g", slices.Max(s.allocs))
}

// formatNs prints a duration in ns, µs or ms with three significant digits
// (more for values of 1000 and up in a unit).
func formatNs(ns float64) string {
	switch {
	case ns < 0:
		return "-"
	case ns >= 1e6:
		return threeDigits(ns/1e6) + " ms"
	case ns >= 1e4:
		return threeDigits(ns/1e3) + " µs"
	}
	return threeDigits(ns) + " ns"
}

func threeDigits(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
