package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMedian(t *testing.T) {
	cases := []struct {
		in   []float64
		want float64
	}{
		{nil, -1},
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	}
	for _, c := range cases {
		if diff := cmp.Diff(c.want, median(c.in)); diff != "" {
			t.Errorf("median(%v) (-want +got):\n%s", c.in, diff)
		}
	}
}

func res(family, workload, impl string, ns float64) result {
	return result{family: family, workload: workload, impl: impl, nsPerOp: ns, allocs: 0, bytesOp: 0}
}

// TestRatiosWithinRounds: ratios are taken within each round before the median,
// which differs from the ratio of medians when the machine drifts.
func TestRatiosWithinRounds(t *testing.T) {
	rounds := [][]result{
		{res("Encode", "w", "kafkalog", 60), res("Encode", "w", "kmsg", 100), res("Encode", "w", "limit-copycrc", 30)},
		{res("Encode", "w", "kafkalog", 140), res("Encode", "w", "kmsg", 200), res("Encode", "w", "limit-copycrc", 70)},
		{res("Encode", "w", "kafkalog", 90), res("Encode", "w", "kmsg", 100), res("Encode", "w", "limit-copycrc", 45)},
	}
	tb := aggregate(rounds)
	s := tb.byKey["Encode/w"].by["kafkalog"]
	if diff := cmp.Diff(0.7, median(s.xPeer)); diff != "" {
		t.Errorf("kafkalog x kmsg: median of 0.6, 0.7, 0.9 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(2.0, median(s.xFloor)); diff != "" {
		t.Errorf("kafkalog x floor: median of 2, 2, 2 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"kafkalog", "kmsg", "limit-copycrc"}, tb.byKey["Encode/w"].impls); diff != "" {
		t.Errorf("impl order (-want +got):\n%s", diff)
	}
}

func TestGoalsReportMissAndMet(t *testing.T) {
	rounds := [][]result{{
		res("Encode", "records=1/value=100", "kafkalog", 80), res("Encode", "records=1/value=100", "kmsg", 100),
		res("Encode", "records=1/value=1024", "kafkalog", 80), res("Encode", "records=1/value=1024", "kmsg", 100),
	}}
	rounds[0][0].allocs = 1
	var out bytes.Buffer
	missed := checkGoals(&out, aggregate(rounds))
	text := out.String()
	for _, want := range []string{
		"[MISSED] encode ≤ 0.75x kmsg at 100 B values: worst 0.80",
		"[met] encode ≤ 0.9x kmsg at 1 KiB values: worst 0.80",
		"[not run] recovery",
		"[MISSED] 0 allocs/op on the encode and decode paths: Encode/records=1/value=100 (1)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("goal report lacks %q:\n%s", want, text)
		}
	}
	if diff := cmp.Diff(2, missed); diff != "" {
		t.Errorf("goals missed (-want +got):\n%s", diff)
	}
}

func TestRenderTable(t *testing.T) {
	rounds := [][]result{{res("Decode", "records=1/value=100", "kafkalog", 50), res("Decode", "records=1/value=100", "kmsg", 100), res("Decode", "records=1/value=100", "limit-crc", 25)}}
	var out bytes.Buffer
	render(&out, aggregate(rounds))
	want := "| records=1/value=100 | 50.0 ns [2.00] | 100 ns [4.00] | 25.0 ns | 0.50 | 0 |"
	if !strings.Contains(out.String(), want) {
		t.Errorf("table lacks row %q:\n%s", want, out.String())
	}
}

func TestFormatNs(t *testing.T) {
	cases := map[float64]string{-1: "-", 5.25: "5.25 ns", 58.49: "58.5 ns", 911.4: "911 ns", 9999: "9999 ns",
		13398: "13.4 µs", 216516: "217 µs", 1004e6 / 1000: "1.00 ms", 1004e6: "1004 ms"}
	for ns, want := range cases {
		if diff := cmp.Diff(want, formatNs(ns)); diff != "" {
			t.Errorf("formatNs(%v) (-want +got):\n%s", ns, diff)
		}
	}
}
