package main

import (
	"bytes"
	"net"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// singleDash is a flag shown as Go's flag package prints it (-addr) instead
// of as it is typed (--addr).
var singleDash = regexp.MustCompile(`(?m)^\s+-[a-z]`)

// TestEveryCommandHelps: "kafkalive NAME --help" (and -h) exits 0 and prints
// "Usage: kafkalive NAME ..." to stdout with the flags as typed; an unknown
// flag exits 2 with the usage on stderr. Every registered command, so a new
// one is held to it too.
func TestEveryCommandHelps(t *testing.T) {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, h := range []string{"--help", "-h"} {
			var out, errOut bytes.Buffer
			code := run([]string{name, h}, &out, &errOut)
			if code != 0 {
				t.Errorf("kafkalive %s %s: exit %d, want 0 (stderr %q)", name, h, code, errOut.String())
			}
			if !strings.HasPrefix(out.String(), "Usage: kafkalive "+name) {
				t.Errorf("kafkalive %s %s: stdout starts %q, want \"Usage: kafkalive %s ...\"", name, h, firstLine(out.String()), name)
			}
			if singleDash.MatchString(out.String()) {
				t.Errorf("kafkalive %s %s: flags shown with one dash, not as typed:\n%s", name, h, out.String())
			}
			if errOut.Len() > 0 {
				t.Errorf("kafkalive %s %s: wrote to stderr: %q", name, h, errOut.String())
			}
		}
		var out, errOut bytes.Buffer
		if code := run([]string{name, "--no-such-flag"}, &out, &errOut); code != 2 {
			t.Errorf("kafkalive %s --no-such-flag: exit %d, want 2", name, code)
		}
		if !strings.Contains(errOut.String(), "Usage: kafkalive "+name) {
			t.Errorf("kafkalive %s --no-such-flag: stderr has no usage: %q", name, errOut.String())
		}
	}
}

// A port already taken says so and how to choose another, and exits 1.
func TestServeOnATakenPortSaysWhatToDo(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var out, errOut bytes.Buffer
	if code := run([]string{"serve", "--addr", ln.Addr().String()}, &out, &errOut); code != 1 {
		t.Fatalf("serve on a taken port: exit %d, want 1; stderr %q", code, errOut.String())
	}
	if !strings.Contains(errOut.String(), "choose another with --addr") {
		t.Errorf("serve on a taken port: stderr %q does not say how to choose another", errOut.String())
	}
}
