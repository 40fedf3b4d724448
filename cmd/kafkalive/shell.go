package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kafkalive/kafkalive/web"
)

// shell offers the page's terminal on stdin and stdout, without the page:
// the default world, Kafka's tools and the cluster's verbs. Time moves only
// with "run MS", so scripts are deterministic.

func init() {
	register(command{
		name:    "shell",
		summary: "the live cluster's terminal on stdin/stdout (kafka-topics, kill, run...)",
		run:     func(args []string, stdout, stderr io.Writer) int { return runShell(args, os.Stdin, stdout, stderr) },
	})
}

func runShell(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("shell", flag.ContinueOnError)
	fset.SetOutput(stderr)
	quiet := fset.Bool("q", false, "no prompt and no greeting (for scripts)")
	if err := fset.Parse(args); err != nil {
		return 2
	}
	live, err := web.NewLive()
	if err != nil {
		fmt.Fprintf(stderr, "kafkalive: %v\n", err)
		return 1
	}
	term := web.NewTerminal(live)
	if !*quiet {
		fmt.Fprintln(stdout, "kafkalive shell: the default cluster at t=0. Type help; \"run 1000\" moves time; Ctrl-D ends.")
	}
	in := bufio.NewScanner(stdin)
	code := 0
	for {
		if !*quiet {
			fmt.Fprint(stdout, "$ ")
		}
		if !in.Scan() {
			break
		}
		line := strings.TrimSpace(in.Text())
		if line == "exit" || line == "quit" {
			break
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		if err := term.Exec(line, nil, stdout); err != nil {
			code = 1
		}
	}
	if !*quiet {
		fmt.Fprintln(stdout)
	}
	return code
}
