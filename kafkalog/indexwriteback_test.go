package kafkalog

import (
	"bytes"
	"errors"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/vfs"
)

// checkIndexFileWritten checks the page-cache bytes of the index file name against
// the entries an index holds in memory (want, encoded): the file must be some prefix
// of them followed by nothing but zeros, never a stale or dropped entry. With
// written, the prefix must be all of them (after Sync, TrimToValidSize or Close).
func checkIndexFileWritten(t interface {
	Helper()
	Fatalf(string, ...any)
}, fsys vfs.FS, name string, entrySize int, want [][]byte, written bool) {
	t.Helper()
	f, err := fsys.Open(name)
	if err != nil {
		t.Fatalf("opening index file %s: %v", name, err)
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		t.Fatalf("size of index file %s: %v", name, err)
	}
	b := make([]byte, size)
	if err := vfs.ReadAtFull(f, b, 0); err != nil {
		t.Fatalf("reading index file %s: %v", name, err)
	}
	k := 0
	for k < len(want) && (k+1)*entrySize <= len(b) && bytes.Equal(b[k*entrySize:(k+1)*entrySize], want[k]) {
		k++
	}
	if written && k < len(want) {
		t.Fatalf("after a write-back the file %s holds %d of the %d entries in memory", name, k, len(want))
	}
	for i, c := range b[k*entrySize:] {
		if c != 0 {
			t.Fatalf("index file %s holds %d of %d entries, then a non-zero byte at %d: a stale or dropped entry", name, k, len(want), k*entrySize+i)
		}
	}
}

// TestAppendWritesOnce: an append, whatever number of batches it carries and
// whatever index entries it adds, is one write to the file system (the .log); the
// index entries reach their files in one write each when the log is flushed.
func TestAppendWritesOnce(t *testing.T) {
	fsys := vfs.NewMem()
	cfg := DefaultConfig()
	cfg.IndexIntervalBytes = 1 // an index entry for every append
	l, err := Open(fsys, "topic-0", cfg, 0)
	require.NoError(t, err)
	writes := map[string]int{} // by segment file suffix (the epoch checkpoint is not counted)
	fsys.SetHook(func(op vfs.Op) error {
		if _, suffix, ok := ParseSegmentFileName(baseName(op.Name)); ok && op.Kind == vfs.OpWrite {
			writes[suffix]++
		}
		return nil
	})
	one := valueBatch(1, "v")
	three := append(append(append([]byte(nil), one...), one...), one...)
	const appends = 50
	for i := 0; i < appends; i++ {
		records := one
		if i%2 == 1 {
			records = append([]byte(nil), three...)
		}
		_, err := l.AppendAsLeader(records, 0, 0)
		require.NoError(t, err)
	}
	if n := l.active().oidx.Entries(); n < appends-2 {
		t.Fatalf("index.interval.bytes=1 gave only %d offset index entries for %d appends", n, appends)
	}
	want := map[string]int{LogSuffix: appends}
	if diff := cmp.Diff(want, writes); diff != "" {
		t.Fatalf("%d appends of 1 or 3 batches must be one write each, to the .log (-want +got):\n%s", appends, diff)
	}
	require.NoError(t, l.Flush(l.LogEndOffset()))
	want[IndexSuffix], want[TimeIndexSuffix] = 1, 1
	if diff := cmp.Diff(want, writes); diff != "" {
		t.Fatalf("a flush must write back each index with one write (-want +got):\n%s", diff)
	}
	s := l.active()
	checkIndexFileWritten(t, fsys, s.path(IndexSuffix), OffsetIndexEntrySize, s.oidx.encodeEach(), true)
	checkIndexFileWritten(t, fsys, s.path(TimeIndexSuffix), TimeIndexEntrySize, s.tidx.encodeEach(), true)
}

func (ix *OffsetIndex) encodeEach() [][]byte {
	out := make([][]byte, ix.Entries())
	for i := range out {
		out[i] = ix.encode(i, i+1)
	}
	return out
}

func (ti *TimeIndex) encodeEach() [][]byte {
	out := make([][]byte, ti.Entries())
	for i := range out {
		out[i] = ti.encode(i, i+1)
	}
	return out
}

// TestOpenWithoutRecoveryTakesNoRecoveryBuffer: opening a log that needs no
// recovery (a clean shutdown) does not pay for recovery's 1 MiB buffer; the
// simulated cluster's explorer opens logs thousands of times.
func TestOpenWithoutRecoveryTakesNoRecoveryBuffer(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	fsys := vfs.NewMem()
	cfg := DefaultConfig()
	cfg.SegmentIndexBytes = 4096 // keep the MemFS's preallocated indexes out of the count
	l, err := Open(fsys, "topic-0", cfg, 0)
	require.NoError(t, err)
	for range 20 {
		_, err := l.AppendAsLeader(valueBatch(1, "v"), 0, 0)
		require.NoError(t, err)
	}
	require.NoError(t, l.Close())
	var before, after runtime.MemStats
	const opens = 10
	runtime.ReadMemStats(&before)
	for range opens {
		l, err := Open(fsys, "topic-0", cfg, 0, WithCleanShutdown(), WithRecoveryPoint(l.LogEndOffset()))
		require.NoError(t, err)
		require.NoError(t, l.Close())
	}
	runtime.ReadMemStats(&after)
	if perOpen := (after.TotalAlloc - before.TotalAlloc) / opens; perOpen >= RecoveryBufferSize/4 {
		t.Fatalf("opening a cleanly shut down log allocated %d bytes, as if it took recovery's %d-byte buffer", perOpen, RecoveryBufferSize)
	}
}

// TestWriteBackIndexes: WriteBackIndexes puts every entry in the files (as a live
// Kafka broker's mmapped pages show them) without an fsync.
func TestWriteBackIndexes(t *testing.T) {
	fsys := vfs.NewMem()
	cfg := DefaultConfig()
	cfg.IndexIntervalBytes = 1
	l, err := Open(fsys, "topic-0", cfg, 0)
	require.NoError(t, err)
	for i := range 10 {
		_, err := l.AppendAsLeader(valueBatch(1, "v"), 0, int64(i))
		require.NoError(t, err)
	}
	s := l.active()
	require.Greater(t, s.oidx.Entries(), 5)
	syncs := fsys.OpCountOf(vfs.OpSync)
	require.NoError(t, l.WriteBackIndexes())
	checkIndexFileWritten(t, fsys, s.path(IndexSuffix), OffsetIndexEntrySize, s.oidx.encodeEach(), true)
	checkIndexFileWritten(t, fsys, s.path(TimeIndexSuffix), TimeIndexEntrySize, s.tidx.encodeEach(), true)
	if got := fsys.OpCountOf(vfs.OpSync) - syncs; got != 0 {
		t.Fatalf("WriteBackIndexes made %d fsyncs, want none", got)
	}
	require.NoError(t, l.Close())
	if err := l.WriteBackIndexes(); !errors.Is(err, ErrLogClosed) {
		t.Fatalf("WriteBackIndexes on a closed log gave %v, want ErrLogClosed", err)
	}
}
