package kafkalog

import (
	"math"
	"testing"

	"github.com/kafkalive/kafkalive/vfs"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// singleBatchSize is S of UnifiedLogTest: one batch of one record "test".
var singleBatchSize = int64(len(valueBatch(0, "test")))

// retentionLog opens a log whose segments hold 5 single-record batches (segment.bytes
// = 5·S) and appends n of them with timestamp ts.
func retentionLog(t *testing.T, fsys vfs.FS, n int, ts int64, edit func(*Config)) *Log {
	t.Helper()
	cfg := DefaultConfig()
	cfg.SegmentBytes = 5 * singleBatchSize
	cfg.SegmentIndexBytes = 1000
	edit(&cfg)
	l := openTestLog(t, fsys, cfg)
	for i := 0; i < n; i++ {
		_, err := l.AppendAsLeader(valueBatch(ts, "test"), 0, ts)
		require.NoError(t, err)
	}
	return l
}

func segmentBases(l *Log) []int64 {
	var out []int64
	for _, s := range l.Segments() {
		out = append(out, s.BaseOffset())
	}
	return out
}

// Known answers of Kafka's UnifiedLogTest (retention by size and time, cleanup policies, DeleteRecords, a size-based roll).
func TestRetentionKnownAnswers(t *testing.T) {
	const now = 1_000_000_000
	cases := []struct {
		name      string
		n         int
		ts        int64
		edit      func(*Config)
		lso       int64 // DeleteRecords to this first, if > 0
		wantBases []int64
		wantLSO   int64
	}{
		{"size-based", 15, now, func(c *Config) { c.RetentionBytes = 10 * singleBatchSize }, 0, []int64{5, 10}, 5},
		{"under the size", 15, now, func(c *Config) { c.RetentionBytes = 15 * singleBatchSize }, 0, []int64{0, 5, 10}, 0},
		{"time-based, all expired", 15, 10, func(c *Config) { c.RetentionMs = 10000 }, 0, []int64{15}, 15},
		{"time-based, none expired", 15, now, func(c *Config) { c.RetentionMs = 10_000_000 }, 0, []int64{0, 5, 10}, 0},
		{"compact only", 15, 10, func(c *Config) { c.RetentionMs = 10000; c.CleanupPolicy = "compact" }, 0, []int64{0, 5, 10}, 0},
		{"compact,delete", 15, 10, func(c *Config) { c.RetentionMs = 10000; c.CleanupPolicy = "compact,delete" }, 0, []int64{15}, 15},
		{"start offset, compact only", 15, now, func(c *Config) { c.CleanupPolicy = "compact" }, 5, []int64{5, 10}, 5},
		{"DeleteRecords to 1", 15, now, func(*Config) {}, 1, []int64{0, 5, 10}, 1},
		{"DeleteRecords to 6", 15, now, func(*Config) {}, 6, []int64{5, 10}, 6},
		{"DeleteRecords to 15", 15, now, func(*Config) {}, 15, []int64{10}, 15},
		{"size-based roll", 11, now, func(c *Config) { c.SegmentBytes = 10 * (singleBatchSize - 1) }, 0, []int64{0, 9}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := retentionLog(t, vfs.NewMem(), c.n, c.ts, c.edit)
			if c.lso > 0 {
				_, err := l.DeleteRecords(c.lso, l.LogEndOffset())
				require.NoError(t, err)
			}
			_, err := l.DeleteOldSegments(l.LogEndOffset(), now)
			require.NoError(t, err)
			require.Equal(t, c.wantBases, segmentBases(l))
			require.Equal(t, c.wantLSO, l.LogStartOffset())
			require.Equal(t, int64(c.n), l.LogEndOffset())
		})
	}
}

// UnifiedLogTest.testDeleteOldSegments: the high watermark bounds deletion.
func TestRetentionRespectsHighWatermark(t *testing.T) {
	const now = 1_000_000
	fsys := vfs.NewMem()
	cfg := DefaultConfig()
	cfg.SegmentBytes = 5 * singleBatchSize
	cfg.SegmentIndexBytes = 1000
	cfg.RetentionMs = 999
	l := openTestLog(t, fsys, cfg)
	for i := 0; i < 100; i++ {
		epoch := int32(0)
		if i >= 90 {
			epoch = 1
		}
		_, err := l.AppendAsLeader(valueBatch(now-1000, "test"), epoch, now)
		require.NoError(t, err)
	}
	_, err := l.DeleteOldSegments(0, now)
	require.NoError(t, err)
	require.Equal(t, int64(0), l.LogStartOffset(), "no high watermark: nothing deleted")
	for hw := int64(25); hw <= 30; hw++ {
		_, err := l.DeleteOldSegments(hw, now)
		require.NoError(t, err)
		require.LessOrEqual(t, l.LogStartOffset(), hw)
		segs := l.Segments()
		for i, s := range segs {
			if upper := l.upperBound(i); upper-1 < hw {
				t.Fatalf("HW %d: segment %d (offsets below %d) should have been deleted", hw, s.BaseOffset(), upper)
			}
		}
	}
	_, err = l.DeleteOldSegments(l.LogEndOffset(), now)
	require.NoError(t, err)
	require.Equal(t, []int64{100}, segmentBases(l))
	require.Equal(t, []EpochEntry{{Epoch: 1, StartOffset: 100}}, l.LeaderEpochCache().Entries())
}

func TestDeletedFilesRemovedAfterDelay(t *testing.T) {
	fsys := vfs.NewMem()
	l := retentionLog(t, fsys, 15, 10, func(c *Config) { c.RetentionMs = 10000; c.FileDeleteDelayMs = 60000 })
	_, err := l.DeleteOldSegments(l.LogEndOffset(), 100000)
	require.NoError(t, err)
	names, err := fsys.List(l.Dir())
	require.NoError(t, err)
	require.Contains(t, names, "00000000000000000000.log.deleted")
	n, err := l.DeleteExpiredFiles(100000 + 59999)
	require.NoError(t, err)
	require.Equal(t, 0, n)
	n, err = l.DeleteExpiredFiles(100000 + 60000)
	require.NoError(t, err)
	require.Equal(t, 3, n)
	names, err = fsys.List(l.Dir())
	require.NoError(t, err)
	for _, name := range names {
		require.NotContains(t, name, DeletedSuffix)
	}
	// A crash before the delay: Open removes leftover .deleted files.
	l2 := retentionLog(t, vfs.NewMem(), 15, 10, func(c *Config) { c.RetentionMs = 10000 })
	_, err = l2.DeleteOldSegments(l2.LogEndOffset(), 100000)
	require.NoError(t, err)
	fs2 := l2.fsys.(*vfs.MemFS)
	fs2.Crash()
	l3 := openTestLog(t, fs2, l2.Config())
	require.Equal(t, []int64{15}, segmentBases(l3))
	require.NotEmpty(t, l3.RecoveryReport().FilesRemoved)
}

// TestNothingToDeleteIsSo drives a log by random appends, rolls,
// DeleteRecords, retention and file removals, under random retention.ms,
// retention.bytes and cleanup.policy, and checks that whenever the log says
// it has nothing to delete, retention at any later time and any high
// watermark deletes nothing, nor removes any file.
func TestNothingToDeleteIsSo(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		fsys := vfs.NewMem()
		l := retentionLog(t, fsys, 0, 0, func(c *Config) {
			c.RetentionMs = int64(rapid.SampledFrom([]int{-1, 0, 10, 1000}).Draw(rt, "retention.ms"))
			c.RetentionBytes = int64(rapid.SampledFrom([]int{-1, 0, 100, 1000}).Draw(rt, "retention.bytes"))
			c.FileDeleteDelayMs = int64(rapid.SampledFrom([]int{0, 50}).Draw(rt, "file.delete.delay.ms"))
			if rapid.Bool().Draw(rt, "compact") {
				c.CleanupPolicy = "compact"
			}
		})
		now := int64(0)
		for i := range rapid.IntRange(0, 40).Draw(rt, "steps") {
			now += int64(rapid.IntRange(0, 100).Draw(rt, "ms passing"))
			switch rapid.SampledFrom([]string{"append", "roll", "delete-records", "retention", "expired"}).Draw(rt, "step") {
			case "append":
				_, err := l.AppendAsLeader(valueBatch(now, "test"), 0, now)
				require.NoError(rt, err)
			case "roll":
				require.NoError(rt, l.Roll(now))
			case "delete-records":
				if end := l.LogEndOffset(); end > l.LogStartOffset() {
					_, err := l.DeleteRecords(rapid.Int64Range(l.LogStartOffset(), end).Draw(rt, "before"), end)
					require.NoError(rt, err)
				}
			case "retention":
				_, err := l.DeleteOldSegments(rapid.Int64Range(0, l.LogEndOffset()).Draw(rt, "hw"), now)
				require.NoError(rt, err)
			case "expired":
				_, err := l.DeleteExpiredFiles(now)
				require.NoError(rt, err)
			}
			if !l.NothingToDelete() {
				continue
			}
			bases := segmentBases(l)
			dels, err := l.DeleteOldSegments(math.MaxInt64, now+1<<40)
			require.NoError(rt, err)
			require.Empty(rt, dels, "step %d: retention deleted from a log with nothing to delete (segments %v)", i, bases)
			n, err := l.DeleteExpiredFiles(now + 1<<40)
			require.NoError(rt, err)
			require.Zero(rt, n, "step %d: removed files of a log with nothing to delete", i)
		}
	})
}
