package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

type options struct {
	rounds    int
	bench     string
	benchtime string
	dir       string
	from      string
	save      string
	metric    string
	separate  []string
	extra     []string // arguments after --, for the test binary
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("benchreport", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.rounds, "rounds", 5, "rounds; each round is one process running every benchmark once")
	fs.StringVar(&o.bench, "bench", ".", "benchmarks to run (go test -bench regexp)")
	fs.StringVar(&o.benchtime, "benchtime", "1s", "go test -benchtime for every benchmark")
	fs.StringVar(&o.dir, "dir", ".", "the bench module's directory")
	fs.StringVar(&o.from, "from", "", "comma-separated files of saved `go test -bench` output, one per round, to report on instead of running")
	fs.StringVar(&o.save, "save", "", "directory to save each round's raw output in (round-N.txt)")
	fs.StringVar(&o.metric, "metric", "wall", "what a time is: wall (ns/op, bench/README.md's method) or cpu (the process's CPU time per op, steadier on a shared machine)")
	separate := fs.String("separate", "", "comma-separated `implementations` to run each in a process of its own, in an order that rotates every round (the benchmarks must honour the bench module's -bench.impl flag, as KgoProduce does): no implementation runs in memory another faulted in or after another's garbage")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	o.extra = fs.Args()
	if *separate != "" {
		for _, impl := range strings.Split(*separate, ",") {
			if impl = strings.TrimSpace(impl); impl == "" || slices.Contains(o.separate, impl) {
				return o, fmt.Errorf("benchreport: -separate %q: want distinct, non-empty implementation names", *separate)
			}
			o.separate = append(o.separate, impl)
		}
	}
	if o.metric != "wall" && o.metric != "cpu" {
		return o, fmt.Errorf("benchreport: -metric %q: want wall or cpu", o.metric)
	}
	if o.rounds < 1 {
		return o, fmt.Errorf("benchreport: -rounds %d: need at least 1", o.rounds)
	}
	return o, nil
}

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	outputs, err := collect(o, stderr)
	if err != nil {
		return err
	}
	var rounds [][]result
	for i, out := range outputs {
		rs, err := parseOutput(bytes.NewReader(out))
		if err != nil {
			return err
		}
		if o.metric == "cpu" {
			if rs, err = onCPU(rs); err != nil {
				return err
			}
		}
		if len(rs) == 0 {
			return fmt.Errorf("benchreport: round %d printed no benchmark results", i+1)
		}
		rounds = append(rounds, rs)
	}
	t := aggregate(rounds)
	t.metric = o.metric
	render(stdout, t)
	if missed := checkGoals(stdout, t); missed > 0 {
		fmt.Fprintf(stdout, "\n%d goal(s) missed.\n", missed)
	}
	return nil
}

// collect returns each round's raw output: read from -from files, or produced by
// building the test binary once and running it -rounds times.
func collect(o options, stderr io.Writer) ([][]byte, error) {
	if o.from != "" {
		var outs [][]byte
		for _, name := range strings.Split(o.from, ",") {
			b, err := os.ReadFile(name)
			if err != nil {
				return nil, fmt.Errorf("benchreport: %w", err)
			}
			outs = append(outs, b)
		}
		return outs, nil
	}
	if o.save != "" {
		// Made before the first round, so a bad -save fails at once, not after a round's minutes.
		if err := os.MkdirAll(o.save, 0o755); err != nil {
			return nil, fmt.Errorf("benchreport: -save: %w", err)
		}
	}
	tmp, err := os.MkdirTemp("", "benchreport")
	if err != nil {
		return nil, fmt.Errorf("benchreport: %w", err)
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "bench.test")
	build := exec.Command("go", "test", "-c", "-o", bin, ".")
	build.Dir, build.Stdout, build.Stderr = o.dir, stderr, stderr
	if err := build.Run(); err != nil {
		return nil, fmt.Errorf("benchreport: building the benchmarks in %s: %w", o.dir, err)
	}
	var outs [][]byte
	for i := 1; i <= o.rounds; i++ {
		fmt.Fprintf(stderr, "benchreport: round %d of %d\n", i, o.rounds)
		out, err := runRound(bin, o, i)
		if err != nil {
			return nil, fmt.Errorf("benchreport: round %d: %w\n%s", i, err, out)
		}
		if o.save != "" {
			if err := os.WriteFile(filepath.Join(o.save, fmt.Sprintf("round-%d.txt", i)), out, 0o644); err != nil {
				return nil, fmt.Errorf("benchreport: %w", err)
			}
		}
		outs = append(outs, out)
	}
	return outs, nil
}

// runRound runs every selected benchmark once: in one process, or with
// -separate one process an implementation, starting round i's order at the
// implementation i-1 places in (so that each goes first as often as any
// other).
func runRound(bin string, o options, i int) ([]byte, error) {
	args := append([]string{"-test.run", "^$", "-test.bench", o.bench, "-test.benchmem",
		"-test.benchtime", o.benchtime, "-test.count", "1"}, o.extra...)
	if len(o.separate) == 0 {
		return runBench(bin, o.dir, args)
	}
	var all []byte
	for j := range o.separate {
		impl := o.separate[(i-1+j)%len(o.separate)]
		out, err := runBench(bin, o.dir, append(args, "-bench.impl", "^"+regexp.QuoteMeta(impl)+"$"))
		if err != nil {
			return out, err
		}
		rs, err := parseOutput(bytes.NewReader(out))
		if err != nil {
			return out, err
		}
		if len(rs) == 0 {
			return out, fmt.Errorf("-separate: implementation %s ran no benchmark", impl)
		}
		for _, r := range rs {
			if r.impl != impl {
				return out, fmt.Errorf("-separate: asked for implementation %s alone, %s/impl=%s ran too (does the benchmark honour -bench.impl?)", impl, r.key(), r.impl)
			}
		}
		all = append(all, out...)
	}
	return all, nil
}

func runBench(bin, dir string, args []string) ([]byte, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	return cmd.Output()
}

// onCPU turns every result into its CPU-time form; every benchmark must have reported it.
func onCPU(rs []result) ([]result, error) {
	out := make([]result, len(rs))
	for i, r := range rs {
		c, ok := r.onCPU()
		if !ok {
			return nil, fmt.Errorf("benchreport: -metric cpu: %s/impl=%s reported no cpu-ns/op", r.key(), r.impl)
		}
		out[i] = c
	}
	return out, nil
}
