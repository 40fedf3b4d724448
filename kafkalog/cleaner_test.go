package kafkalog

import (
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/stretchr/testify/require"
)

// compactConfig is a compacted topic with 1 KiB segments.
func compactConfig() Config {
	c := testConfig()
	c.CleanupPolicy = CleanupPolicyCompact
	c.SegmentBytes = 1024
	return c
}

// producerBatch encodes a batch of a producer (pid ≥ 0) with keyed records.
func producerBatch(ts, pid int64, seq int32, transactional bool, recs ...kv) []byte {
	b := encodeBatch(0, ts, recs...)
	rb, _, err := ReadBatch(b)
	if err != nil {
		panic(err)
	}
	rb.ProducerID, rb.ProducerEpoch, rb.BaseSequence = pid, 0, seq
	rb.Attributes = NewAttributes(CompressionNone, CreateTime, transactional, false)
	return rb.AppendTo(nil)
}

func markerBatch(ts, pid int64, t ControlRecordType) []byte {
	b := NewEndTxnMarkerBatch(0, ts, pid, 0, t, 1)
	return b.AppendTo(nil)
}

func appendLeader(t testing.TB, l *Log, b []byte, nowMs int64) AppendInfo {
	t.Helper()
	info, err := l.AppendAsLeader(b, 0, nowMs)
	require.NoError(t, err)
	return info
}

// keysWithValues returns the keys of non-control records that have a value, in log order.
func keysWithValues(t testing.TB, l *Log) []string {
	t.Helper()
	var keys []string
	for _, b := range allBatches(t, l) {
		if b.Attributes.IsControl() {
			continue
		}
		for _, r := range b.Records {
			if r.Value != nil {
				keys = append(keys, string(r.Key))
			}
		}
	}
	return keys
}

// allOffsets returns the offsets of every record (control records included).
func allOffsets(t testing.TB, l *Log) []int64 {
	t.Helper()
	var out []int64
	for _, b := range allBatches(t, l) {
		for i := range b.Records {
			out = append(out, b.Offset(&b.Records[i]))
		}
	}
	return out
}

func allBatches(t testing.TB, l *Log) []RecordBatch {
	t.Helper()
	var out []RecordBatch
	require.NoError(t, l.eachBatch(l.LogStartOffset(), l.LogEndOffset(), func(_ *Segment, h *BatchHeader, raw []byte) (bool, error) {
		b, _, err := ReadBatch(append([]byte(nil), raw...))
		if err != nil {
			return false, err
		}
		out = append(out, b)
		return true, nil
	}))
	return out
}

// I1: keys superseded in the dirty section disappear from the cleaned segments; every
// other key stays; offsets are kept.
func TestCleanRemovesSupersededKeys(t *testing.T) {
	l := openTestLog(t, vfs.NewMem(), compactConfig())
	n := 0
	for len(l.Segments()) < 4 {
		appendLeader(t, l, encodeBatch(0, 1, kv{key: fmt.Sprint(n), value: fmt.Sprint(n)}), 0)
		n++
	}
	for _, k := range []int{1, 3, 5, 7, 9} {
		appendLeader(t, l, encodeBatch(0, 1, kv{key: fmt.Sprint(k), value: "new"}), 0)
	}
	require.NoError(t, l.Roll(0))
	before := l.Size()
	res, err := l.Clean(0, l.LogEndOffset(), 100, CleanerOptions{})
	require.NoError(t, err)
	require.Equal(t, l.active().BaseOffset(), res.EndOffset)
	require.Equal(t, before, res.BytesRead)
	var want []string
	for i := 0; i < n; i++ {
		if i > 9 || i%2 == 0 {
			want = append(want, fmt.Sprint(i))
		}
	}
	want = append(want, "1", "3", "5", "7", "9")
	if diff := cmp.Diff(want, keysWithValues(t, l)); diff != "" {
		t.Fatalf("keys after cleaning (-want +got):\n%s", diff)
	}
	offs := allOffsets(t, l)
	require.NotContains(t, offs, int64(1), "offset 1 (key 1, superseded) is gone")
	require.Contains(t, offs, int64(2), "offset 2 keeps its offset")
	checkIndexes(t, l)
}

// I2: transaction-aware cleaning.
func TestCleanTransactions(t *testing.T) {
	l := openTestLog(t, vfs.NewMem(), compactConfig())
	const p1, p2 = 1, 2
	appendLeader(t, l, producerBatch(1, p1, 0, true, kv{key: "1", value: "a"}, kv{key: "2", value: "a"}), 0) // 0,1
	appendLeader(t, l, producerBatch(1, p2, 0, true, kv{key: "2", value: "b"}, kv{key: "3", value: "b"}), 0) // 2,3
	appendLeader(t, l, producerBatch(1, p1, 2, true, kv{key: "3", value: "c"}, kv{key: "4", value: "c"}), 0) // 4,5
	appendLeader(t, l, markerBatch(1, p1, ControlAbort), 0)                                                  // 6
	appendLeader(t, l, markerBatch(1, p2, ControlCommit), 0)                                                 // 7
	appendLeader(t, l, producerBatch(1, p1, 4, true, kv{key: "2", value: "d"}), 0)                           // 8
	appendLeader(t, l, markerBatch(1, p1, ControlCommit), 0)                                                 // 9
	require.NoError(t, l.Roll(0))
	aborted := []AbortedTxn{{ProducerID: p1, FirstOffset: 0, LastOffset: 6, LastStableOffset: 2}}
	require.Equal(t, aborted, l.AllAbortedTxns(), "the ABORT marker's .txnindex entry; p2's transaction was open at 2")
	_, err := l.Clean(0, l.LogEndOffset(), 100, CleanerOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"3", "2"}, keysWithValues(t, l))
	require.Equal(t, []int64{3, 6, 7, 8, 9}, allOffsets(t, l))
	require.Equal(t, aborted, l.AllAbortedTxns(), "the marker stays, and so does its entry, in the cleaned segment's .txnindex (CleanedTransactionMetadata)")
}

// I3: after tombstones for every even key, no even key has a value.
func TestCleanWithDeletes(t *testing.T) {
	l := openTestLog(t, vfs.NewMem(), compactConfig())
	const n = 40
	for i := 0; i < n; i++ {
		appendLeader(t, l, encodeBatch(0, 1, kv{key: fmt.Sprint(i), value: "v"}), 0)
	}
	for i := 0; i < n; i += 2 {
		appendLeader(t, l, encodeBatch(0, 1, kv{key: fmt.Sprint(i), tombstone: true}), 0)
	}
	for len(l.Segments()) < 4 {
		appendLeader(t, l, encodeBatch(0, 1, kv{key: "pad", value: "p"}), 0)
	}
	require.NoError(t, l.Roll(0))
	_, err := l.Clean(0, l.LogEndOffset(), 100, CleanerOptions{})
	require.NoError(t, err)
	for _, k := range keysWithValues(t, l) {
		var i int
		if _, err := fmt.Sscan(k, &i); err == nil && i%2 == 0 {
			t.Fatalf("even key %s still has a value after its tombstone was cleaned", k)
		}
	}
}

// I4: a tombstone survives the pass that sets its delete horizon and every pass before
// the horizon, and goes after it.
func TestCleanTombstoneDeleteHorizon(t *testing.T) {
	cfg := compactConfig()
	cfg.DeleteRetentionMs = 1000
	l := openTestLog(t, vfs.NewMem(), cfg)
	appendLeader(t, l, encodeBatch(0, 1<<40, kv{key: "0", value: "v"}), 0)
	require.NoError(t, l.Roll(0))
	_, err := l.Clean(0, l.LogEndOffset(), 100, CleanerOptions{})
	require.NoError(t, err)
	appendLeader(t, l, encodeBatch(0, 1, kv{key: "0", tombstone: true}), 0) // offset 1
	require.NoError(t, l.Roll(0))
	res, err := l.Clean(1, l.LogEndOffset(), 100, CleanerOptions{})
	require.NoError(t, err)
	require.Equal(t, []int64{1}, allOffsets(t, l), "the tombstone stays, the value it deletes goes")
	b := allBatches(t, l)[0]
	require.True(t, b.Attributes.HasDeleteHorizon())
	require.Equal(t, int64(100+1000), b.BaseTimestamp, "delete horizon = now + delete.retention.ms")
	require.Equal(t, int64(1), b.Timestamp(&b.Records[0]), "the record keeps its timestamp")

	appendLeader(t, l, encodeBatch(0, 1, kv{key: "1", value: "v"}), 0) // offset 2
	require.NoError(t, l.Roll(0))
	_, err = l.Clean(res.EndOffset, l.LogEndOffset(), 1099, CleanerOptions{})
	require.NoError(t, err)
	require.Contains(t, allOffsets(t, l), int64(1), "still before the horizon")

	appendLeader(t, l, encodeBatch(0, 1, kv{key: "2", value: "v"}), 0) // offset 3
	require.NoError(t, l.Roll(0))
	_, err = l.Clean(0, l.LogEndOffset(), 1100, CleanerOptions{})
	require.NoError(t, err)
	require.NotContains(t, allOffsets(t, l), int64(1), "the horizon passed: the tombstone goes")
}

// I5: the last batch of a producer survives as an empty header keeping its sequence.
func TestCleanRetainsProducerLastBatch(t *testing.T) {
	l := openTestLog(t, vfs.NewMem(), compactConfig())
	appendLeader(t, l, producerBatch(1, 7, 0, false, kv{key: "a", value: "1"}, kv{key: "b", value: "1"}), 0) // 0,1
	appendLeader(t, l, producerBatch(1, 7, 2, false, kv{key: "a", value: "2"}), 0)                           // 2
	appendLeader(t, l, encodeBatch(0, 1, kv{key: "a", value: "3"}, kv{key: "b", value: "3"}), 0)             // 3,4
	appendLeader(t, l, encodeBatch(0, 1, kv{key: "c", value: "x"}), 0)                                       // 5
	require.NoError(t, l.Roll(0))
	_, err := l.Clean(0, l.LogEndOffset(), 100, CleanerOptions{})
	require.NoError(t, err)
	bs := allBatches(t, l)
	require.Len(t, bs, 3)
	require.Equal(t, int64(2), bs[0].BaseOffset)
	require.Empty(t, bs[0].Records, "the producer's last batch is kept empty")
	require.Equal(t, int64(7), bs[0].ProducerID)
	require.Equal(t, int32(2), bs[0].BaseSequence)
	require.Equal(t, int64(2), bs[0].LastOffset())
}

// I6: groups never exceed segment.bytes, and cover the segments in order.
func TestCleanGroupsSegments(t *testing.T) {
	cfg := compactConfig()
	cfg.SegmentBytes = 300
	l := openTestLog(t, vfs.NewMem(), cfg)
	for i := 0; i < 60; i++ {
		appendLeader(t, l, encodeBatch(0, 1, kv{key: fmt.Sprint(i % 7), value: fmt.Sprint(i)}), 0)
	}
	groups := l.groupSegments(l.active().BaseOffset())
	var bases []int64
	for _, g := range groups {
		var size int64
		for _, s := range g {
			size += s.Size()
			bases = append(bases, s.BaseOffset())
		}
		require.LessOrEqual(t, size, cfg.SegmentBytes)
	}
	all := segmentBases(l)
	require.Equal(t, all[:len(all)-1], bases)
	_, err := l.Clean(0, l.LogEndOffset(), 100, CleanerOptions{})
	require.NoError(t, err)
	require.Equal(t, len(all), len(l.Segments()), "groups are sized before cleaning: full segments stay apart")
	_, err = l.Clean(0, l.LogEndOffset(), 100, CleanerOptions{})
	require.NoError(t, err)
	require.Less(t, len(l.Segments()), len(all), "the second round groups the small cleaned segments")
	checkIndexes(t, l)
}

// I7: an offset map too small for the dirty keys cleans up to where it filled, and the
// next round continues.
func TestCleanPartialOffsetMap(t *testing.T) {
	l := openTestLog(t, vfs.NewMem(), compactConfig())
	for i := 0; i < 30; i++ {
		appendLeader(t, l, encodeBatch(0, 1, kv{key: fmt.Sprint(i % 10), value: fmt.Sprint(i)}), 0)
	}
	for i := 0; i < 30; i++ {
		appendLeader(t, l, encodeBatch(0, 1, kv{key: fmt.Sprint(100 + i), value: "x"}), 0)
	}
	require.NoError(t, l.Roll(0))
	res, err := l.Clean(0, l.LogEndOffset(), 100, CleanerOptions{MaxMapEntries: 10})
	require.NoError(t, err)
	require.Equal(t, int64(30), res.EndOffset, "the map held keys 0..9 and filled at key 100")
	res2, err := l.Clean(res.EndOffset, l.LogEndOffset(), 100, CleanerOptions{MaxMapEntries: 10})
	require.NoError(t, err)
	require.Equal(t, int64(40), res2.EndOffset)
	require.Equal(t, []int64{20, 21, 22, 23, 24, 25, 26, 27, 28, 29}, allOffsets(t, l)[:10])
}

func TestCleanableRatio(t *testing.T) {
	l := openTestLog(t, vfs.NewMem(), compactConfig())
	for i := 0; i < 40; i++ {
		appendLeader(t, l, encodeBatch(0, 1, kv{key: "k", value: fmt.Sprint(i)}), 0)
	}
	segs := l.Segments()
	sec, err := l.CleanableSection(segs[1].BaseOffset(), l.LogEndOffset(), 0)
	require.NoError(t, err)
	require.Equal(t, segs[0].Size(), sec.CleanBytes)
	var dirty int64
	for _, s := range segs[1 : len(segs)-1] {
		dirty += s.Size()
	}
	require.Equal(t, dirty, sec.CleanableBytes)
	require.Equal(t, l.active().BaseOffset(), sec.FirstUncleanableOffset, "the active segment is never cleanable")
	require.InDelta(t, float64(dirty)/float64(dirty+segs[0].Size()), sec.Ratio, 1e-9)
	cfg := l.Config()
	cfg.MinCleanableDirtyRatio = sec.Ratio
	require.False(t, sec.NeedsCleaning(cfg), "eligible only strictly above the ratio")
	cfg.MinCleanableDirtyRatio = sec.Ratio - 0.01
	require.True(t, sec.NeedsCleaning(cfg))
	// A checkpoint beyond the LEO is reset to the log start offset.
	sec, err = l.CleanableSection(1000, l.LogEndOffset(), 0)
	require.NoError(t, err)
	require.Equal(t, int64(0), sec.FirstDirtyOffset)
}

func TestCleanRefusesDeletePolicy(t *testing.T) {
	l := openTestLog(t, vfs.NewMem(), testConfig())
	_, err := l.Clean(0, l.LogEndOffset(), 0, CleanerOptions{})
	require.ErrorIs(t, err, ErrNotCompacted)
}

// The cleaner's swap is crash-safe: a power cut after any operation of a clean leaves
// a log that opens, holds only records that were appended, at their offsets, and still
// holds the latest value of every key.
func TestCleanCrashAtEveryOperation(t *testing.T) {
	fsys := vfs.NewMem()
	cfg := compactConfig()
	cfg.SegmentBytes = 400
	l := openTestLog(t, fsys, cfg)
	appended := map[int64]logRec{}
	latest := map[string]int64{}
	for i := 0; i < 50; i++ {
		k := fmt.Sprint("key", i%6)
		info := appendLeader(t, l, encodeBatch(0, 1, kv{key: k, value: fmt.Sprint(i)}), 0)
		appended[info.FirstOffset] = logRec{Offset: info.FirstOffset, Key: k, Value: fmt.Sprint(i)}
		latest[k] = info.FirstOffset
	}
	require.NoError(t, l.Roll(0))
	require.NoError(t, l.Flush(l.LogEndOffset()))
	rp := l.RecoveryPoint()
	var snaps []*vfs.MemFS
	fsys.SetHook(func(vfs.Op) error {
		snaps = append(snaps, fsys.Clone())
		return nil
	})
	_, err := l.Clean(0, l.LogEndOffset(), 100, CleanerOptions{})
	require.NoError(t, err)
	fsys.SetHook(nil)
	snaps = append(snaps, fsys.Clone())
	for k, snap := range snaps {
		for _, v := range tearVariants {
			c := snap.Clone()
			c.PowerCut(v.keep)
			l2, err := Open(c, testDir, cfg, 0, WithRecoveryPoint(rp))
			require.NoError(t, err, "after op %d (%s)", k, v.name)
			recs, err := readAllErr(l2)
			require.NoError(t, err, "after op %d (%s)", k, v.name)
			seen := map[int64]bool{}
			for _, r := range recs {
				if want, ok := appended[r.Offset]; !ok || want.Key != r.Key || want.Value != r.Value {
					t.Fatalf("after op %d (%s): offset %d holds %s=%s, never appended there", k, v.name, r.Offset, r.Key, r.Value)
				}
				seen[r.Offset] = true
			}
			var missing []int64
			for _, o := range latest {
				if !seen[o] {
					missing = append(missing, o)
				}
			}
			sort.Slice(missing, func(i, j int) bool { return missing[i] < missing[j] })
			require.Empty(t, missing, "after op %d (%s): latest values lost", k, v.name)
			require.NoError(t, indexesAgree(l2), "after op %d (%s)", k, v.name)
		}
	}
	t.Logf("clean: %d crash points x %d torn-tail variants", len(snaps), len(tearVariants))
}

// A compressed batch that loses records is rebuilt with the same codec, keeping its
// offsets and producer fields.
func TestCleanRecompresses(t *testing.T) {
	l := openTestLog(t, vfs.NewMem(), compactConfig())
	b := RecordBatch{BatchHeader: BatchHeader{
		PartitionLeaderEpoch: NoPartitionLeaderEpoch, BaseTimestamp: 5, MaxTimestamp: 7, LastOffsetDelta: 2,
		ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch, BaseSequence: NoSequence,
		Attributes: NewAttributes(CompressionGzip, CreateTime, false, false),
	}, Records: []Record{
		{OffsetDelta: 0, TimestampDelta: 0, Key: []byte("a"), Value: []byte("old")},
		{OffsetDelta: 1, TimestampDelta: 1, Key: []byte("b"), Value: []byte("keep")},
		{OffsetDelta: 2, TimestampDelta: 2, Key: []byte("c"), Value: []byte("keep")},
	}}
	appendLeader(t, l, b.AppendTo(nil), 0)
	appendLeader(t, l, encodeBatch(0, 9, kv{key: "a", value: "new"}), 0)
	require.NoError(t, l.Roll(0))
	_, err := l.Clean(0, l.LogEndOffset(), 100, CleanerOptions{})
	require.NoError(t, err)
	bs := allBatches(t, l)
	require.Len(t, bs, 2)
	require.Equal(t, CompressionGzip, bs[0].Attributes.Compression())
	require.Equal(t, int64(0), bs[0].BaseOffset)
	require.Equal(t, int64(2), bs[0].LastOffset(), "the last offset is kept")
	require.Equal(t, []int64{1, 2, 3}, allOffsets(t, l))
	require.Equal(t, int64(6), bs[0].Timestamp(&bs[0].Records[0]))
	require.Equal(t, int64(7), bs[0].MaxTimestamp)
}
