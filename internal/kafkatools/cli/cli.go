// Package cli gives kafkalive's subcommands one way to parse flags and print
// their usage: "Usage: kafkalive NAME ...", a paragraph about the command,
// and the flags as they are typed (--name VALUE). -h and --help print it to
// standard output and exit 0; a mistake prints the error and the usage to
// standard error and exits 2.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Usage is what a command's help says besides its flags.
type Usage struct {
	// Synopsis follows "Usage: kafkalive ", e.g. "play [NAME] [--auto]".
	Synopsis string
	// About is a paragraph or more on what the command does; may be empty.
	About string
}

// NewFlagSet returns a flag set that reports nothing itself: Parse does.
func NewFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// Print writes the usage and fs's flags to w.
func (u Usage) Print(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: kafkalive %s\n", u.Synopsis)
	if u.About != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(u.About, "\n"))
	}
	PrintFlags(w, fs)
}

// PrintFlags writes fs's flags as they are typed, sorted by name:
//
//	--addr HOST:PORT
//	      where to listen (default "127.0.0.1:7070")
//
// A flag's value name is the back-quoted word of its usage text, as in
// flag.UnquoteUsage. It writes nothing for a set without flags.
func PrintFlags(w io.Writer, fs *flag.FlagSet) {
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprintln(w, "\nFlags:")
			first = false
		}
		name, text := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if name != "" {
			line += " " + name
		}
		if def := defaultText(f); def != "" {
			text += " (default " + def + ")"
		}
		fmt.Fprintf(w, "%s\n      %s\n", line, strings.ReplaceAll(text, "\n", "\n      "))
	})
}

// defaultText is f's default as flag.PrintDefaults shows it, or "" for a
// zero value.
func defaultText(f *flag.Flag) string {
	switch f.DefValue {
	case "", "0", "false":
		return ""
	}
	if _, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && f.DefValue == "true" {
		return "true"
	}
	name, _ := flag.UnquoteUsage(f)
	if name == "string" || strings.ContainsAny(f.DefValue, " :/") {
		return fmt.Sprintf("%q", f.DefValue)
	}
	return f.DefValue
}

// Parse parses args into fs. On -h or --help it prints the usage to stdout
// and returns (0, false); on a mistake, the error and the usage to stderr
// and (2, false). Otherwise (0, true): go on.
func (u Usage) Parse(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	err := fs.Parse(args)
	return u.Check(fs, err, stdout, stderr)
}

// Check reports a parse error err as Parse does, for commands that parse in
// steps (flags between positional arguments).
func (u Usage) Check(fs *flag.FlagSet, err error, stdout, stderr io.Writer) (code int, ok bool) {
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, flag.ErrHelp):
		u.Print(stdout, fs)
		return 0, false
	default:
		u.Fail(fs, stderr, err.Error())
		return 2, false
	}
}

// Fail prints "kafkalive NAME: msg" and the usage to stderr, for a mistake
// found after parsing (a missing argument); the caller exits 2.
func (u Usage) Fail(fs *flag.FlagSet, stderr io.Writer, msg string) {
	fmt.Fprintf(stderr, "kafkalive %s: %s\n\n", fs.Name(), msg)
	u.Print(stderr, fs)
}
