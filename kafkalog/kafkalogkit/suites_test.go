package kafkalogkit

import (
	"strings"
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// boom is a learner's bug: an index out of range somewhere.
func boom() { panic("runtime error: index out of range [3] with length 3") }

// TestPanicsAreFailures checks that every suite reports a panic in the code it
// checks as a failure of its "no panic" rule, instead of crashing the test.
func TestPanicsAreFailures(t *testing.T) {
	checks := map[string]func() error{
		"varint": func() error {
			return CheckVarint(VarintCodec{AppendVarint: func([]byte, int32) []byte { boom(); return nil }})
		},
		"batch": func() error {
			return CheckBatch(BatchEncoder{
				AppendRecord: func([]byte, *kafkalog.Record) []byte { boom(); return nil },
				AppendBatch:  func([]byte, *kafkalog.RecordBatch) []byte { boom(); return nil },
			})
		},
		"index": func() error {
			return CheckIndex(IndexLookup{
				LookupIndex: func([]byte, int, int64, int64) (int64, int32) { boom(); return 0, 0 },
				FindBatch:   func([]byte, int32, int64) (int32, bool) { boom(); return 0, false },
			})
		},
		"retention": func() error {
			return CheckRetention(Retention{DeletableSegments: func(RetentionLog, RetentionConfig, int64) int { boom(); return 0 }})
		},
		"recovery": func() error {
			return CheckRecovery(Recovery{Recover: func([]byte, int64, int) (int, []byte) { boom(); return 0, nil }})
		},
	}
	for name, check := range checks {
		err := check()
		if err == nil || !strings.Contains(err.Error(), "no panic]") || !strings.Contains(err.Error(), "index out of range") {
			t.Errorf("%s: a panicking implementation gave %v, want a [.. no panic] failure quoting the panic", name, err)
		}
	}
}

// TestNotStartedMessages checks the one message an untouched stub gets from
// each suite: the note to read first and the first function to write.
func TestNotStartedMessages(t *testing.T) {
	stub := func() { panic(notStarted{}) }
	got := map[string]string{
		"varint": errText(CheckVarint(VarintCodec{AppendVarint: func([]byte, int32) []byte { stub(); return nil }})),
		"batch": errText(CheckBatch(BatchEncoder{
			AppendRecord: func([]byte, *kafkalog.Record) []byte { stub(); return nil },
			AppendBatch:  func([]byte, *kafkalog.RecordBatch) []byte { stub(); return nil },
		})),
		"recovery": errText(CheckRecovery(Recovery{Recover: func([]byte, int64, int) (int, []byte) { stub(); return 0, nil }})),
	}
	want := map[string]string{
		"varint":   "not started: read notes/01-records-on-disk.md#varints-7-bits-at-a-time, then write AppendVarint in exercises/ch01/varint/varint.go",
		"batch":    "not started: read notes/01-records-on-disk.md#a-record-inside-the-batch, then write AppendRecord in exercises/ch01/batch/batch.go",
		"recovery": "not started: read notes/04-page-cache-and-recovery.md#how-a-broker-repairs-a-segment, then write Recover in exercises/ch04/recovery/recovery.go",
	}
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("%s: got %q\nwant %q", k, got[k], want[k])
		}
	}
}

type notStarted struct{}

func (notStarted) NotStarted() bool { return true }

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
