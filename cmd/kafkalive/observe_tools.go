package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kafkalive/kafkalive/internal/kafkatools"
	"github.com/kafkalive/kafkalive/internal/kafkatools/observedtools"
	"github.com/kafkalive/kafkalive/observe"
)

// runObservedTool runs one of Kafka's read-only tools on a fresh poll of
// the observed cluster: 0 when it answered, 1 when it failed (the cluster
// did not answer, an unknown topic or group), 2 when it was mistyped or
// would change the cluster (refused: nothing is sent).
func runObservedTool(ctx context.Context, o *observe.Observer, words []string, stdout, stderr io.Writer) int {
	s := o.Poll(ctx)
	err := observedtools.Run(s, words, stdout)
	var printed kafkatools.Printed
	switch {
	case err == nil:
		return 0
	case errors.As(err, &printed):
		return 1
	case errors.Is(err, observedtools.ErrReadOnly), errors.Is(err, kafkatools.ErrUsage):
		fmt.Fprintf(stderr, "kafkalive observe: %v\n", err)
		return 2
	}
	fmt.Fprintf(stderr, "kafkalive observe: %v\n", err)
	return 1
}

// observedShell reads one tool's line at a time from in and answers each
// from a fresh poll, as the page's terminal does for the simulated
// cluster; exit, quit or the end of input ends. It returns 1 when any line
// failed or was refused.
func observedShell(ctx context.Context, o *observe.Observer, in io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintf(stdout, "kafkalive observe: read-only tools (%s); nothing that changes the cluster is sent\n", strings.Join(observedToolNames(), ", "))
	r := bufio.NewReader(in)
	code := 0
	for n := 1; ctx.Err() == nil; n++ {
		raw, err := r.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			fmt.Fprintf(stderr, "kafkalive observe: reading line %d: %v\n", n, err)
			return 1
		}
		line := strings.TrimSpace(raw)
		if line == "exit" || line == "quit" || raw == "" && err != nil {
			break
		}
		if line != "" && !strings.HasPrefix(line, "#") {
			words, werr := kafkatools.SplitLine(line)
			if werr == nil && len(words) > 0 && (words[0] == "help" || words[0] == "?") {
				for _, t := range observedtools.Tools() {
					fmt.Fprintf(stdout, "  %s\n      %s\n", t.Usage, t.Help)
				}
			} else if werr != nil {
				fmt.Fprintf(stderr, "kafkalive observe: line %d: %v\n", n, werr)
				code = 1
			} else if c := runObservedTool(ctx, o, words, stdout, stderr); c != 0 {
				fmt.Fprintf(stderr, "kafkalive observe: line %d (%s) failed\n", n, brief(line))
				code = 1
			}
		}
		if err != nil {
			break
		}
	}
	return code
}

func observedToolNames() []string {
	var out []string
	for _, t := range observedtools.Tools() {
		out = append(out, t.Name)
	}
	return out
}
