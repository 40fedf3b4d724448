package kafkalog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/internal/fixtures"
)

// realFile returns the path of a file from the real broker fixtures: the licensed
// copy in testdata/kafka-real if present, else the sets named by
// KAFKALIVE_EXTRA_FIXTURES (internal/fixtures). It skips the test, saying
// why, when neither has it.
func realFile(t *testing.T, rel string) string {
	t.Helper()
	local := filepath.Join("testdata", "kafka-real", rel)
	if _, err := os.Stat(local); err == nil {
		return local
	}
	set, file, _ := strings.Cut(rel, "/")
	return filepath.Join(fixtures.Dir(t, set), file)
}

func TestSegmentFileName(t *testing.T) {
	tests := []struct {
		base   int64
		suffix string
		want   string
	}{
		{0, LogSuffix, "00000000000000000000.log"},
		{38, LogSuffix, "00000000000000000038.log"},
		{1000, IndexSuffix, "00000000000000001000.index"},
		{470, SnapshotSuffix, "00000000000000000470.snapshot"},
		{9223372036854775807, TimeIndexSuffix, "09223372036854775807.timeindex"},
		{5, LogSuffix + DeletedSuffix, "00000000000000000005.log.deleted"},
		{-1, LogSuffix, "-1.log"},
		{123456789012345678, "", "00123456789012345678"},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, SegmentFileName(tc.base, tc.suffix)); diff != "" {
			t.Errorf("SegmentFileName(%d, %q) (-want +got):\n%s", tc.base, tc.suffix, diff)
		}
	}
}

func TestParseSegmentFileName(t *testing.T) {
	type result struct {
		Base   int64
		Suffix string
		OK     bool
	}
	tests := []struct {
		name string
		want result
	}{
		{"00000000000000000038.log", result{38, ".log", true}},
		{"00000000000000000000.index", result{0, ".index", true}},
		{"00000000000000000000.timeindex", result{0, ".timeindex", true}},
		{"00000000000000000000.txnindex", result{0, ".txnindex", true}},
		{"00000000000000000470.snapshot", result{470, ".snapshot", true}},
		{"00000000000000000018.log.deleted", result{18, ".log.deleted", true}},
		{"00000000000000000018.index.deleted", result{18, ".index.deleted", true}},
		{"00000000000000000000.log.cleaned", result{0, ".log.cleaned", true}},
		{"00000000000000000000.log.swap", result{0, ".log.swap", true}},
		{"00000000000000000000.timeindex.swap", result{0, ".timeindex.swap", true}},
		{"00000000000000000000.snapshot.deleted", result{0, ".snapshot.deleted", true}},
		{"leader-epoch-checkpoint", result{}},
		{"partition.metadata", result{}},
		{"38.log", result{}},                       // too few digits: not Kafka's
		{"0000000000000000003x.log", result{}},     // not digits
		{"00000000000000000038.log.tmp", result{}}, // unknown state
		{"00000000000000000038.checkpoint", result{}},
		{"00000000000000000038", result{}},
		{"99999999999999999999.log", result{}}, // overflows int64
		{"00000000000000000038.deleted", result{}},
	}
	for _, tc := range tests {
		var got result
		got.Base, got.Suffix, got.OK = ParseSegmentFileName(tc.name)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseSegmentFileName(%q) (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestSegmentFileNameRoundTrip(t *testing.T) {
	for _, base := range []int64{0, 1, 38, 1 << 31, 1<<63 - 1} {
		for _, s := range []string{LogSuffix, IndexSuffix, TimeIndexSuffix, TxnIndexSuffix, SnapshotSuffix, LogSuffix + SwapSuffix} {
			b, suf, ok := ParseSegmentFileName(SegmentFileName(base, s))
			if !ok || b != base || suf != s {
				t.Errorf("the name of segment %d with suffix %q parsed back as (%d, %q, %v)", base, s, b, suf, ok)
			}
		}
	}
}

func ExampleParseSegmentFileName() {
	fmt.Println(SegmentFileName(38, LogSuffix))
	fmt.Println(ParseSegmentFileName("00000000000000000018.log.deleted"))
	fmt.Println(ParseTopicPartitionDir("__consumer_offsets-39"))
	// Output:
	// 00000000000000000038.log
	// 18 .log.deleted true
	// __consumer_offsets-39 true
}
