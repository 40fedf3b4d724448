package replicalog

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/vfs"
)

// A cleaning round that swaps in its first groups of segments, then meets
// a batch whose records do not parse in a later group (the clean section,
// which the offset map does not read), fails with ErrUncleanable; the
// mirror then holds what the files hold (what a log opened on them
// mirrors): the swapped groups' records as the cleaner left them, the rest
// as it was, the damaged batch as damage.
func TestCleanFailedPartWayRebuildsTheMirror(t *testing.T) {
	fsys := vfs.NewMem()
	cfg := kafkalog.DefaultConfig()
	cfg.CleanupPolicy, cfg.SegmentBytes = kafkalog.CleanupPolicyCompact, 400
	cfg.IndexIntervalBytes = 1 // an index entry a batch: an open checks no batch but the last
	clock := int64(1000)
	r, err := Open(fsys, "c-0", cfg, &clock)
	require.NoError(t, err)
	appendKey := func(key string, i int) {
		t.Helper()
		_, err := r.AppendAsLeader([]replica.Record{{Key: []byte(key), Value: []byte(fmt.Sprintf("value-%04d", i))}}, 0)
		require.NoError(t, err)
	}
	for i := 0; len(r.Kafka().Segments()) < 5; i++ {
		appendKey(fmt.Sprintf("k%d", i), i) // every key once: the first round keeps every record
	}
	first, err := r.Clean(0, r.LogEndOffset(), clock)
	require.NoError(t, err)
	for i := range 3 {
		appendKey(fmt.Sprintf("k%d", i), 100+i) // supersede k0..k2: a dirty section to clean
	}
	require.NoError(t, r.Kafka().Roll(clock))
	segs := r.Kafka().Segments()
	require.GreaterOrEqual(t, len(first.Groups), 3, "one group a segment")
	damaged := fmt.Sprintf("c-0/%020d.log", segs[2].BaseOffset())
	// the length of the first record of its first batch
	require.NoError(t, fsys.DamageDisk(damaged, kafkalog.BatchHeaderLen, 1, func(b []byte) { b[0] ^= 0xff }))

	res, err := r.Clean(first.EndOffset, r.LogEndOffset(), clock)
	require.ErrorIs(t, err, kafkalog.ErrUncleanable)
	require.Len(t, res.Groups, 2, "the groups before the damaged one were swapped in")
	again, err := Open(fsys.Clone(), "c-0", cfg, &clock, kafkalog.WithRecoveryPoint(r.LogEndOffset()))
	require.NoError(t, err)
	if d := cmp.Diff(mirrored(&again.m), mirrored(&r.m)); d != "" {
		t.Fatalf("the mirror against a fresh open's of the files (-files +mirror):\n%s", d)
	}
	require.NotNil(t, r.DamageFrom(segs[2].BaseOffset()), "the damaged batch is mirrored as damage")
}
