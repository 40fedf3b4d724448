package kafkalog

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kafkalive/kafkalive/vfs"
)

var errDiskFailed = errors.New("disk failed")

// diskOp is one operation a broker runs on a log, by name.
type diskOp struct {
	name string
	run  func(l *Log) error
}

// diskOps are the operations that change a log's files.
var diskOps = []diskOp{
	{"AppendAsLeader", func(l *Log) error { _, err := l.AppendAsLeader(valueBatch(5000, "x"), 0, 5000); return err }},
	{"AppendAsFollower", func(l *Log) error {
		_, err := l.AppendAsFollower(encodeBatch(l.LogEndOffset(), 5000, kv{value: "y"}), 5000)
		return err
	}},
	{"Roll", func(l *Log) error { return l.Roll(5000) }},
	{"Flush", func(l *Log) error { return l.Flush(l.LogEndOffset()) }},
	{"WriteBackIndexes", func(l *Log) error { return l.WriteBackIndexes() }},
	{"TruncateTo", func(l *Log) error { return l.TruncateTo(l.LogEndOffset()/2, 5000) }},
	{"TruncateFullyAndStartAt", func(l *Log) error { return l.TruncateFullyAndStartAt(l.LogEndOffset()+10, 5000) }},
	{"DeleteRecords+DeleteOldSegments", func(l *Log) error {
		if _, err := l.DeleteRecords(l.LogEndOffset()/2, l.LogEndOffset()); err != nil {
			return err
		}
		_, err := l.DeleteOldSegments(l.LogEndOffset(), 5000)
		return err
	}},
	{"DeleteExpiredFiles", func(l *Log) error {
		if _, err := l.DeleteRecords(l.LogEndOffset()/2, l.LogEndOffset()); err != nil {
			return err
		}
		if _, err := l.DeleteOldSegments(l.LogEndOffset(), 5000); err != nil {
			return err
		}
		_, err := l.DeleteExpiredFiles(5000 + l.Config().FileDeleteDelayMs)
		return err
	}},
	{"Clean", func(l *Log) error {
		_, err := l.Clean(0, l.LogEndOffset(), 5000, CleanerOptions{})
		return err
	}},
	{"Close", func(l *Log) error { return l.Close() }},
}

// TestEveryOperationSurvivesADiskFailure fails the kth file operation of
// every operation that changes a log's files, for every k the operation
// reaches (and for random later ops of a random history): the operation
// may fail, but the log must not panic afterwards on any call a broker
// makes, and the directory must open again with its records a run of
// consecutive offsets, as Kafka's log directory does after an IOException
// took it offline and the broker restarted.
func TestEveryOperationSurvivesADiskFailure(t *testing.T) {
	for _, op := range diskOps {
		for k := int64(0); ; k++ {
			fsys, l := iofailLog(t)
			fsys.SetHook(failFrom(k))
			err := op.run(l)
			fsys.SetHook(nil)
			if err == nil {
				break // the operation needs fewer than k+1 file operations
			}
			if !errors.Is(err, errDiskFailed) {
				t.Fatalf("%s with file operation %d failing: %v, want an error wrapping the disk's", op.name, k, err)
			}
			where := fmt.Sprintf("after %s failed at file operation %d", op.name, k)
			useAfterFailure(t, l, where)
			reopenAfterFailure(t, fsys, where)
		}
	}
}

// TestRandomHistoriesWithDiskFailures runs random operations on a log
// whose disk fails at a random moment, then uses and reopens it.
func TestRandomHistoriesWithDiskFailures(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		fsys, l := iofailLog(t)
		fsys.SetHook(failFrom(int64(r.IntN(200))))
		var trace []string
		for range 20 {
			op := diskOps[r.IntN(len(diskOps)-1)] // Close last
			trace = append(trace, op.name)
			if err := op.run(l); err != nil && !errors.Is(err, errDiskFailed) && !errors.Is(err, ErrLogFailed) && !errors.Is(err, ErrOffsetOutOfRange) {
				t.Fatalf("seed %d (go test ./kafkalog -run TestRandomHistoriesWithDiskFailures), %v: %v", seed, trace, err)
			}
		}
		fsys.SetHook(nil)
		where := fmt.Sprintf("seed %d, operations %v", seed, trace)
		useAfterFailure(t, l, where)
		reopenAfterFailure(t, fsys, where)
	}
}

// iofailLog is a log of three segments, compacted and with its deleted
// files kept a while.
func iofailLog(t *testing.T) (*vfs.MemFS, *Log) {
	t.Helper()
	fsys := vfs.NewMem()
	cfg := testConfig()
	cfg.CleanupPolicy = "compact,delete"
	l := openTestLog(t, fsys, cfg)
	for i := range 30 {
		if _, err := l.AppendAsLeader(encodeBatch(0, int64(i), kv{key: fmt.Sprint("k", i%4), value: fmt.Sprint("v", i)}), 0, int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Flush(l.LogEndOffset()); err != nil {
		t.Fatal(err)
	}
	return fsys, l
}

// failFrom fails every file operation from the kth on.
func failFrom(k int64) func(vfs.Op) error {
	var seen int64
	return func(vfs.Op) error {
		seen++
		if seen > k {
			return errDiskFailed
		}
		return nil
	}
}

// useAfterFailure makes every call a broker makes on a log; none may
// panic, and a log that answers reads answers them consistently.
func useAfterFailure(t *testing.T, l *Log, where string) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%s: panic: %v", where, p)
		}
	}()
	start, end := l.LogStartOffset(), l.LogEndOffset()
	if start > end {
		t.Fatalf("%s: log start %d after log end %d", where, start, end)
	}
	_ = l.Size()
	_ = l.Segments()
	_, _, _ = l.ListOffset(-1)
	_, _, _ = l.ListOffset(0)
	_, _, _, _ = l.OffsetForTimestamp(3)
	_, _, _ = l.Locate(start, end)
	if _, err := readAllErr(l); err != nil && !errors.Is(err, ErrLogFailed) && !errors.Is(err, ErrLogClosed) && !errors.Is(err, errDiskFailed) {
		t.Fatalf("%s: read: %v", where, err)
	}
	_, _ = l.AppendAsLeader(valueBatch(6000, "after"), 0, 6000)
	_ = l.Flush(l.LogEndOffset())
	_, _ = l.DeleteOldSegments(l.LogEndOffset(), 6000)
	_ = l.Close()
}

// reopenAfterFailure opens the log's directory again: it must open, its records at
// consecutive offsets from its start.
func reopenAfterFailure(t *testing.T, fsys *vfs.MemFS, where string) {
	t.Helper()
	l, err := Open(fsys, "logs/topic-0", testConfig(), 7000)
	if err != nil {
		t.Fatalf("%s: reopen: %v", where, err)
	}
	recs, err := readAllErr(l)
	if err != nil {
		t.Fatalf("%s: reopened, read: %v", where, err)
	}
	for i := 1; i < len(recs); i++ {
		if recs[i].Offset <= recs[i-1].Offset {
			t.Fatalf("%s: reopened, offsets %d then %d", where, recs[i-1].Offset, recs[i].Offset)
		}
	}
}
