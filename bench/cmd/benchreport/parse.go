package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// result is one benchmark line of `go test -bench` output.
type result struct {
	family   string  // "Encode"
	workload string  // "records=100/value=1024"
	impl     string  // "kafkalog"
	nsPerOp  float64 // wall-clock
	cpuNs    float64 // process CPU time per op (cpu-ns/op), 0 when not reported
	mbPerSec float64 // 0 when the benchmark sets no bytes
	allocs   float64 // -1 when not reported
	bytesOp  float64 // -1 when not reported
}

// key names the benchmark the result belongs to, without the impl.
func (r result) key() string { return r.family + "/" + r.workload }

// parseOutput reads the benchmark lines of one round's output; other lines
// (PASS, goos, log output) are skipped.
func parseOutput(rd io.Reader) ([]result, error) {
	var out []result
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		r, ok, err := parseLine(line)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, r)
		}
	}
	return out, sc.Err()
}

// parseLine parses "BenchmarkX/a=1/impl=y-2  100  12.5 ns/op  80.1 MB/s  0 B/op  0 allocs/op".
// ok is false for a line that is not a result (a benchmark's name printed alone).
func parseLine(line string) (r result, ok bool, err error) {
	f := strings.Fields(line)
	if len(f) < 4 || f[3] != "ns/op" {
		return r, false, nil
	}
	name := strings.TrimPrefix(stripProcs(f[0]), "Benchmark")
	family, rest, _ := strings.Cut(name, "/")
	workload, impl, found := strings.Cut(rest, "/impl=")
	if !found {
		workload, impl = strings.TrimSuffix(rest, "/"), "-"
		if after, isImpl := strings.CutPrefix(rest, "impl="); isImpl {
			workload, impl = "", after
		}
	}
	r = result{family: family, workload: workload, impl: impl, allocs: -1, bytesOp: -1}
	for i := 2; i+1 < len(f); i += 2 {
		v, perr := strconv.ParseFloat(f[i], 64)
		if perr != nil {
			return r, false, fmt.Errorf("benchreport: %q: value %q: %w", line, f[i], perr)
		}
		switch f[i+1] {
		case "ns/op":
			r.nsPerOp = v
		case "cpu-ns/op":
			r.cpuNs = v
		case "MB/s":
			r.mbPerSec = v
		case "allocs/op":
			r.allocs = v
		case "B/op":
			r.bytesOp = v
		}
	}
	return r, true, nil
}

// stripProcs removes the "-2" GOMAXPROCS suffix go test adds to a name.
func stripProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return name
	}
	if _, err := strconv.Atoi(name[i+1:]); err != nil {
		return name
	}
	return name[:i]
}

// onCPU returns r measured by CPU time instead of wall-clock time: ns/op becomes
// cpu-ns/op and MB/s is scaled to it. ok is false if r has no CPU time.
func (r result) onCPU() (result, bool) {
	if r.cpuNs <= 0 {
		return r, false
	}
	if r.mbPerSec > 0 {
		r.mbPerSec *= r.nsPerOp / r.cpuNs
	}
	r.nsPerOp = r.cpuNs
	return r, true
}
