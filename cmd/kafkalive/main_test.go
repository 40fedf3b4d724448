package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// Flags given without a command go to the default command, so the README's
// "kafkalive --addr HOST:PORT" works; "help" and unknown commands still answer.
func TestFlagsWithoutACommandGoToTheDefault(t *testing.T) {
	var got []string
	register(command{name: "probe-default", summary: "test only", run: func(args []string, _, _ io.Writer) int {
		got = append([]string(nil), args...)
		return 7
	}})
	defer delete(commands, "probe-default")
	saved := defaultCommand
	defaultCommand = "probe-default"
	defer func() { defaultCommand = saved }()

	var out, errOut bytes.Buffer
	if code := run([]string{"--addr", "127.0.0.1:7171"}, &out, &errOut); code != 7 {
		t.Fatalf("kafkalive --addr ... exited %d, want the default command's 7; stderr: %s", code, errOut.String())
	}
	if strings.Join(got, " ") != "--addr 127.0.0.1:7171" {
		t.Errorf("the default command got %q, want the flags", got)
	}
	if code := run(nil, &out, &errOut); code != 7 || len(got) != 0 {
		t.Errorf("kafkalive with no arguments: exit %d, args %q; want the default command with none", code, got)
	}
	out.Reset()
	if code := run([]string{"help"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "Commands:") {
		t.Errorf("kafkalive help: exit %d, output %q", code, out.String())
	}
	errOut.Reset()
	if code := run([]string{"nope"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), `unknown command "nope"`) {
		t.Errorf("kafkalive nope: exit %d, stderr %q", code, errOut.String())
	}
}

// serve refuses limits that would serve nothing, before it starts a world.
func TestServeRefusesLimitsThatServeNothing(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--max-streams", "0"},
		{"serve", "--max-streams", "-3"},
		{"serve", "--exec-timeout", "0s"},
		{"serve", "--exec-timeout", "-1m"},
	} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "--max-streams takes a number from 1") {
			t.Errorf("kafkalive %s: exit %d, stderr %q; want 2 and why", strings.Join(args, " "), code, errOut.String())
		}
	}
}
