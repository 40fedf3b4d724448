// Command kafkalive shows what Apache Kafka does with your bytes.
//
// Usage:
//
//	kafkalive <command> [flags]
//
// Run "kafkalive help" for the list of commands. Each command lives in its own
// file and adds itself to the table below from an init function.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand: "kafkalive NAME ...".
type command struct {
	name    string
	summary string // one line for "kafkalive help"
	// run executes the command with the arguments after its name, writing normal
	// output to stdout and diagnostics to stderr, and returns the exit code.
	run func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

// register adds c to the command table; called from init functions.
func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("kafkalive: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// defaultCommand runs when kafkalive is started with no arguments. The live
// cluster takes this over once it exists.
var defaultCommand = "help"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	name := defaultCommand
	switch {
	case len(args) == 0:
	case args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help":
		usage(stdout)
		return 0
	case strings.HasPrefix(args[0], "-"):
		// Flags with no command are the default command's: "kafkalive --addr :8080".
	default:
		name, args = args[0], args[1:]
	}
	if name == "help" {
		usage(stdout)
		return 0
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "kafkalive: unknown command %q\n\n", name)
		usage(stderr)
		return 2
	}
	return c.run(args, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "kafkalive shows what Apache Kafka does with your bytes.")
	fmt.Fprintln(w, "\nUsage: kafkalive <command> [flags]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"kafkalive <command> -h\" for a command's flags.")
}
