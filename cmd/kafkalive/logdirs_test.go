package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLogDirsGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"sample", []string{"--dir", sampleDir}},
		{"donaldy_compaction_and_retention", []string{"--dir", realDir + "/donaldy-kafka-2.7.1"}},
		{"damaged", []string{"--dir", "testdata/logdirs/damaged"}},
		{"donaldy_json", []string{"--dir", realDir + "/donaldy-kafka-2.7.1", "--json"}},
		{"missing_dir", []string{"--dir", "testdata/logdirs/nope"}},
		{"no_dir_flag", []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkGolden(t, "logdirs/"+tc.name, runCommand(append([]string{"log-dirs"}, tc.args...)...))
		})
	}
}

func TestLogDirsHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"log-dirs", "-h"}, &stdout, &stderr))
	require.Contains(t, stdout.String(), "--dir DIR")
}

// TestLogDirsDoesNotWrite checks that describing a directory changes nothing in
// it, even a damaged one that a broker would repair.
func TestLogDirsDoesNotWrite(t *testing.T) {
	before := snapshotTree(t, "testdata/logdirs/damaged")
	runCommand("log-dirs", "--dir", "testdata/logdirs/damaged")
	require.Equal(t, before, snapshotTree(t, "testdata/logdirs/damaged"))
}

func snapshotTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		files[p] = string(b)
		return err
	}))
	return files
}

func TestLogDirsSharedFixtures(t *testing.T) {
	t.Run("niloufar KRaft broker", func(t *testing.T) {
		out := runCommand("log-dirs", "--dir", sharedFixture(t, "niloufar-ldi-poc-kraft"))
		require.Regexp(t, `__cluster_metadata-0 +1 +353439 +0 +4929 `, out, "4929 records, offsets 0..4928")
		require.Regexp(t, `__consumer_offsets-6 +1 +13751 +0 +13 `, out)
		require.Contains(t, out, "--- exit 0\n")
	})
	t.Run("volodymyrzee clean shutdown", func(t *testing.T) {
		out := runCommand("log-dirs", "--dir", sharedFixture(t, "volodymyrzee-kafka"))
		require.Contains(t, out, "Clean shutdown: yes\n")
		require.Regexp(t, `__consumer_offsets-12 +1 +45702 +0 +470 +470 +470 `, out)
		require.Contains(t, out, "00000000000000000000.log  45702  162      0..469")
		require.Equal(t, 8, strings.Count(out, "\n  SEGMENT"))
		require.Contains(t, out, "--- exit 0\n")
	})
}

// TestJavaHashMapOrder: Java's String.hashCode, and the order in which a
// java.util.HashMap iterates keys, which is the order of the keys in
// kafka-log-dirs' JSON (Kafka 3.7 builds every object as a HashMap).
func TestJavaHashMapOrder(t *testing.T) {
	require.Equal(t, int32(99162322), javaStringHash("hello"), `"hello".hashCode()`)
	require.Equal(t, int32(0), javaStringHash(""))
	for _, tt := range []struct{ keys, want []string }{
		{[]string{"version", "brokers"}, []string{"brokers", "version"}},
		{[]string{"broker", "logDirs"}, []string{"broker", "logDirs"}},
		{[]string{"logDir", "error", "partitions"}, []string{"partitions", "error", "logDir"}},
		{[]string{"partition", "size", "offsetLag", "isFuture"}, []string{"partition", "size", "offsetLag", "isFuture"}},
	} {
		hashes := make([]int32, len(tt.keys))
		for i, k := range tt.keys {
			hashes[i] = javaStringHash(k)
		}
		var got []string
		for _, i := range javaHashMapOrder(hashes) {
			got = append(got, tt.keys[i])
		}
		require.Equal(t, tt.want, got, "HashMap order of %v", tt.keys)
	}
}
