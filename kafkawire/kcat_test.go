package kafkawire_test

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/kafkawire"
)

// TestKcat: kcat (librdkafka) lists the three brokers from one bootstrap
// address, produces keyed records with the idempotent producer and consumes
// them back from the beginning. Skipped when kcat is not installed.
func TestKcat(t *testing.T) {
	kcat, err := exec.LookPath("kcat")
	if err != nil {
		t.Skip("kcat is not installed (apt-get install -y kcat)")
	}
	srv, mem, sink := serve(t, kafkawire.Config{})
	mem.SetLeader(3)
	mem.CreateTopic("kc")
	bootstrap := srv.Addr(1).String()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	run := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, kcat, append([]string{"-b", bootstrap, "-X", "client.id=kcat-test"}, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("kcat %s: %v\nstderr:\n%s\nserver log:\n%s", strings.Join(args, " "), err, errb.String(), strings.Join(sink.all(), "\n"))
		}
		return out.String()
	}

	list := run("", "-L", "-t", "kc")
	for _, addr := range []string{srv.Addr(1).String(), srv.Addr(2).String(), srv.Addr(3).String()} {
		require.Contains(t, list, addr, "kcat -L lists every broker")
	}
	require.Contains(t, list, "partition 0, leader 3")

	in := "k1:hello\nk2:world\nk3:from kcat\n"
	run(in, "-P", "-t", "kc", "-K", ":", "-X", "enable.idempotence=true")
	got := run("", "-C", "-t", "kc", "-o", "beginning", "-e", "-f", "%k:%s@%o\n")
	want := "k1:hello@0\nk2:world@1\nk3:from kcat@2\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("consumed (-want +got):\n%s", diff)
	}
	require.NotEmpty(t, mem.Log("kc"))
}
