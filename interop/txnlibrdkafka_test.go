package interop

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// txnScript runs the transaction operations (txn-run, txn-consume,
// txn-fence, txn-copy) of one of the testdata scripts: ckjs_txn.js under
// node, or confluent_kafka_client.py under Debian's python3. Both print
// {"librdkafka": version, "out": ...}.
type txnScript struct {
	name      string   // the script, for messages
	argv      []string // the command up to the operation
	env       []string // added to the environment
	bootstrap string
}

// run runs op with args, stdin as JSON on its standard input, and decodes
// its "out" into out; it returns the librdkafka version the script reports.
func (s txnScript) run(ctx context.Context, t *testing.T, stdin, out any, op string, args ...string) string {
	t.Helper()
	var in []byte
	if stdin != nil {
		var err error
		in, err = json.Marshal(stdin)
		require.NoError(t, err)
	}
	argv := append(append(slices.Clone(s.argv), op, s.bootstrap), args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), s.env...)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	require.NoError(t, err, "%s %s %s:\n%s", s.name, op, strings.Join(args, " "), stderr.String())
	if stderr.Len() > 0 {
		t.Logf("%s %s stderr:\n%s", s.name, op, stderr.String())
	}
	var got struct {
		Librdkafka string          `json:"librdkafka"`
		Out        json.RawMessage `json:"out"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &got), "%s %s printed %q", s.name, op, stdout.String())
	require.NoError(t, json.Unmarshal(got.Out, out), "%s %s printed %q", s.name, op, stdout.String())
	return got.Librdkafka
}

// values are the records' values, decoded and sorted.
func values(t *testing.T, rs []pyRec) []string {
	t.Helper()
	out := make([]string, len(rs))
	for i, r := range rs {
		v, err := hex.DecodeString(r.Value)
		require.NoError(t, err)
		out[i] = string(v)
	}
	slices.Sort(out)
	return out
}

// TestTransactionsConfluentJS: librdkafka 2.15's transactional producer
// (Confluent's JavaScript client) against the cluster, the cells of
// TestTransactionsKgo.
func TestTransactionsConfluentJS(t *testing.T) {
	t.Parallel()
	node, modules := findCKJS()
	if node == "" {
		missing(t, "confluent-js", "node with @confluentinc/kafka-javascript (bash .ci/install-clients)", txnOps)
		return
	}
	lc := startLive(t, 5)
	runTxnCells(t, lc, "confluent-js", txnScript{name: "ckjs_txn.js", argv: []string{node, "testdata/ckjs_txn.js"},
		env: []string{"NODE_PATH=" + modules}, bootstrap: lc.bootstraps()}, "2.")
}

// TestTransactionsConfluentKafka: Debian's confluent-kafka-python (an
// older librdkafka, with transactions since 1.4) against the cluster, the
// cells of TestTransactionsKgo.
func TestTransactionsConfluentKafka(t *testing.T) {
	t.Parallel()
	py := findPython("confluent_kafka")
	if py == "" {
		missing(t, "confluent-kafka", "python3-confluent-kafka", txnOps)
		return
	}
	lc := startLive(t, 5)
	runTxnCells(t, lc, "confluent-kafka", txnScript{name: "confluent_kafka_client.py", argv: []string{py, "testdata/confluent_kafka_client.py"},
		bootstrap: lc.bootstrap(3)}, "")
}

// runTxnCells runs the transaction cells with a librdkafka client: three
// transactions (commit, abort, commit) of random records on a topic of
// three partitions; a read_committed consumer gets exactly the committed
// records and a read_uncommitted one all of them; a second producer with
// the same transactional.id fences the first, whose records no
// read_committed consumer sees; a consume-transform-produce loop copies
// the committed records to another topic, the group's offsets committed in
// its transactions, and read_committed sees each copy once.
func runTxnCells(t *testing.T, lc *liveCluster, client string, s txnScript, wantVersion string) {
	ctx, cancel := context.WithTimeout(context.Background(), 240*time.Second)
	defer cancel()
	topic := "interop-txn-" + client
	lc.createTopic(t, ctx, topic, 3)
	rng := rand.New(rand.NewPCG(seedOf(t), 7))

	type txn struct {
		Commit  bool    `json:"commit"`
		Records []pyRec `json:"records"`
	}
	var committed, all []pyRec
	op(t, client, txnOps[0], func(t *testing.T) {
		var in []txn
		for i, commit := range []bool{true, false, true} {
			tx := txn{Commit: commit}
			for _, r := range records(rng, fmt.Sprintf("t%d", i), 2+rng.IntN(6)) {
				tx.Records = append(tx.Records, pyRec{Key: hex.EncodeToString(r.Key), Value: hex.EncodeToString(r.Value)})
			}
			in = append(in, tx)
		}
		var out []txn
		version := s.run(ctx, t, in, &out, "txn-run", topic, "txn-"+client)
		t.Logf("%s: librdkafka %s", client, version)
		require.True(t, strings.HasPrefix(version, wantVersion), "librdkafka %s", version)
		require.Len(t, out, len(in))
		for i, tx := range out {
			require.Equal(t, in[i].Commit, tx.Commit)
			require.Equal(t, values(t, in[i].Records), values(t, tx.Records), "transaction %d's delivery reports", i)
			all = append(all, tx.Records...)
			if tx.Commit {
				committed = append(committed, tx.Records...)
			}
		}
		desc := lc.exec(t, "kafka-transactions describe --transactional-id txn-"+client)
		require.Regexp(t, `(?m)^\d\s+\ttxn-`+client+`\s*\t\d+\s*\t\d+\s+\tCompleteCommit\s*\t60000\s*\t\d+`, desc, "kafka-transactions describe:\n%s", desc)
	})
	op(t, client, txnOps[1], func(t *testing.T) {
		var got []pyRec
		s.run(ctx, t, nil, &got, "txn-consume", topic, "3", fmt.Sprint(len(committed)), "read_committed")
		require.Equal(t, values(t, committed), values(t, got))
		// the offsets are the producer's: control records take offsets
		// but are never delivered
		require.ElementsMatch(t, offsetsOf(committed), offsetsOf(got))
	})
	op(t, client, txnOps[2], func(t *testing.T) {
		var got []pyRec
		s.run(ctx, t, nil, &got, "txn-consume", topic, "3", fmt.Sprint(len(all)), "read_uncommitted")
		require.Equal(t, values(t, all), values(t, got))
	})
	op(t, client, txnOps[3], func(t *testing.T) {
		var got struct {
			Zombie      []pyRec `json:"zombie"`
			Fresh       []pyRec `json:"fresh"`
			ZombieError string  `json:"zombie_error"`
		}
		s.run(ctx, t, nil, &got, "txn-fence", topic, "txn-"+client+"-zombie")
		committed = append(committed, got.Fresh...)
		all = append(all, got.Zombie...)
		all = append(all, got.Fresh...)
		t.Logf("the zombie was told: %s", got.ZombieError)
		require.NotEmpty(t, got.ZombieError, "the zombie's commit after the fencing succeeded")
		require.Regexp(t, `(?i)fenced|epoch`, got.ZombieError, "the zombie is told it is fenced")
		var rc []pyRec
		s.run(ctx, t, nil, &rc, "txn-consume", topic, "3", fmt.Sprint(len(committed)), "read_committed")
		require.Equal(t, values(t, committed), values(t, rc), "read_committed after the fencing")
	})
	op(t, client, txnOps[4], func(t *testing.T) {
		out, group := topic+"-out", "txn-"+client+"-copy"
		lc.createTopic(t, ctx, out, 1)
		var written []pyRec
		s.run(ctx, t, nil, &written, "txn-copy", topic, out, group, fmt.Sprint(len(committed)), "txn-"+client+"-copy")
		var want []string
		for _, v := range values(t, committed) {
			want = append(want, "copy-"+v)
		}
		slices.Sort(want)
		require.Equal(t, want, values(t, written), "the copies the producer wrote")
		var got []pyRec
		s.run(ctx, t, nil, &got, "txn-consume", out, "1", fmt.Sprint(len(committed)), "read_committed")
		require.Equal(t, want, values(t, got), "read_committed sees each copy once")
		offs := lc.committed(t, group, topic)
		var sum int64
		for _, o := range offs {
			sum += o
		}
		require.Positive(t, sum, "the group's offsets were committed in the transactions: %v", offs)
	})
}

// offsetsOf are the records' partition@offset.
func offsetsOf(rs []pyRec) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = fmt.Sprintf("%d@%d", r.Partition, r.Offset)
	}
	return out
}
