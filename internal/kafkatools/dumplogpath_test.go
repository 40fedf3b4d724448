package kafkatools_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster/defaultworld"
)

// kafka-dump-log on a path of the user's own machine says that it reads
// the simulated brokers' files, and how a real data directory is read; a
// missing file under /kafka-logs is only missing.
func TestDumpLogOfAPathOutsideTheBrokers(t *testing.T) {
	w, err := defaultworld.New(defaultworld.Seed)
	require.NoError(t, err)
	require.NoError(t, w.RunFor(2000))
	s := worldSession{w}
	for _, c := range []struct {
		files string
		hint  string // the path the hint names, "" for none
	}{
		{"/var/lib/kafka/data/orders-0/00000000000000000000.log", "/var/lib/kafka/data/orders-0/00000000000000000000.log"},
		{"orders-0/00000000000000000000.log", "orders-0/00000000000000000000.log"},
		{"/kafka-logs/../etc/orders-0/00000000000000000000.log", "/kafka-logs/../etc/orders-0/00000000000000000000.log"},
		{"/kafka-logs/orders-0/00000000000000000000.log,/tmp/orders-0/00000000000000000000.log", "/tmp/orders-0/00000000000000000000.log"},
		{"/kafka-logs/orders-0/00000000000000000042.log", ""},
	} {
		out, err := run(t, s, "kafka-dump-log --files "+c.files)
		require.Error(t, err, "%s:\n%s", c.files, out)
		got := ""
		for _, l := range strings.Split(out, "\n") {
			if p, _, ok := strings.Cut(l, " is not under /kafka-logs: "); ok {
				got = p
			}
		}
		if diff := cmp.Diff(c.hint, got); diff != "" {
			t.Errorf("kafka-dump-log --files %s: the path the hint names (-want +got):\n%s\n%s", c.files, diff, out)
		}
		if c.hint != "" && !strings.Contains(out, "go run ./cmd/kafkalive dump-log --files "+c.hint) {
			t.Errorf("kafka-dump-log --files %s does not say how to read a real directory:\n%s", c.files, out)
		}
	}
}
