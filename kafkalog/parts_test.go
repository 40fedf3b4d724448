package kafkalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/stretchr/testify/require"
)

// partsLog opens a log with p and appends batches of one record at offsets 0..n-1,
// 100 ms apart, with index.interval.bytes 1 (an index entry per batch).
func partsLog(t *testing.T, fsys vfs.FS, p Parts, n int) *Log {
	t.Helper()
	cfg := DefaultConfig()
	cfg.IndexIntervalBytes = 1
	cfg.SegmentBytes = 400
	l, err := Open(fsys, testDir, cfg, 0, WithParts(p))
	require.NoError(t, err)
	for i := 0; i < n; i++ {
		_, err := l.AppendAsLeader(encodeBatch(0, int64(i)*100, kv{value: "v"}), 0, int64(i)*100)
		require.NoError(t, err)
	}
	return l
}

// firstBatchAt reads offset from l and returns the base offset of the first batch.
func firstBatchAt(t *testing.T, l *Log, offset int64) int64 {
	t.Helper()
	b, err := l.Read(offset, 1)
	require.NoError(t, err)
	return batchBases(t, b)[0]
}

// A lookup given in Parts decides which batch a fetch gets: the reference's lookup
// through the part gives Kafka's answer, a part that always answers the first
// entry with a scan that stops at the first batch gives the wrong batch, and a
// position that does not start a batch is refused.
func TestPartsLookup(t *testing.T) {
	ref := partsLog(t, vfs.NewMem(), Parts{}, 10)
	same := partsLog(t, vfs.NewMem(), Parts{LookupIndex: func(index []byte, entries int, base, target int64) (int64, int32, bool) {
		es, err := DecodeOffsetIndex(index, base)
		require.NoError(t, err)
		off, pos := base, int32(0)
		for _, e := range es[:entries] {
			if e.Offset <= target {
				off, pos = e.Offset, int32(e.Position)
			}
		}
		return off, pos, true
	}}, 10)
	wrong := partsLog(t, vfs.NewMem(), Parts{FindBatch: func(log []byte, start int32, target int64) (int32, bool, bool) {
		return start, true, true // the batch at the index entry, whatever it holds
	}, LookupIndex: func([]byte, int, int64, int64) (int64, int32, bool) { return 0, 0, true }}, 10)
	refused := partsLog(t, vfs.NewMem(), Parts{LookupIndex: func([]byte, int, int64, int64) (int64, int32, bool) { return 0, 3, true }}, 10)
	var got, want [4][]int64
	for _, off := range []int64{0, 2, 3} {
		want[0] = append(want[0], firstBatchAt(t, ref, off))
		got[1] = append(got[1], firstBatchAt(t, same, off))
		got[2] = append(got[2], firstBatchAt(t, wrong, off))
		got[3] = append(got[3], firstBatchAt(t, refused, off))
	}
	want[1], want[2], want[3] = want[0], []int64{0, 0, 0}, want[0]
	got[0] = want[0]
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("first batch read at 0, 2, 3 (reference, same, wrong, refused) (-want +got):\n%s", diff)
	}
	if c := refused.PartCalls(); c.Lookup != 0 || len(c.Refused) != 3 {
		t.Errorf("refused lookups: %+v, want 3 refusals and no lookup used", c)
	}
	if c := wrong.PartCalls(); c.Lookup != 3 {
		t.Errorf("wrong lookups: %+v, want 3 used", c)
	}
}

// A retention rule given in Parts deletes what it says, even above what the
// reference would; a count beyond the segments is refused.
func TestPartsRetention(t *testing.T) {
	all := func(v RetentionView, _ int64) (int, bool) { return len(v.Segments) - 1, true }
	l := partsLog(t, vfs.NewMem(), Parts{DeletableSegments: all}, 12)
	require.Greater(t, len(l.Segments()), 2)
	dels, err := l.DeleteOldSegments(l.LogEndOffset(), 1000)
	require.NoError(t, err)
	require.Len(t, dels, 1)
	require.Equal(t, DeletedByPart, dels[0].Reason)
	require.Len(t, l.Segments(), 1)
	require.Equal(t, l.Segments()[0].BaseOffset(), l.LogStartOffset())

	tooMany := partsLog(t, vfs.NewMem(), Parts{DeletableSegments: func(RetentionView, int64) (int, bool) { return 99, true }}, 12)
	n := len(tooMany.Segments())
	dels, err = tooMany.DeleteOldSegments(tooMany.LogEndOffset(), 1000)
	require.NoError(t, err)
	require.Empty(t, dels, "retention.ms 7 days deletes nothing at 1 s")
	require.Len(t, tooMany.Segments(), n)
	require.Len(t, tooMany.PartCalls().Refused, 1)
}

// A recovery given in Parts decides the cut: one that keeps a torn tail leaves it
// in the segment, after which appends go; the reference cuts it. (A kept tail of
// zeros fails the open instead, as Kafka's readNextOffset does on a batch length
// below the minimum.)
func TestPartsRecoveryKeepsATornTail(t *testing.T) {
	keep := Parts{Recover: func(log []byte, base int64, _ int) (int, []byte, bool) { return len(log), nil, true }}
	for _, c := range []struct {
		name  string
		parts Parts
		size  int64
	}{{"reference", Parts{}, 0}, {"keeps the tail", keep, 0}} {
		t.Run(c.name, func(t *testing.T) {
			fsys := vfs.NewMem()
			l := partsLog(t, fsys, c.parts, 2)
			require.NoError(t, l.Close())
			name := fsys.PathJoin(testDir, SegmentFileName(0, LogSuffix))
			f, err := fsys.OpenReadWrite(name)
			require.NoError(t, err)
			size, err := f.Size()
			require.NoError(t, err)
			_, err = f.WriteAt(encodeBatch(2, 300, kv{value: "torn"})[:20], size) // a torn batch
			require.NoError(t, err)
			require.NoError(t, f.Close())
			cfg := DefaultConfig()
			cfg.IndexIntervalBytes = 1
			cfg.SegmentBytes = 400
			l, err = Open(fsys, testDir, cfg, 0, WithParts(c.parts))
			require.NoError(t, err)
			got := l.Segments()[0].Size() - size
			want := int64(0)
			if c.parts.Recover != nil {
				want = 20
				require.Equal(t, 1, l.PartCalls().Recover)
			}
			require.Equal(t, want, got, "bytes kept after the two batches")
			require.Equal(t, int64(2), l.LogEndOffset())
		})
	}
}

// An encoder given in Parts writes the batches the cleaner rebuilds: the library's
// encoder through the part gives the reference's bytes, one that writes a wrong but
// whole batch (its lastOffsetDelta from its records) is used and its bytes are in the
// cleaned segment, and one whose CRC does not hold is refused.
func TestPartsEncodeCleaned(t *testing.T) {
	clean := func(p Parts) (*Log, []byte) {
		l := openTestLog(t, vfs.NewMem(), compactConfig(), WithParts(p))
		// Batch 0-1 keeps key b, whose record is not the batch's latest timestamp.
		b := RecordBatch{BatchHeader: BatchHeader{PartitionLeaderEpoch: NoPartitionLeaderEpoch,
			ProducerID: NoProducerID, ProducerEpoch: NoProducerEpoch, BaseSequence: NoSequence}}
		b.AppendRecord(0, 50, []byte("b"), []byte("1"))
		b.AppendRecord(1, 90, []byte("a"), []byte("1"))
		appendLeader(t, l, b.AppendTo(nil), 0)
		appendLeader(t, l, encodeBatch(0, 100, kv{key: "a", value: "2"}), 0)
		require.NoError(t, l.Roll(0))
		_, err := l.Clean(0, l.LogEndOffset(), 200, CleanerOptions{})
		require.NoError(t, err)
		raw, err := l.Read(0, 1<<20)
		require.NoError(t, err)
		return l, raw
	}
	_, want := clean(Parts{})
	lib, got := clean(Parts{EncodeBatch: func(dst []byte, b *RecordBatch) ([]byte, bool) { return b.AppendTo(dst), true }})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cleaned bytes through the library's encoder (-want +got):\n%s", diff)
	}
	require.Equal(t, 1, lib.PartCalls().Encode, "the rebuilt batch 0-1")

	wrong, got := clean(Parts{EncodeBatch: func(dst []byte, b *RecordBatch) ([]byte, bool) {
		c := *b
		c.LastOffsetDelta = 0
		if n := len(c.Records); n > 0 {
			c.LastOffsetDelta = c.Records[n-1].OffsetDelta
		}
		return c.AppendTo(dst), true
	}})
	require.Equal(t, 1, wrong.PartCalls().Encode)
	var gotLast []int64
	for at := 0; at < len(got); {
		h, err := ReadBatchHeader(got[at:])
		require.NoError(t, err)
		gotLast = append(gotLast, h.LastOffset())
		at += int(h.Size())
	}
	if diff := cmp.Diff([]int64{0, 2}, gotLast); diff != "" {
		t.Errorf("last offsets of the cleaned batches (the reference's are 1, 2) (-want +got):\n%s", diff)
	}

	refused, got := clean(Parts{EncodeBatch: func(dst []byte, b *RecordBatch) ([]byte, bool) {
		out := b.AppendTo(dst)
		out[len(out)-1] ^= 1
		return out, true
	}})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cleaned bytes after a refused encoding (-want +got):\n%s", diff)
	}
	if c := refused.PartCalls(); c.Encode != 0 || len(c.Refused) != 1 {
		t.Errorf("refused encodings: %+v, want 1 refusal and none used", c)
	}
}
