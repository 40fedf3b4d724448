package kafkalog

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/kafkalive/kafkalive/vfs"
	"github.com/stretchr/testify/require"
)

func TestRollOnSegmentMs(t *testing.T) {
	cfg := testConfig()
	cfg.SegmentBytes = 1 << 20
	cfg.SegmentMs = 100
	l := openTestLog(t, vfs.NewMem(), cfg)
	appendLeader(t, l, valueBatch(1000, "a"), 5000)
	appendLeader(t, l, valueBatch(1100, "b"), 5000) // 100 after the first batch: not more than segment.ms
	require.Equal(t, []int64{0}, segmentBases(l))
	appendLeader(t, l, valueBatch(1101, "c"), 5000) // 101 after it
	require.Equal(t, []int64{0, 2}, segmentBases(l))
	require.Equal(t, int64(2), l.RecoveryPoint(), "a roll flushes the segments before it")
}

// Without timestamps the segment's age comes from its creation time.
func TestRollOnSegmentMsWithoutTimestamps(t *testing.T) {
	cfg := testConfig()
	cfg.SegmentBytes = 1 << 20
	cfg.SegmentMs = 100
	l := openTestLog(t, vfs.NewMem(), cfg) // segment created at 0
	appendLeader(t, l, valueBatch(NoTimestamp, "a"), 50)
	appendLeader(t, l, valueBatch(NoTimestamp, "b"), 100)
	require.Equal(t, []int64{0}, segmentBases(l))
	appendLeader(t, l, valueBatch(NoTimestamp, "c"), 101)
	require.Equal(t, []int64{0, 2}, segmentBases(l))
}

func TestRollJitterIsDrawnPerSegmentAndBounded(t *testing.T) {
	cfg := testConfig()
	cfg.SegmentMs = 100
	cfg.SegmentJitterMs = 1000
	jitters := func(seed uint64) []int64 {
		l, err := Open(vfs.NewMem(), testDir, cfg, 0, WithRand(rand.New(rand.NewPCG(seed, 1))))
		require.NoError(t, err)
		var out []int64
		for i := 0; i < 5; i++ {
			appendLeader(t, l, valueBatch(int64(i*1000), "v"), 0)
		}
		for _, s := range l.Segments() {
			require.Less(t, s.rollJitterMs, int64(100), "jitter < min(segment.jitter.ms, segment.ms)")
			out = append(out, s.rollJitterMs)
		}
		return out
	}
	require.Equal(t, jitters(7), jitters(7), "the same seed gives the same jitters")
	require.Len(t, jitters(7), 5, "every batch is a segment.ms later: five segments")
}

func TestRollOnFullIndex(t *testing.T) {
	cfg := testConfig()
	cfg.SegmentBytes = 1 << 20
	cfg.SegmentIndexBytes = 36 // 4 offset entries; 3 time entries, full at 2
	cfg.IndexIntervalBytes = 0
	l := openTestLog(t, vfs.NewMem(), cfg)
	for i := 0; i < 10; i++ {
		appendLeader(t, l, valueBatch(int64(i), "v"), 0)
	}
	require.Greater(t, len(l.Segments()), 2)
	for _, s := range l.Segments()[:len(l.Segments())-1] {
		require.LessOrEqual(t, s.tidx.Entries(), 3)
	}
	checkIndexes(t, l)
}

func TestRollOnOffsetOverflow(t *testing.T) {
	l := openTestLog(t, vfs.NewMem(), testConfig())
	_, err := l.AppendAsFollower(encodeBatch(0, 1, kv{value: "a"}), 0)
	require.NoError(t, err)
	far := int64(math.MaxInt32) + 1
	_, err = l.AppendAsFollower(encodeBatch(far, 1, kv{value: "b"}), 0)
	require.NoError(t, err)
	require.Equal(t, []int64{0, far}, segmentBases(l), "offset %d cannot be relative to 0", far)
	require.Equal(t, far+1, l.LogEndOffset())
	require.Len(t, readAll(t, l), 2)
}

func TestRollExplicit(t *testing.T) {
	l := openTestLog(t, vfs.NewMem(), testConfig())
	require.NoError(t, l.Roll(0))
	require.Equal(t, []int64{0}, segmentBases(l), "rolling an empty active segment does nothing")
	appendLeader(t, l, valueBatch(1, "v"), 0)
	require.NoError(t, l.Roll(0))
	require.Equal(t, []int64{0, 1}, segmentBases(l))
	require.ErrorIs(t, l.roll(0, 0), ErrSegmentExists)
}

// A roll right after a flush still makes the old segment's trimmed indexes durable:
// after a power cut the segment below the recovery point has no zero padding to trust.
func TestRollMakesTrimmedIndexesDurable(t *testing.T) {
	fsys := vfs.NewMem()
	cfg := testConfig()
	cfg.SegmentBytes = 1 << 20
	cfg.IndexIntervalBytes = 0
	l := openTestLog(t, fsys, cfg)
	for i := 0; i < 5; i++ {
		appendLeader(t, l, valueBatch(int64(i), "v"), 0)
	}
	require.NoError(t, l.Flush(l.LogEndOffset()))
	require.NoError(t, l.Roll(0))
	fsys.PowerCut(nil)
	for _, suffix := range []string{IndexSuffix, TimeIndexSuffix} {
		durable, _, err := fsys.SizeOnDisk(segPath(0, suffix))
		require.NoError(t, err)
		require.Less(t, durable, int64(100), "%s of the rolled segment is still preallocated on disk", suffix)
	}
	l = openTestLog(t, fsys, cfg, WithRecoveryPoint(5))
	require.Empty(t, l.RecoveryReport().IndexesRebuilt)
	require.Len(t, readAll(t, l), 5)
}
