package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

func TestParseLine(t *testing.T) {
	cases := []struct {
		line   string
		want   result
		wantOK bool
	}{
		{
			line:   "BenchmarkEncode/records=100/value=1024/impl=kafkalog-2   \t   18315\t     13398 ns/op\t7839.71 MB/s\t       0 B/op\t       0 allocs/op",
			want:   result{family: "Encode", workload: "records=100/value=1024", impl: "kafkalog", nsPerOp: 13398, mbPerSec: 7839.71, allocs: 0, bytesOp: 0},
			wantOK: true,
		},
		{
			line:   "BenchmarkCRC32C/size=1KiB/impl=limit-memcpy-2 9712269 24.97 ns/op",
			want:   result{family: "CRC32C", workload: "size=1KiB", impl: "limit-memcpy", nsPerOp: 24.97, allocs: -1, bytesOp: -1},
			wantOK: true,
		},
		{
			line:   "BenchmarkPlain-16 100 5.5 ns/op 3 B/op 1 allocs/op",
			want:   result{family: "Plain", impl: "-", nsPerOp: 5.5, allocs: 1, bytesOp: 3},
			wantOK: true,
		},
		{line: "BenchmarkEncode/records=1/value=100/impl=kafkalog", wantOK: false},
	}
	for _, c := range cases {
		got, ok, err := parseLine(c.line)
		require.NoError(t, err, c.line)
		if diff := cmp.Diff(c.wantOK, ok); diff != "" {
			t.Errorf("parseLine(%q) ok (-want +got):\n%s", c.line, diff)
		}
		if !ok {
			continue
		}
		if diff := cmp.Diff(c.want, got, cmp.AllowUnexported(result{})); diff != "" {
			t.Errorf("parseLine(%q) (-want +got):\n%s", c.line, diff)
		}
	}
}

func TestParseLineBadNumber(t *testing.T) {
	_, _, err := parseLine("BenchmarkX/impl=a-2 10 1.2.3 ns/op")
	require.Error(t, err)
}

func TestParseOutputSkipsOtherLines(t *testing.T) {
	out := "goos: linux\nBenchmarkA/w=1/impl=kmsg-2 10 100 ns/op\nBenchmarkA/w=1/impl=kafkalog\nPASS\nok x 1s\n"
	rs, err := parseOutput(strings.NewReader(out))
	require.NoError(t, err)
	want := []result{{family: "A", workload: "w=1", impl: "kmsg", nsPerOp: 100, allocs: -1, bytesOp: -1}}
	if diff := cmp.Diff(want, rs, cmp.AllowUnexported(result{})); diff != "" {
		t.Errorf("parseOutput (-want +got):\n%s", diff)
	}
}

func TestOnCPU(t *testing.T) {
	r, ok, err := parseLine("BenchmarkA/w=1/impl=kafkalog-2 100 200 ns/op 50.0 MB/s 100 cpu-ns/op 0 B/op 0 allocs/op")
	require.NoError(t, err)
	require.True(t, ok)
	got, ok := r.onCPU()
	require.True(t, ok)
	want := result{family: "A", workload: "w=1", impl: "kafkalog", nsPerOp: 100, cpuNs: 100, mbPerSec: 100, allocs: 0, bytesOp: 0}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(result{})); diff != "" {
		t.Errorf("onCPU: half the CPU time of the wall time doubles MB/s (-want +got):\n%s", diff)
	}
	if _, ok := (result{nsPerOp: 5}).onCPU(); ok {
		t.Errorf("onCPU of a result without cpu-ns/op reported ok")
	}
}
