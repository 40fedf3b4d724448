package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestShellRunsTheTerminalOnStdin(t *testing.T) {
	in := strings.NewReader("# a comment\nkafka-topics --describe --topic profiles\nkill 2\nfrobnicate\nexit\nkafka-topics --list\n")
	var out, errb bytes.Buffer
	code := runShell([]string{"-q"}, in, &out, &errb)
	want := "Topic: profiles\tTopicId: PnzVtJSSRMmgD1PGp0A6XQ\tPartitionCount: 1\tReplicationFactor: 3\tConfigs: \n" +
		"\tTopic: profiles\tPartition: 0\tLeader: 1\tReplicas: 1,2,3\tIsr: 1,2,3\n" +
		"t=0 b2 kill 2\n" +
		"t=0 b2 killed (page cache survives)\n" +
		"frobnicate: command not found (type help)\n"
	if out.String() != want {
		t.Fatalf("kafkalive shell printed\n%s\nwant\n%s", out.String(), want)
	}
	if code != 1 {
		t.Errorf("kafkalive shell exited %d after a command that failed, want 1", code)
	}
}

func TestServeIsTheDefaultCommand(t *testing.T) {
	if defaultCommand != "serve" {
		t.Fatalf("kafkalive with no arguments runs %q, want serve", defaultCommand)
	}
	var out, errb bytes.Buffer
	if code := runServe([]string{"--addr", "256.0.0.1:1"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "kafkalive:") {
		t.Fatalf("serve on a bad address: exit %d, stderr %q; want exit 1 and the error", code, errb.String())
	}
}
