package kafkalog

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/kafkalive/kafkalive/vfs"
	"github.com/stretchr/testify/require"
)

const (
	crashRoot        = "logs"
	crashCheckpoint  = crashRoot + "/" + RecoveryPointCheckpointFile
	crashLSOFile     = crashRoot + "/" + LogStartOffsetCheckpointFile
	crashCleanMarker = crashRoot + "/.kafka_cleanshutdown"
)

var crashTP = TopicPartition{Topic: "topic", Partition: 0}

// crashConfig has small segments and indexes so that the workload rolls, fills
// indexes and writes index entries often.
func crashConfig() Config {
	c := DefaultConfig()
	c.SegmentBytes = 700
	c.SegmentIndexBytes = 96 // 12 offset entries, 8 time entries: the indexes fill up
	c.IndexIntervalBytes = 60
	c.RetentionMs = -1
	return c
}

// crashWorkload records what a workload did: every record appended (by offset) and,
// for each completed flush, the operation count at which it completed and the offset
// below which everything was then durable.
type crashWorkload struct {
	values  []string
	flushes []flushPoint
	clean   int64 // op count after the clean shutdown completed, or 0
}

type flushPoint struct {
	ops    int64
	offset int64
}

// runCrashWorkload appends 40 batches of 1–3 records as leader (epochs 0..2), flushing
// and checkpointing the recovery point every 6 appends, rolls once by hand, deletes
// records below offset 10 and the segments below them (checkpointing the log start
// offset, removing the .deleted files), and closes the log cleanly with a
// clean-shutdown marker. It stops at the first error (the hook
// ending the run).
func runCrashWorkload(fsys *vfs.MemFS, w *crashWorkload) error {
	l, err := Open(fsys, testDir, crashConfig(), 0)
	if err != nil {
		return err
	}
	for i := 0; i < 40; i++ {
		var recs []kv
		for j := 0; j <= i%3; j++ {
			recs = append(recs, kv{key: fmt.Sprint("k", i%5), value: fmt.Sprintf("value-%d-%d-%s", i, j, string(make([]byte, i%7)))})
		}
		if _, err := l.AppendAsLeader(encodeBatch(0, int64(1000+i), recs...), int32(i/15), int64(i)); err != nil {
			return err
		}
		for _, r := range recs {
			w.values = append(w.values, r.value)
		}
		if i == 30 {
			if err := l.Roll(int64(i)); err != nil {
				return err
			}
		}
		if i == 33 {
			if err := crashRetention(fsys, l); err != nil {
				return err
			}
		}
		if i%6 == 5 {
			if err := l.Flush(l.LogEndOffset()); err != nil {
				return err
			}
			if err := WriteOffsetCheckpoint(fsys, crashCheckpoint, map[TopicPartition]int64{crashTP: l.RecoveryPoint()}); err != nil {
				return err
			}
			w.flushes = append(w.flushes, flushPoint{ops: fsys.OpCount(), offset: l.RecoveryPoint()})
		}
	}
	if err := l.Close(); err != nil {
		return err
	}
	if err := WriteOffsetCheckpoint(fsys, crashCheckpoint, map[TopicPartition]int64{crashTP: l.RecoveryPoint()}); err != nil {
		return err
	}
	if err := WriteFileAtomic(fsys, crashCleanMarker, nil); err != nil {
		return err
	}
	w.clean = fsys.OpCount()
	w.flushes = append(w.flushes, flushPoint{ops: fsys.OpCount(), offset: l.LogEndOffset()})
	return nil
}

// crashRetention moves the log start offset to 10, deletes the segments below it,
// checkpoints the log start offset and removes the .deleted files.
func crashRetention(fsys *vfs.MemFS, l *Log) error {
	if _, err := l.DeleteRecords(10, l.LogEndOffset()); err != nil {
		return err
	}
	if _, err := l.DeleteOldSegments(l.LogEndOffset(), 0); err != nil {
		return err
	}
	if err := WriteOffsetCheckpoint(fsys, crashLSOFile, map[TopicPartition]int64{crashTP: l.LogStartOffset()}); err != nil {
		return err
	}
	_, err := l.DeleteExpiredFiles(1 << 40)
	return err
}

// tearVariants decide how much of each file's unsynced tail a power cut keeps: none,
// all, or the first 1, 17, 61 bytes, half, or all but one.
var tearVariants = []struct {
	name string
	keep func(name string, durable, cached int64) int64
}{
	{"none", func(string, int64, int64) int64 { return 0 }},
	{"all", func(_ string, d, c int64) int64 { return c - d }},
	{"1 byte", func(string, int64, int64) int64 { return 1 }},
	{"17 bytes", func(string, int64, int64) int64 { return 17 }},
	{"61 bytes", func(string, int64, int64) int64 { return 61 }},
	{"half", func(_ string, d, c int64) int64 { return (c - d) / 2 }},
	{"all but 1", func(_ string, d, c int64) int64 { return c - d - 1 }},
}

// TestCrashAtEveryOperation runs the workload once, snapshotting the file system
// before every mutating operation (so each snapshot is the state right after the
// previous write, sync, rename...), then for every snapshot and every way of tearing
// the unsynced tails cuts the power, reopens the log and checks: it opens, it is a
// prefix of what was appended, it holds everything that was flushed, its indexes agree
// with it, and it still takes appends.
func TestCrashAtEveryOperation(t *testing.T) {
	fsys := vfs.NewMem()
	var snaps []*vfs.MemFS
	fsys.SetHook(func(vfs.Op) error {
		snaps = append(snaps, fsys.Clone())
		return nil
	})
	var w crashWorkload
	require.NoError(t, runCrashWorkload(fsys, &w))
	fsys.SetHook(nil)
	snaps = append(snaps, fsys.Clone())
	variants := tearVariants
	if testing.Short() {
		variants = variants[:3]
	}
	tried := 0
	for k, snap := range snaps {
		// snaps[k] is the state after k operations.
		for _, v := range variants {
			c := snap.Clone()
			c.PowerCut(v.keep)
			if err := checkCrashState(c, &w, int64(k)); err != nil {
				t.Fatalf("power cut after operation %d of %d, unsynced tails kept: %s: %v", k, len(snaps)-1, v.name, err)
			}
			tried++
		}
	}
	t.Logf("crash points: %d operations; torn-tail variants per point: %d; reopened and checked: %d", len(snaps), len(variants), tried)
}

// checkCrashState reopens the log on c (the disk after a power cut that followed op
// ops) the way a data dir would, and checks it against the workload.
func checkCrashState(c *vfs.MemFS, w *crashWorkload, ops int64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	rp := int64(0)
	cps, err := ReadOffsetCheckpoint(c, crashCheckpoint)
	if err != nil {
		return fmt.Errorf("recovery point checkpoint unreadable: %w", err)
	}
	rp = cps[crashTP]
	lsos, err := ReadOffsetCheckpoint(c, crashLSOFile)
	if err != nil {
		return fmt.Errorf("log start offset checkpoint unreadable: %w", err)
	}
	opts := []Option{WithRecoveryPoint(rp), WithLogStartOffset(lsos[crashTP])}
	if _, err := c.Stat(crashCleanMarker); err == nil {
		opts = append(opts, WithCleanShutdown())
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if _, err := c.Stat(testDir); errors.Is(err, fs.ErrNotExist) {
		if guaranteed(w, ops) > 0 {
			return fmt.Errorf("log directory lost, %d records were flushed", guaranteed(w, ops))
		}
		return nil
	}
	l, err := Open(c, testDir, crashConfig(), 0, opts...)
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	return verifyCrashLog(l, w, ops)
}

// guaranteed is the offset below which the workload had made everything durable
// after ops operations.
func guaranteed(w *crashWorkload, ops int64) int64 {
	g := int64(0)
	for _, f := range w.flushes {
		if f.ops <= ops {
			g = max(g, f.offset)
		}
	}
	return g
}

func verifyCrashLog(l *Log, w *crashWorkload, ops int64) error {
	recs, err := readAllErr(l)
	if err != nil {
		return fmt.Errorf("read: %w", err)
	}
	lso := l.LogStartOffset()
	if lso > 10 {
		return fmt.Errorf("log start offset %d, only records below 10 were deleted", lso)
	}
	for i, r := range recs {
		if r.Offset != lso+int64(i) {
			return fmt.Errorf("record %d from the log start offset %d has offset %d: the log has a gap", i, lso, r.Offset)
		}
		if r.Offset >= int64(len(w.values)) || r.Value != w.values[r.Offset] {
			return fmt.Errorf("offset %d holds %q, which was never appended there", r.Offset, r.Value)
		}
	}
	if g := guaranteed(w, ops); l.LogEndOffset() < g {
		return fmt.Errorf("LEO %d after recovery, but offsets below %d were flushed", l.LogEndOffset(), g)
	}
	if l.LogEndOffset() != lso+int64(len(recs)) {
		return fmt.Errorf("LEO %d but %d records readable from %d", l.LogEndOffset(), len(recs), lso)
	}
	if l.RecoveryPoint() > l.LogEndOffset() {
		return fmt.Errorf("recovery point %d beyond LEO %d", l.RecoveryPoint(), l.LogEndOffset())
	}
	if err := indexesAgree(l); err != nil {
		return err
	}
	leo := l.LogEndOffset()
	if _, err := l.AppendAsLeader(valueBatch(5000, "after"), 9, 0); err != nil {
		return fmt.Errorf("append after recovery: %w", err)
	}
	got, err := l.Read(leo, 1)
	if err != nil || len(got) == 0 {
		return fmt.Errorf("read back the append after recovery: %v", err)
	}
	return indexesAgree(l)
}
