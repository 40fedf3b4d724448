package replicalog

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/vfs"
)

// A follower's log start raised to its leader's ([Log.RaiseLogStartOffset])
// inside a segment: the records below it leave the mirror, the segment
// keeps their bytes, and damage to those bytes is no reader's business,
// so the mirror still holds what the files hold from the log start on
// (Kafka's readers start at the log start offset and never decode what
// lies below it).
func TestRaisedLogStartPassesOverTheBytesBelowIt(t *testing.T) {
	fsys := vfs.NewMem()
	clock := int64(1000)
	r, err := Open(fsys, "t-0", kafkalog.DefaultConfig(), &clock)
	require.NoError(t, err)
	for i := range 3 {
		_, err := r.AppendAsLeader([]replica.Record{{Value: fmt.Appendf(nil, "v%d", 2*i)}, {Value: fmt.Appendf(nil, "v%d", 2*i+1)}}, 0)
		require.NoError(t, err)
	}
	require.NoError(t, r.RaiseLogStartOffset(4, 6))
	require.Equal(t, int64(4), r.LogStartOffset())
	got, err := r.Read(4, 1<<20)
	require.NoError(t, err)
	require.Len(t, got, 2, "the records from the log start on")
	require.Empty(t, r.MirrorProblem())

	// a byte of the first batch's records, below the log start, flipped
	name := fsys.PathJoin("t-0", kafkalog.SegmentFileName(0, kafkalog.LogSuffix))
	f, err := fsys.OpenReadWrite(name)
	require.NoError(t, err)
	b := make([]byte, 1)
	_, err = f.ReadAt(b, kafkalog.BatchHeaderLen+2)
	require.NoError(t, err)
	b[0] ^= 0xff
	_, err = f.WriteAt(b, kafkalog.BatchHeaderLen+2)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.Empty(t, r.MirrorProblem(), "damage below the log start")
	require.False(t, r.Damaged())

	require.NoError(t, r.RaiseLogStartOffset(3, 6), "a start below the log start does nothing")
	require.Equal(t, int64(4), r.LogStartOffset())
}
