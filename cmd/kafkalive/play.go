package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kafkalive/kafkalive/internal/kafkatools/cli"
	"github.com/kafkalive/kafkalive/scenarios"
)

// play lists the guided scenarios and plays one in the terminal: each step
// is narrated, a question asked and a guess read from stdin, then the step
// is played on the simulated cluster and what happened is shown. The state
// and every outcome come from the simulation (package scenarios checks them
// against the reference tables).

func init() {
	register(command{
		name:    "play",
		summary: "list the guided scenarios, or play one step by step (KIP-101, acks, unclean election, consumer groups, retention)",
		run:     runPlay,
	})
}

// playInput is where guesses are read from (tests replace it).
var playInput io.Reader = os.Stdin

type playOptions struct {
	auto, json bool
	seed       uint64
}

func runPlay(args []string, stdout, stderr io.Writer) int {
	fset := cli.NewFlagSet("play")
	var o playOptions
	fset.BoolVar(&o.auto, "auto", false, "play without pauses: no questions asked, the answers shown")
	fset.BoolVar(&o.json, "json", false, "print the JSON state after each step, one object per line (implies --auto); without NAME, the list")
	fset.Uint64Var(&o.seed, "seed", 0, "seed `N` of the world's random generator (0: the scenario's own)")
	u := cli.Usage{Synopsis: "play [NAME] [--auto] [--json] [--seed N]", About: `Without NAME, lists the scenarios. With NAME, plays it: each step is narrated,
a question asked (type the number of your guess), then the step is played on the
simulated cluster and the new state shown, changed lines marked with >.
End of input plays on as --auto.`}
	names, err := parseInterleaved(fset, args)
	if code, ok := u.Check(fset, err, stdout, stderr); !ok {
		return code
	}
	if len(names) > 1 {
		u.Fail(fset, stderr, fmt.Sprintf("one scenario at a time (got %s)", strings.Join(names, ", ")))
		return 2
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	if len(names) == 0 {
		return listScenarios(out, stderr, o.json)
	}
	sc, err := scenarios.Get(names[0])
	if err != nil {
		fmt.Fprintf(stderr, "kafkalive: %v (run \"kafkalive play\" for the list)\n", err)
		return 2
	}
	if o.json {
		return playJSON(sc, o, out, stderr)
	}
	p := &player{sc: sc, opts: o, out: out, in: bufio.NewReader(playInput), color: isTerminal(stdout)}
	return p.play(stderr)
}

// isTerminal reports whether w is a terminal that takes colours (not when
// NO_COLOR is set, https://no-color.org).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("NO_COLOR") != "" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// parseInterleaved parses flags that may come before or after the
// positional arguments.
func parseInterleaved(fset *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fset.Parse(args); err != nil {
			return nil, err
		}
		if fset.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fset.Arg(0))
		args = fset.Args()[1:]
	}
}

func listScenarios(out io.Writer, stderr io.Writer, asJSON bool) int {
	all, err := scenarios.All()
	if err != nil {
		fmt.Fprintf(stderr, "kafkalive: %v\n", err)
		return 1
	}
	if asJSON {
		return listJSON(all, out, stderr)
	}
	fmt.Fprintln(out, "Guided scenarios (kafkalive play NAME [--auto]):")
	group := ""
	for _, sc := range all {
		if sc.Group != group {
			group = sc.Group
			fmt.Fprintf(out, "\n%s\n", scenarios.GroupTitles[group])
		}
		fmt.Fprintf(out, "  %-26s %s\n", sc.Name, sc.Title)
	}
	return 0
}

// scenarioJSON is one line of "play --json" without a name: what the web
// page lists.
type scenarioJSON struct {
	Name     string   `json:"name"`
	Group    string   `json:"group"`
	Title    string   `json:"title"`
	Summary  string   `json:"summary"`
	Source   string   `json:"source"`
	Steps    []string `json:"steps"`
	Branches []string `json:"branches,omitempty"`
}

func listJSON(all []*scenarios.Scenario, out io.Writer, stderr io.Writer) int {
	for _, sc := range all {
		line := scenarioJSON{Name: sc.Name, Group: sc.Group, Title: sc.Title, Summary: sc.Summary, Source: sc.Source}
		for _, st := range sc.Steps {
			line.Steps = append(line.Steps, st.ID)
		}
		for _, b := range sc.Branches {
			line.Branches = append(line.Branches, b.Name)
		}
		b, err := json.Marshal(line)
		if err != nil {
			fmt.Fprintf(stderr, "kafkalive: %v\n", err)
			return 1
		}
		fmt.Fprintf(out, "%s\n", b)
	}
	return 0
}

// playJSON prints one line per step: the step and the state after it.
func playJSON(sc *scenarios.Scenario, o playOptions, out io.Writer, stderr io.Writer) int {
	r, err := scenarios.NewRun(sc, o.seed)
	if err != nil {
		fmt.Fprintf(stderr, "kafkalive: %v\n", err)
		return 1
	}
	code := 0
	for {
		st, err := r.Next()
		if errors.Is(err, scenarios.ErrDone) {
			return code
		}
		if err != nil {
			fmt.Fprintf(stderr, "kafkalive: %v\n", err)
			return 1
		}
		line := struct {
			Scenario string `json:"scenario"`
			Branch   string `json:"branch,omitempty"`
			Step     string `json:"step"`
			Title    string `json:"title"`
			State    any    `json:"state"`
			Mismatch int    `json:"reference_mismatches"`
		}{sc.Name, st.InBranch, st.Step.ID, st.Step.Title, st.After, len(st.Failed())}
		if line.Mismatch > 0 {
			code = 1
		}
		b, err := json.Marshal(line)
		if err != nil {
			fmt.Fprintf(stderr, "kafkalive: %v\n", err)
			return 1
		}
		fmt.Fprintf(out, "%s\n", b)
	}
}

// wrap breaks text into lines of at most width columns.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
