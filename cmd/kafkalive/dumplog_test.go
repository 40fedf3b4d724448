package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/internal/fixtures"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the .golden files of cmd/kafkalive tests")

// runCommand runs "kafkalive args..." in-process and renders what a user sees:
// the command line, stdout, stderr and the exit code.
func runCommand(args ...string) string {
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	var b strings.Builder
	fmt.Fprintf(&b, "$ kafkalive %s\n%s", strings.Join(args, " "), stdout.String())
	if stderr.Len() > 0 {
		fmt.Fprintf(&b, "--- stderr\n%s", stderr.String())
	}
	fmt.Fprintf(&b, "--- exit %d\n", code)
	return b.String()
}

// checkGolden compares got with testdata/<name>.golden, or rewrites it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./cmd/kafkalive -update")
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

const (
	sampleDir  = "testdata/sample"
	cleaned    = sampleDir + "/__consumer_offsets-39/00000000000000000000.log"
	gzipSample = sampleDir + "/gzip-topic-0/00000000000000000000.log"
	realDir    = "../../kafkalog/testdata/kafka-real"
	dumpCases  = "testdata/dumplog"
)

func TestDumpLogGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"cleaned_segment_print_data", []string{"--files", cleaned, "--print-data-log"}},
		{"cleaned_segment_shallow", []string{"--files", cleaned}},
		{"cleaned_segment_offsets_decoder", []string{"--files", cleaned + "," + sampleDir + "/__consumer_offsets-39/00000000000000000018.log", "--offsets-decoder"}},
		{"group_metadata_offsets_decoder", []string{"--files", realDir + "/donaldy-kafka-2.7.1/__consumer_offsets-17/00000000000000000000.log," + realDir + "/donaldy-kafka-2.7.1/__consumer_offsets-8/00000000000000000000.log", "--offsets-decoder"}},
		{"gzip_deep_iteration", []string{"--files", gzipSample, "--deep-iteration"}},
		{"gzip_skip_metadata", []string{"--files", gzipSample, "--print-data-log", "--skip-record-metadata"}},
		{"max_bytes", []string{"--files", gzipSample, "--max-bytes", "200"}},
		{"legacy_v1_and_v2", []string{"--files", realDir + "/segmentio-kafka-go-fetch/v1-v1c-v2-v2c-v2b-v2b-v2b-v2bc-v1b-v1bc.records.log", "--print-data-log"}},
		{"log_append_time_and_headers", []string{"--files", realDir + "/kafkajs-fetch/recordBatch_v0_recordbatch.records.log," + realDir + "/kafkajs-fetch/requests_fetch_v4_response.records.log", "--print-data-log"}},
		{"snappy", []string{"--files", realDir + "/kafkajs-fetch/requests_fetch_v4_response_snappy.records.log", "--print-data-log"}},
		{"producer_snapshot", []string{"--files", realDir + "/donaldy-kafka-2.7.1/myTopic-0/00000000000000000038.snapshot," + sampleDir + "/__consumer_offsets-39/00000000000000000018.snapshot"}},
		{"checkpoints", []string{"--files", realDir + "/donaldy-kafka-2.7.1/cleaner-offset-checkpoint," + realDir + "/donaldy-kafka-2.7.1/myTopic-0/leader-epoch-checkpoint," + sampleDir + "/log-start-offset-checkpoint"}},
		{"indexes", []string{"--files", sampleDir + "/__consumer_offsets-39/00000000000000000000.index," + sampleDir + "/__consumer_offsets-39/00000000000000000000.timeindex"}},
		{"transactions", []string{"--files", dumpCases + "/txn/00000000000000000000.log," + dumpCases + "/txn/00000000000000000000.txnindex," + dumpCases + "/txn/00000000000000000004.snapshot", "--print-data-log"}},
		{"real_broker_hello_kafka", []string{"--files", dumpCases + "/hello-kafka/00000000000000000000.log", "--print-data-log"}},
		{"torn_tail", []string{"--files", dumpCases + "/torn/00000000000000000000.log", "--deep-iteration"}},
		{"tail_shorter_than_header", []string{"--files", dumpCases + "/tiny-tail/00000000000000000000.log"}},
		{"corrupt_crc", []string{"--files", dumpCases + "/corrupt-crc/00000000000000000000.log", "--print-data-log"}},
		{"length_below_14", []string{"--files", dumpCases + "/bad-length/00000000000000000000.log"}},
		{"zero_padded_index", []string{"--files", dumpCases + "/padded/00000000000000000000.index"}},
		{"zero_padded_index_sanity", []string{"--files", dumpCases + "/padded/00000000000000000000.index", "--index-sanity-check"}},
		{"index_mismatch", []string{"--files", dumpCases + "/mismatch/00000000000000000000.index," + dumpCases + "/mismatch/00000000000000000000.timeindex"}},
		{"index_mismatch_verify_only", []string{"--files", dumpCases + "/mismatch/00000000000000000000.index", "--verify-index-only"}},
		{"index_sanity_ok", []string{"--files", dumpCases + "/mismatch/00000000000000000000.index," + dumpCases + "/mismatch/00000000000000000000.timeindex", "--index-sanity-check"}},
		{"missing_and_unknown_files", []string{"--files", dumpCases + "/nope.log," + sampleDir + "/NOTICE"}},
		{"no_files_flag", []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkGolden(t, "dumplog/"+tc.name, runCommand(append([]string{"dump-log"}, tc.args...)...))
		})
	}
}

// TestDumpLogMatchesRealBrokerPrint checks the batch line against the figures a
// real broker's kafka-dump-log printed for the same batch.
func TestDumpLogMatchesRealBrokerPrint(t *testing.T) {
	out := runCommand("dump-log", "--files", dumpCases+"/hello-kafka/00000000000000000000.log", "--print-data-log")
	require.Contains(t, out, "baseOffset: 0 lastOffset: 9 count: 10 ")
	require.Contains(t, out, " CreateTime: 1716780091840 size: 251 magic: 2 compresscodec: none crc: 997822510 isvalid: true\n")
	require.Contains(t, out, "| offset: 9 CreateTime: 1716780091840 keySize: -1 valueSize: 12 sequence: -1 headerKeys: [] payload: hello kafka9\n")
}

func TestDumpLogHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"dump-log", "-h"}, &stdout, &stderr))
	for _, flagName := range []string{"--files", "--print-data-log", "--deep-iteration", "--max-message-size", "--index-sanity-check", "--verify-index-only", "--offsets-decoder"} {
		require.Contains(t, stdout.String(), flagName, "help names %s", flagName)
	}
}

// sharedFixture returns the path rel inside the extra fixture sets named by
// KAFKALIVE_EXTRA_FIXTURES (see internal/fixtures), or skips: the sets
// without a licence are not redistributed with the repository.
func sharedFixture(t *testing.T, rel string) string {
	t.Helper()
	set, file, _ := strings.Cut(rel, "/")
	return filepath.Join(fixtures.Dir(t, set), file)
}

// TestDumpLogSharedFixtures checks figures from the fixtures README on the sets
// we may not copy (no golden files of their content are committed).
func TestDumpLogSharedFixtures(t *testing.T) {
	t.Run("volodymyrzee __consumer_offsets-12 index", func(t *testing.T) {
		out := runCommand("dump-log", "--files", sharedFixture(t, "volodymyrzee-kafka/__consumer_offsets-12/00000000000000000000.index"))
		require.Contains(t, out, "offset: 37 position: 4295\noffset: 82 position: 8540\n")
		require.Contains(t, out, "offset: 438 position: 42464\n--- exit 0\n", "every entry points at its batch")
		require.Equal(t, 10, strings.Count(out, "position: "))
	})
	t.Run("volodymyrzee time index of an older broker", func(t *testing.T) {
		out := runCommand("dump-log", "--files", sharedFixture(t, "volodymyrzee-kafka/__consumer_offsets-12/00000000000000000000.timeindex"))
		require.Contains(t, out, "timestamp: 1587580883405 offset: 35\n")
		require.Contains(t, out, "timestamp: 1587581641137 offset: 469\n")
		require.Contains(t, out, "Indexed offset: 35, found log offset: 37\n", "the 2020 broker indexed record offsets; Kafka's tool flags them")
		require.Contains(t, out, "--- exit 0\n")
	})
	t.Run("volodymyrzee log", func(t *testing.T) {
		out := runCommand("dump-log", "--files", sharedFixture(t, "volodymyrzee-kafka/__consumer_offsets-12/00000000000000000000.log"))
		require.Equal(t, 162, strings.Count(out, "baseOffset: "))
		require.Contains(t, out, "baseOffset: 35 lastOffset: 37 ")
		require.Contains(t, out, " position: 4295 ")
		require.Contains(t, out, "--- exit 0\n")
	})
	t.Run("volodymyrzee group metadata with the consumer protocol decoded", func(t *testing.T) {
		out := runCommand("dump-log", "--offsets-decoder", "--files", sharedFixture(t, "volodymyrzee-kafka/__consumer_offsets-17/00000000000000000000.log"))
		require.Contains(t, out, `"subscription":{"topics":["first_topic"],"userData":null,"ownedPartitions":[]},"assignment":{"assignedPartitions":[{"topic":"first_topic","partitions":[0,1,2]}],"userData":null}`)
	})
	t.Run("niloufar __consumer_offsets-6 index", func(t *testing.T) {
		out := runCommand("dump-log", "--files", sharedFixture(t, "niloufar-ldi-poc-kraft/__consumer_offsets-6/00000000000000000000.index"))
		require.Contains(t, out, "offset: 3 position: 4730\noffset: 7 position: 9571\n--- exit 0\n")
	})
	t.Run("niloufar KRaft metadata log", func(t *testing.T) {
		out := runCommand("dump-log", "--files", sharedFixture(t, "niloufar-ldi-poc-kraft/__cluster_metadata-0/00000000000000000000.log"), "--deep-iteration")
		require.Equal(t, 4814, strings.Count(out, "baseOffset: "))
		require.Equal(t, 4929, strings.Count(out, "| offset: "))
		require.Contains(t, out, "isControl: true")
		require.Contains(t, out, " controlType: LEADER_CHANGE(2)")
		require.Contains(t, out, "--- exit 0\n")
	})
	t.Run("niloufar bootstrap snapshot", func(t *testing.T) {
		out := runCommand("dump-log", "--files", sharedFixture(t, "niloufar-ldi-poc-kraft/bootstrap.checkpoint"))
		require.Contains(t, out, "KRaft bootstrap snapshot\n")
		out = runCommand("dump-log", "--deep-iteration", "--files", sharedFixture(t, "niloufar-ldi-poc-kraft/bootstrap.checkpoint"))
		require.Contains(t, out, ` SnapshotHeader {"version":0,"lastContainedLogTimestamp":0}`)
		require.Contains(t, out, ` SnapshotFooter {"version":0}`)
		require.Contains(t, out, "--- exit 0\n")
	})
}
