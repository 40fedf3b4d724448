package kafkalog

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/stretchr/testify/require"
)

// newTestSegment creates a segment at base 40 with index.interval.bytes 10 (LogSegmentTest).
func newTestSegment(t *testing.T) *Segment {
	t.Helper()
	fsys := vfs.NewMem()
	require.NoError(t, fsys.MkdirAll(testDir, 0o755))
	s, err := createSegment(fsys, testDir, 40, "", segmentParams{indexIntervalBytes: 10, maxIndexSize: 1000})
	require.NoError(t, err)
	return s
}

// segAppend appends one batch at base with the given values to s.
func segAppend(t *testing.T, s *Segment, base, ts int64, values ...string) {
	t.Helper()
	var recs []kv
	for _, v := range values {
		recs = append(recs, kv{value: v})
	}
	b := encodeBatch(base, ts, recs...)
	require.NoError(t, s.append(base+int64(len(values))-1, ts, base+int64(len(values))-1, b))
}

// batchBases returns the base offsets of the batches in b.
func batchBases(t *testing.T, b []byte) []int64 {
	t.Helper()
	var out []int64
	for p := 0; p < len(b); {
		h, n, err := CheckBatch(b[p:])
		require.NoError(t, err)
		out = append(out, h.BaseOffset)
		p += n
	}
	return out
}

// offsets that do not fit the segment are refused.
func TestSegmentOffsetOverflow(t *testing.T) {
	cases := []struct{ base, largest int64 }{
		{0, -(1 << 31)}, {0, 1 << 31}, {1, 0}, {100, 10}, {1 << 31, 0}, {-(1 << 31), 0}, {1 << 31, 1 << 32},
	}
	for _, c := range cases {
		s := &Segment{baseOffset: c.base}
		require.ErrorIs(t, s.checkOffset(c.largest), ErrOffsetOverflow, "base %d, largest %d", c.base, c.largest)
	}
	require.NoError(t, (&Segment{baseOffset: 5}).checkOffset(5+math.MaxInt32))
}

// reads return the first batch whose last offset reaches the target.
func TestSegmentRead(t *testing.T) {
	buf := make([]byte, lookupBufferSize)
	s := newTestSegment(t)
	got, err := s.readFrom(40, 300, s.size, buf)
	require.NoError(t, err)
	require.Nil(t, got, "an empty segment reads nothing")

	segAppend(t, s, 50, 1, "hello", "there", "little", "bee")
	got, err = s.readFrom(41, 300, s.size, buf)
	require.NoError(t, err)
	require.Equal(t, []int64{50}, batchBases(t, got))

	s = newTestSegment(t)
	segAppend(t, s, 50, 1, "hello", "there")
	got, err = s.readFrom(52, 200, s.size, buf)
	require.NoError(t, err)
	require.Nil(t, got, "nothing at or after 52")

	segAppend(t, s, 60, 1, "alpha", "beta")
	got, err = s.readFrom(55, 200, s.size, buf)
	require.NoError(t, err)
	require.Equal(t, []int64{60}, batchBases(t, got), "the batch 60..61")
}

// a truncation to before the first batch resets the roll clock.
func TestSegmentTruncateResetsRollClock(t *testing.T) {
	buf := make([]byte, lookupBufferSize)
	s := newTestSegment(t)
	s.createdMs = 0
	segAppend(t, s, 40, NoTimestamp, "hello", "there")
	require.Equal(t, int64(500), s.timeWaitedForRoll(500, NoTimestamp, buf))
	end, err := s.truncateTo(0, 1000, 500, buf)
	require.NoError(t, err)
	require.Equal(t, int64(0), end)
	require.Equal(t, int64(0), s.timeWaitedForRoll(500, NoTimestamp, buf))
	require.False(t, s.oidx.IsFull() || s.tidx.IsFull())
	got, err := s.readFrom(0, 1024, s.size, buf)
	require.NoError(t, err)
	require.Nil(t, got)
}

// the next offset and the first batch's timestamp.
func TestSegmentNextOffsetAndFirstTimestamp(t *testing.T) {
	buf := make([]byte, lookupBufferSize)
	s := newTestSegment(t)
	next, err := s.readNextOffset(buf)
	require.NoError(t, err)
	require.Equal(t, int64(40), next)
	require.Equal(t, int64(NoTimestamp), s.firstTimestamp(buf), "an empty segment has no first timestamp")
	segAppend(t, s, 50, 77, "a", "b", "c")
	next, err = s.readNextOffset(buf)
	require.NoError(t, err)
	require.Equal(t, int64(53), next)
	s.firstBatchTimestampKnown = false
	require.Equal(t, int64(77), s.firstTimestamp(buf))
}

// Index entries point at the start of the append whose bytes crossed
// index.interval.bytes, with the append's last offset (LogSegment.append).
func TestSegmentIndexEntries(t *testing.T) {
	s := newTestSegment(t)
	var positions []int64
	for i := int64(0); i < 4; i++ {
		positions = append(positions, s.size)
		segAppend(t, s, 40+2*i, 10*i, "x", "y")
	}
	var got []OffsetPosition
	for n := 0; n < s.oidx.Entries(); n++ {
		got = append(got, s.oidx.Entry(n))
	}
	// The first append has no entry (nothing before it); each later one does,
	// because every batch is larger than 10 bytes.
	want := []OffsetPosition{{Offset: 43, Position: positions[1]}, {Offset: 45, Position: positions[2]}, {Offset: 47, Position: positions[3]}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("index entries (-want +got):\n%s", diff)
	}
}
