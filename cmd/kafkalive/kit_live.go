package main

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// livePartsCommand is how kit asks which parts of the learner's code the live
// cluster runs: exercises/live prints one line per part (part, "your code" or
// "reference", where the world uses it, and why the reference runs) and exits.
var livePartsCommand = []string{"go", "run", "./exercises/live", "--list"}

// liveParts runs livePartsCommand in root and returns its lines, or why it
// could not tell.
func liveParts(root string) (lines []string, err error) {
	cmd := exec.Command(livePartsCommand[0], livePartsCommand[1:]...)
	cmd.Dir = root
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %w: %s", strings.Join(livePartsCommand, " "), err, firstLine(errOut.String()))
	}
	return parseLiveParts(out.String()), nil
}

// parseLiveParts keeps the lines of exercises/live --list that name a part
// (they start with the exercise, "chNN/").
func parseLiveParts(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "ch") && strings.Contains(l, "/") {
			lines = append(lines, strings.TrimRight(l, " "))
		}
	}
	return lines
}

// renderLiveParts prints which parts run the learner's code in the live
// cluster, each part's line as exercises/live prints it.
func renderLiveParts(w io.Writer, lines []string, err error) {
	fmt.Fprintln(w, "\nin the live cluster (go run ./exercises/live):")
	if err != nil {
		fmt.Fprintf(w, "  cannot tell: %v\n", err)
		return
	}
	yours := 0
	for _, l := range lines {
		if f := strings.Fields(l); len(f) >= 3 && f[1] == "your" && f[2] == "code" {
			yours++
		}
		fmt.Fprintln(w, "  "+l)
	}
	fmt.Fprintf(w, "  %d of %d parts run your code\n", yours, len(lines))
}
