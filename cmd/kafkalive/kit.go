package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/kafkalive/kafkalive/internal/kafkatools/cli"
	"github.com/kafkalive/kafkalive/internal/kit"
)

// kit runs the learner's exercises (go test -json ./exercises/... from the
// repository root) and prints one line per chapter, done, failing on which
// rule, or not started, and what to read next; then, per part, whether the
// live cluster (go run ./exercises/live) runs the learner's code or the
// reference, and why.

func init() {
	register(command{
		name:    "kit",
		summary: "run the exercises and show your progress through the chapters",
		run:     runKit,
	})
}

func runKit(args []string, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("kit")
	dir := fs.String("dir", ".", "a `DIR`ectory inside the kafkalive repository")
	live := fs.Bool("live", true, "also list which parts the live cluster runs as your code (go run ./exercises/live --list)")
	u := cli.Usage{Synopsis: "kit [--dir DIR] [--live=false]", About: "Runs go test -json ./exercises/... at the repository root and prints one line per\nchapter: done, failing on which rule, or not started; then, per part, \"your code\"\nor \"reference\" in the live cluster."}
	if code, ok := u.Parse(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		u.Fail(fs, stderr, "takes no arguments")
		return 2
	}
	root := kit.RepoRoot(absDir(*dir))
	if root == "" {
		fmt.Fprintf(stderr, "kafkalive kit: no go.work found in %s or above; run it inside the kafkalive repository\n", *dir)
		return 2
	}
	cmd := exec.Command("go", "test", "-json", "./exercises/...")
	cmd.Dir = root
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	runErr := cmd.Run()
	progress, err := summariseKit(&out)
	if err != nil || len(progress.exercises) == 0 {
		fmt.Fprintf(stderr, "kafkalive kit: go test gave nothing to summarise (%v, %v)\n%s", runErr, err, errOut.String())
		return 2
	}
	progress.render(stdout)
	if *live {
		lines, err := liveParts(root)
		renderLiveParts(stdout, lines, err)
	}
	return 0
}

func absDir(dir string) string {
	if dir == "." {
		if wd, err := os.Getwd(); err == nil {
			return wd
		}
	}
	return dir
}
