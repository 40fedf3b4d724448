package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/observe"
	"github.com/kafkalive/kafkalive/web"
)

// startLive serves the default live world's brokers on free loopback
// ports, as "kafkalive serve" does, and returns broker 1's address.
func startLive(t *testing.T) (*web.Live, string) {
	live, err := web.NewLive()
	require.NoError(t, err)
	ls, err := kafkaListeners("127.0.0.1:0", live.Brokers())
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ks, err := web.StartKafka(ctx, live, ls, nil)
	require.NoError(t, err)
	return live, ks.Addr(ks.Brokers()[0]).String()
}

// TestObserveOnceShowsTheWorld: "kafkalive observe --once --json" against
// the live cluster's listeners sees every partition with the leader, epoch,
// replicas and ISR the world's own state has, every broker up, and the
// quorum's leader the active controller; the table form names them too.
func TestObserveOnceShowsTheWorld(t *testing.T) {
	live, addr := startLive(t)
	var out, errOut bytes.Buffer
	code := run([]string{"observe", "--bootstrap", addr, "--once", "--json"}, &out, &errOut)
	require.Equal(t, 0, code, "stderr: %s", errOut.String())
	var s observe.Sample
	require.NoError(t, json.Unmarshal(out.Bytes(), &s), out.String())
	var st cluster.State
	require.NoError(t, live.Do(nil, func(w *cluster.World) error { st = w.State(); return nil }))
	type meta struct {
		Leader, Epoch int32
		Replicas, ISR []int32
	}
	want, got := map[string]meta{}, map[string]meta{}
	for _, p := range st.Partitions {
		want[p.Topic+"-"+itoa(p.Partition)] = meta{p.Leader, p.LeaderEpoch, p.Replicas, p.ISR}
	}
	internal := map[string]bool{}
	for _, tp := range s.Topics {
		internal[tp.Name] = tp.Internal
	}
	for _, p := range s.Partitions {
		if internal[p.Topic] {
			continue // __consumer_offsets: the world's State lists the users' topics
		}
		got[p.Topic+"-"+itoa(p.Partition)] = meta{p.Leader, p.LeaderEpoch, p.Replicas, p.ISR}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("partitions (-world +observed):\n%s", diff)
	}
	require.Len(t, s.Brokers, len(st.Brokers))
	for _, b := range s.Brokers {
		require.Equal(t, observe.BrokerUp, b.State, "broker %d", b.ID)
	}
	require.NotNil(t, s.Quorum)
	require.Equal(t, st.ActiveController, s.Quorum.LeaderID)
	require.Empty(t, s.Unanswered)

	out.Reset()
	code = run([]string{"observe", "--bootstrap", addr, "--once"}, &out, &errOut)
	require.Equal(t, 0, code, "stderr: %s", errOut.String())
	for _, line := range []string{"BROKER  STATE", "TOPIC ", "Not observable from outside the brokers:"} {
		require.Contains(t, out.String(), line)
	}
	for _, p := range st.Partitions {
		require.Contains(t, out.String(), p.Topic)
	}
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }

// TestObserveUnreachableSaysWhy: a bootstrap address where nothing
// listens ends a single poll with exit status 1 and says what to check.
func TestObserveUnreachableSaysWhy(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"observe", "--bootstrap", "127.0.0.1:1", "--once", "--poll-timeout", "500ms"}, &out, &errOut)
	require.Equal(t, 1, code)
	require.Contains(t, errOut.String(), "the cluster at 127.0.0.1:1 does not answer")
	require.Contains(t, errOut.String(), "nothing listens there")
	require.Empty(t, out.String())
}

// TestObserveRefusesBadFlags: flags that cannot work exit with status 2
// and a line naming the flag, before anything is sent.
func TestObserveRefusesBadFlags(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	require.NoError(t, os.WriteFile(empty, []byte("\n"), 0o600))
	notPEM := filepath.Join(dir, "ca.pem")
	require.NoError(t, os.WriteFile(notPEM, []byte("not a certificate"), 0o600))
	for _, tc := range []struct {
		args []string
		says string
	}{
		{nil, "no bootstrap broker"},
		{[]string{"--bootstrap", "localhost"}, `"localhost" is not HOST:PORT`},
		{[]string{"--bootstrap", "localhost:0"}, `port "0"`},
		{[]string{"--bootstrap", "localhost:9092", "--interval", "0s"}, "--interval 0s"},
		{[]string{"--bootstrap", "localhost:9092", "--polls", "-1"}, "--polls -1"},
		{[]string{"--bootstrap", "localhost:9092", "--sasl-mechanism", "GSSAPI", "--sasl-user", "u", "--sasl-password-file", empty}, "its first line is empty"},
		{[]string{"--bootstrap", "localhost:9092", "--sasl-mechanism", "PLAIN", "--sasl-user", "u"}, "needs --sasl-password-file"},
		{[]string{"--bootstrap", "localhost:9092", "--sasl-mechanism", "PLAIN", "--sasl-user", "u", "--sasl-password-file", filepath.Join(dir, "nope")}, "--sasl-password-file: open"},
		{[]string{"--bootstrap", "localhost:9092", "--tls-ca", notPEM}, "no PEM certificate"},
		{[]string{"--bootstrap", "localhost:9092", "--sasl-user", "u"}, "without --sasl-mechanism"},
	} {
		var out, errOut bytes.Buffer
		code := run(append([]string{"observe"}, tc.args...), &out, &errOut)
		require.Equal(t, 2, code, "%q: stderr %s", tc.args, errOut.String())
		require.Contains(t, errOut.String(), tc.says, "%q", tc.args)
	}
}

// TestObservedToolsAgreeWithTheWorldsTerminal: kafka-topics --describe run
// by the observer prints the partition lines the simulated cluster's own
// terminal prints (leaders, replicas, ISR), and a command that would change
// the cluster is refused (exit 2) and never reaches it.
func TestObservedToolsAgreeWithTheWorldsTerminal(t *testing.T) {
	live, addr := startLive(t)
	var out, errOut bytes.Buffer
	code := run([]string{"observe", "--bootstrap", addr, "kafka-topics", "--describe", "--exclude-internal"}, &out, &errOut)
	require.Equal(t, 0, code, "stderr: %s", errOut.String())
	var world bytes.Buffer
	require.NoError(t, web.NewTerminal(live).Exec("kafka-topics --describe --exclude-internal", nil, &world))
	require.NotEmpty(t, partitionLines(world.String()))
	// Kafka 4's Elr and LastKnownElr columns too, which the observer reads
	// with DescribeTopicPartitions
	if diff := cmp.Diff(partitionLines(world.String()), partitionLines(out.String())); diff != "" {
		t.Fatalf("partition lines (-world's terminal +observer's):\n%s", diff)
	}

	out.Reset()
	errOut.Reset()
	code = run([]string{"observe", "--bootstrap", addr, "kafka-topics", "--create", "--topic", "made-by-observer"}, &out, &errOut)
	require.Equal(t, 2, code)
	require.Contains(t, errOut.String(), "read-only")
	require.Empty(t, out.String())
	require.NoError(t, live.Do(nil, func(w *cluster.World) error {
		for _, tp := range w.Topics() {
			require.NotEqual(t, "made-by-observer", tp.Name)
		}
		return nil
	}))

	observeInput = strings.NewReader("help\nkafka-consumer-groups --list\nkafka-topics --delete --topic orders\nkafka-metadata-quorum --describe --status\n")
	defer func() { observeInput = os.Stdin }()
	out.Reset()
	errOut.Reset()
	code = run([]string{"observe", "--bootstrap", addr, "--shell"}, &out, &errOut)
	require.Equal(t, 1, code, "the refused line fails the shell")
	require.Contains(t, out.String(), "kafka-log-dirs --describe")
	require.Contains(t, out.String(), "LeaderId:")
	require.Contains(t, errOut.String(), "line 3 (kafka-topics --delete --topic orders) failed")
	require.NoError(t, live.Do(nil, func(w *cluster.World) error {
		require.NotEmpty(t, w.TopicPartitions("orders"), "orders deleted")
		return nil
	}))
}

// partitionLines are kafka-topics --describe's partition lines.
func partitionLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "\tTopic:") {
			out = append(out, l)
		}
	}
	return out
}

// TestObservePageAddress: --addr serves the observed cluster's page and
// says where.
func TestObservePageAddress(t *testing.T) {
	_, addr := startLive(t)
	var out, errOut bytes.Buffer
	code := run([]string{"observe", "--bootstrap", addr, "--addr", "127.0.0.1:0", "--polls", "1"}, &out, &errOut)
	require.Equal(t, 0, code, "stderr: %s", errOut.String())
	require.Contains(t, out.String(), "the observed cluster's page is at http://127.0.0.1:")
	require.Contains(t, out.String(), "(read-only)")
}
