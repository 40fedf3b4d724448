package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/kafkalive/kafkalive/internal/kafkatools/cli"
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

var shellUsage = cli.Usage{Synopsis: "shell [-q]", About: `Reads commands from standard input, one a line of any length, and runs them on
the default cluster at t=0, as the page's terminal does (type help for the list;
"run MS" moves the clock; # starts a comment; exit, quit or the end of input
ends). What a command prints goes to standard output; each line that fails (a
command mistyped, an action the cluster refuses, an internal error of the
simulation) is reported on standard error with its number, and the commands
after it still run.

Exit status: 0 when every line succeeded, 1 when any line failed (or the input
could not be read), 2 for a mistake in the flags.`}

func runShell(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := cli.NewFlagSet("shell")
	quiet := fset.Bool("q", false, "no prompt and no greeting (for scripts)")
	if code, ok := shellUsage.Parse(fset, args, stdout, stderr); !ok {
		return code
	}
	if fset.NArg() > 0 {
		shellUsage.Fail(fset, stderr, fmt.Sprintf("no arguments (got %s): the commands come on standard input", strings.Join(fset.Args(), " ")))
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
	in := bufio.NewReader(stdin)
	code, internal := 0, 0
	for n := 1; ; n++ {
		if !*quiet {
			fmt.Fprint(stdout, "$ ")
		}
		raw, err := in.ReadString('\n') // any length: a line is as long as it is
		if err != nil && !errors.Is(err, io.EOF) {
			fmt.Fprintf(stderr, "kafkalive shell: reading line %d: %v\n", n, err)
			code = 1
			break
		}
		if raw == "" && err != nil {
			break // the end of input
		}
		line := strings.TrimSpace(raw)
		if line == "exit" || line == "quit" {
			break
		}
		if line != "" && !strings.HasPrefix(line, "#") {
			if xerr := term.Exec(line, nil, stdout); xerr != nil {
				fmt.Fprintf(stderr, "kafkalive shell: line %d (%s) failed: %v\n", n, brief(line), xerr)
				code = 1
			}
			if ie := live.InternalError(); ie != nil && ie.Count > internal {
				internal = ie.Count
				fmt.Fprintf(stderr, "kafkalive shell: line %d (%s): internal error at t=%d ms: %s\n", n, brief(line), ie.TimeMs, ie.Error)
				code = 1
			}
		}
		if err != nil {
			break // the last line had no newline
		}
	}
	if !*quiet {
		fmt.Fprintln(stdout)
	}
	return code
}

// brief is a line as a report names it: its first 60 bytes and its size
// when longer.
func brief(line string) string {
	if len(line) <= 60 {
		return line
	}
	cut := 60
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... %d bytes", line[:cut], len(line))
}
