package kafkalog

import (
	"errors"
	"fmt"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/stretchr/testify/require"
)

const testDir = "logs/topic-0"

// segPath names a file of the segment at base in the test log's directory.
func segPath(base int64, suffix string) string {
	return testDir + "/" + SegmentFileName(base, suffix)
}

// writeFile overwrites b at off in the named file (in the page cache).
func writeFile(t testing.TB, fsys vfs.FS, name string, off int64, b []byte) {
	t.Helper()
	f, err := fsys.OpenReadWrite(name)
	require.NoError(t, err)
	_, err = f.WriteAt(b, off)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

func fileSize(t testing.TB, fsys vfs.FS, name string) int64 {
	t.Helper()
	fi, err := fsys.Stat(name)
	require.NoError(t, err)
	return fi.Size()
}

func offsetsOf(recs []logRec) []int64 {
	var out []int64
	for _, r := range recs {
		out = append(out, r.Offset)
	}
	return out
}

func offsetRange(from, to int64) []int64 {
	var out []int64
	for o := from; o < to; o++ {
		out = append(out, o)
	}
	return out
}

// twentyBatches appends 20 single-record batches (offsets 0..19) and crashes the
// process: the page cache survives, the log was not closed.
func twentyBatches(t *testing.T) (*vfs.MemFS, []int64) {
	fsys := vfs.NewMem()
	cfg := testConfig()
	cfg.SegmentBytes = 1 << 20
	l := openTestLog(t, fsys, cfg)
	var starts []int64
	for i := 0; i < 20; i++ {
		starts = append(starts, l.Size())
		_, err := l.AppendAsLeader(valueBatch(int64(i), fmt.Sprint("hello", i)), 0, 0)
		require.NoError(t, err)
	}
	fsys.Crash()
	return fsys, starts
}

// garbage from inside batch k to the end of the file; recovery keeps 0..k−1.
func TestRecoveryCutsAtFirstCorruptBatch(t *testing.T) {
	for _, k := range []int{0, 1, 7, 19} {
		fsys, starts := twentyBatches(t)
		end := fileSize(t, fsys, segPath(0, LogSuffix))
		from := starts[k] + 20
		garbage := make([]byte, end-from)
		for i := range garbage {
			garbage[i] = byte(i*7 + 3)
		}
		writeFile(t, fsys, segPath(0, LogSuffix), from, garbage)
		l := openTestLog(t, fsys, testConfig())
		if diff := cmp.Diff(offsetRange(0, int64(k)), offsetsOf(readAll(t, l))); diff != "" {
			t.Fatalf("k=%d: offsets after recovery (-want +got):\n%s", k, diff)
		}
		r := l.RecoveryReport()
		require.Len(t, r.Truncations, 1)
		require.Equal(t, starts[k], r.Truncations[0].Position, "cut at the start of batch %d", k)
		require.Equal(t, int64(k), l.LogEndOffset())
	}
}

// Zero padding (what a power cut leaves after a preallocated or grown file) and a
// torn last batch are cut; nothing before them is.
func TestRecoveryCutsZeroPaddingAndTornTail(t *testing.T) {
	cases := []struct {
		name string
		edit func(t *testing.T, fsys vfs.FS, end int64)
		want int64
	}{
		{"zero padding", func(t *testing.T, fsys vfs.FS, end int64) {
			writeFile(t, fsys, segPath(0, LogSuffix), end, make([]byte, 4096))
		}, 20},
		{"torn last batch", func(t *testing.T, fsys vfs.FS, end int64) {
			f, err := fsys.OpenReadWrite(segPath(0, LogSuffix))
			require.NoError(t, err)
			require.NoError(t, f.Truncate(end-5))
			require.NoError(t, f.Close())
		}, 19},
		{"16 stray bytes", func(t *testing.T, fsys vfs.FS, end int64) {
			writeFile(t, fsys, segPath(0, LogSuffix), end, []byte("0123456789abcdef"))
		}, 20},
		{"length field below 14", func(t *testing.T, fsys vfs.FS, end int64) {
			writeFile(t, fsys, segPath(0, LogSuffix), end, append(make([]byte, 8), 0, 0, 0, 5, 1, 2, 3, 4, 5, 6, 7, 8, 9))
		}, 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys, _ := twentyBatches(t)
			end := fileSize(t, fsys, segPath(0, LogSuffix))
			c.edit(t, fsys, end)
			l := openTestLog(t, fsys, testConfig())
			require.Equal(t, offsetRange(0, c.want), offsetsOf(readAll(t, l)))
		})
	}
}

// A corrupt batch in an early segment followed by segments with data: Kafka cuts it
// there and deletes the later segments (LogLoader.recoverLog); this log refuses, naming
// the file and position, and cuts nothing. Followed by empty segments only, the cut is
// made and the empty segments go, as in Kafka.
func TestRecoveryCutBeforeLaterData(t *testing.T) {
	fsys := vfs.NewMem()
	l := openTestLog(t, fsys, testConfig())
	for i := 0; i < 60; i++ {
		_, err := l.AppendAsLeader(valueBatch(int64(i), fmt.Sprint("v", i)), 0, 0)
		require.NoError(t, err)
	}
	bases := segmentBases(l)
	require.GreaterOrEqual(t, len(bases), 3)
	fsys.Crash()
	// Flip a byte inside the second segment's third batch.
	pos := 2*singleBatchSizeFor("v10") + 30
	b := make([]byte, 1)
	f, err := fsys.Open(segPath(bases[1], LogSuffix))
	require.NoError(t, err)
	_, err = f.ReadAt(b, pos)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	writeFile(t, fsys, segPath(bases[1], LogSuffix), pos, []byte{b[0] ^ 0xff})
	sizes := map[int64]int64{}
	for _, base := range bases {
		sizes[base] = fileSize(t, fsys, segPath(base, LogSuffix))
	}
	_, err = Open(fsys, testDir, testConfig(), 0)
	require.ErrorIs(t, err, ErrInconsistentLog)
	var fe *FileError
	require.ErrorAs(t, err, &fe)
	require.Equal(t, segPath(bases[1], LogSuffix), fe.Path)
	require.Equal(t, 2*singleBatchSizeFor("v10"), fe.Position)
	require.Contains(t, err.Error(), "crc")
	for _, base := range bases {
		require.Equal(t, sizes[base], fileSize(t, fsys, segPath(base, LogSuffix)), "segment %d changed by a refused open", base)
	}

	// Empty the later segments: now the cut loses no valid batch.
	for _, base := range bases[2:] {
		f, err := fsys.OpenReadWrite(segPath(base, LogSuffix))
		require.NoError(t, err)
		require.NoError(t, f.Truncate(0))
		require.NoError(t, f.Close())
	}
	l = openTestLog(t, fsys, testConfig())
	r := l.RecoveryReport()
	require.Equal(t, bases[:2], segmentBases(l))
	require.Equal(t, offsetRange(0, bases[1]+2), offsetsOf(readAll(t, l)))
	require.Contains(t, r.Truncations[0].Reason, "crc")
	require.Equal(t, sizes[bases[1]]-fe.Position, r.RemovedBytes())
}

func singleBatchSizeFor(v string) int64 { return int64(len(valueBatch(0, v))) }

// a damaged index is rebuilt, even after a clean shutdown.
func TestRecoveryRebuildsDamagedIndexes(t *testing.T) {
	damage := []struct {
		name string
		edit func(t *testing.T, fsys vfs.FS)
	}{
		{"index zero-padded", func(t *testing.T, fsys vfs.FS) {
			writeFile(t, fsys, segPath(0, IndexSuffix), fileSize(t, fsys, segPath(0, IndexSuffix)), make([]byte, 64))
		}},
		{"index length not a multiple of 8", func(t *testing.T, fsys vfs.FS) {
			writeFile(t, fsys, segPath(0, IndexSuffix), fileSize(t, fsys, segPath(0, IndexSuffix)), []byte{1, 2, 3})
		}},
		{"index missing", func(t *testing.T, fsys vfs.FS) { require.NoError(t, fsys.Remove(segPath(0, IndexSuffix))) }},
		{"time index missing", func(t *testing.T, fsys vfs.FS) { require.NoError(t, fsys.Remove(segPath(0, TimeIndexSuffix))) }},
		{"index points past the log", func(t *testing.T, fsys vfs.FS) {
			writeFile(t, fsys, segPath(0, IndexSuffix), fileSize(t, fsys, segPath(0, IndexSuffix)), []byte{0, 0, 0, 100, 0, 1, 0, 0})
		}},
	}
	for _, d := range damage {
		t.Run(d.name, func(t *testing.T) {
			fsys := vfs.NewMem()
			cfg := testConfig()
			cfg.SegmentBytes = 1 << 20
			l := openTestLog(t, fsys, cfg)
			for i := 0; i < 40; i++ {
				_, err := l.AppendAsLeader(valueBatch(int64(i), fmt.Sprint("v", i)), 0, 0)
				require.NoError(t, err)
			}
			want := readAll(t, l)
			require.NoError(t, l.Close())
			d.edit(t, fsys)
			l = openTestLog(t, fsys, cfg, WithCleanShutdown())
			require.Equal(t, []int64{0}, l.RecoveryReport().IndexesRebuilt)
			require.Empty(t, l.RecoveryReport().Truncations, "rebuilding an index cuts nothing")
			require.NoError(t, l.segments[0].oidx.SanityCheck())
			require.Greater(t, l.segments[0].oidx.Entries(), 0)
			if diff := cmp.Diff(want, readAll(t, l)); diff != "" {
				t.Fatalf("records (-want +got):\n%s", diff)
			}
			checkIndexes(t, l)
		})
	}
}

// recovery rebuilds the leader epoch cache from the batches' epochs.
func TestRecoveryRebuildsEpochCache(t *testing.T) {
	fsys := vfs.NewMem()
	l := openTestLog(t, fsys, testConfig())
	for i, e := range []int32{0, 0, 1, 2, 2, 2, 5} {
		_, err := l.AppendAsLeader(valueBatch(int64(i), "v"), e, 0)
		require.NoError(t, err)
	}
	fsys.Crash()
	require.NoError(t, fsys.Remove(testDir+"/"+LeaderEpochCheckpointFile))
	l = openTestLog(t, fsys, testConfig())
	require.Equal(t, []EpochEntry{{0, 0}, {1, 2}, {2, 3}, {5, 6}}, l.LeaderEpochCache().Entries())
}

// A cut also truncates the epoch cache: epochs that started in the cut part go.
func TestRecoveryTruncatesEpochCache(t *testing.T) {
	fsys, starts := twentyBatches(t)
	writeFile(t, fsys, segPath(0, LogSuffix), starts[10], []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	l, err := Open(fsys, testDir, testConfig(), 0)
	require.NoError(t, err)
	require.Equal(t, int64(10), l.LogEndOffset())
	require.NoError(t, l.TruncateTo(5, 0))
	_, err = l.AppendAsLeader(valueBatch(1, "e3"), 3, 0)
	require.NoError(t, err)
	fsys.Crash()
	writeFile(t, fsys, segPath(0, LogSuffix), starts[5], make([]byte, 18))
	l = openTestLog(t, fsys, testConfig())
	require.Equal(t, []EpochEntry{{0, 0}}, l.LeaderEpochCache().Entries())
	require.True(t, l.RecoveryReport().EpochsTruncated)
}

// Bad or foreign files never panic and never lose a byte that did not have to go.
func TestRecoveryBadDirectories(t *testing.T) {
	t.Run("foreign files are left alone", func(t *testing.T) {
		fsys, _ := twentyBatches(t)
		writeFile(t, fsys, testDir+"/README.txt", 0, []byte("not kafka"))
		writeFile(t, fsys, testDir+"/0000.log", 0, []byte("short name"))
		writeFile(t, fsys, testDir+"/partition.metadata", 0, []byte("version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAQ\n"))
		l := openTestLog(t, fsys, testConfig())
		require.Len(t, readAll(t, l), 20)
		names, err := fsys.List(testDir)
		require.NoError(t, err)
		require.Contains(t, names, "README.txt")
		require.Contains(t, names, "0000.log")
		require.Contains(t, names, "partition.metadata")
	})
	t.Run("leftover cleaner output and orphan indexes are removed", func(t *testing.T) {
		fsys, _ := twentyBatches(t)
		writeFile(t, fsys, segPath(0, LogSuffix+CleanedSuffix), 0, []byte("half-written"))
		writeFile(t, fsys, segPath(500, IndexSuffix), 0, make([]byte, 16))
		writeFile(t, fsys, segPath(7, LogSuffix+DeletedSuffix), 0, []byte("old"))
		l := openTestLog(t, fsys, testConfig())
		require.Len(t, readAll(t, l), 20)
		require.ElementsMatch(t, []string{
			SegmentFileName(0, LogSuffix+CleanedSuffix), SegmentFileName(500, IndexSuffix), SegmentFileName(7, LogSuffix+DeletedSuffix),
		}, l.RecoveryReport().FilesRemoved)
	})
	t.Run("a legacy message is an error, not a cut", func(t *testing.T) {
		fsys, starts := twentyBatches(t)
		legacy := LegacyMessage{Magic: 1, Value: []byte("v1")}
		writeFile(t, fsys, segPath(0, LogSuffix), starts[19], legacy.AppendTo(nil))
		before := fileSize(t, fsys, segPath(0, LogSuffix))
		_, err := Open(fsys, testDir, testConfig(), 0)
		require.ErrorIs(t, err, ErrLegacyFormat)
		require.Equal(t, before, fileSize(t, fsys, segPath(0, LogSuffix)), "nothing cut")
	})
	t.Run("a directory where a segment should be", func(t *testing.T) {
		fsys := vfs.NewMem()
		require.NoError(t, fsys.MkdirAll(segPath(0, LogSuffix), 0o755))
		_, err := Open(fsys, testDir, testConfig(), 0)
		require.Error(t, err)
	})
	t.Run("a segment overlapping the one before is refused", func(t *testing.T) {
		fsys, starts := twentyBatches(t)
		writeFile(t, fsys, segPath(15, LogSuffix), 0, encodeBatch(15, 1, kv{value: "other"}))
		_, err := Open(fsys, testDir, testConfig(), 0)
		require.ErrorIs(t, err, ErrInconsistentLog)
		var fe *FileError
		require.ErrorAs(t, err, &fe)
		require.Equal(t, FileError{Path: segPath(0, LogSuffix), Position: starts[15]}, FileError{Path: fe.Path, Position: fe.Position})
		require.Contains(t, err.Error(), SegmentFileName(15, LogSuffix))
	})
	t.Run("log below the log start offset is emptied", func(t *testing.T) {
		fsys, _ := twentyBatches(t)
		l := openTestLog(t, fsys, testConfig(), WithLogStartOffset(30))
		require.Equal(t, []int64{30}, segmentBases(l))
		require.Equal(t, int64(30), l.LogEndOffset())
		require.Equal(t, []int64{0}, l.RecoveryReport().SegmentsDeleted)
	})
	t.Run("unreadable epoch checkpoint", func(t *testing.T) {
		fsys, _ := twentyBatches(t)
		writeFile(t, fsys, testDir+"/"+LeaderEpochCheckpointFile, 0, []byte("7\nnonsense"))
		_, err := Open(fsys, testDir, testConfig(), 0)
		require.Error(t, err)
		require.False(t, errors.Is(err, ErrLegacyFormat))
	})
}

// checkIndexes checks that every index entry of every segment points at the start of
// a valid batch at or below its offset, inside the segment, and that the time index
// offsets stay below the LEO.
func checkIndexes(t testing.TB, l *Log) {
	t.Helper()
	if err := indexesAgree(l); err != nil {
		t.Fatal(err)
	}
}

func indexesAgree(l *Log) error {
	buf := make([]byte, 64<<10)
	for i, s := range l.segments {
		if err := s.oidx.SanityCheck(); err != nil {
			return err
		}
		for n := 0; n < s.oidx.Entries(); n++ {
			e := s.oidx.Entry(n)
			if e.Offset >= l.upperBound(i) {
				return fmt.Errorf("segment %d: index entry %d (%d, %d) beyond the segment's offsets (< %d)", s.baseOffset, n, e.Offset, e.Position, l.upperBound(i))
			}
			sc := newBatchScanner(s.log, s.log.Name(), e.Position, s.size, buf, true)
			if !sc.Next() {
				return fmt.Errorf("segment %d: index entry %d (%d, %d) points at no valid batch (size %d): %v", s.baseOffset, n, e.Offset, e.Position, s.size, sc.err)
			}
			if sc.hdr.BaseOffset > e.Offset {
				return fmt.Errorf("segment %d: index entry %d (%d, %d) points at a batch starting at %d", s.baseOffset, n, e.Offset, e.Position, sc.hdr.BaseOffset)
			}
		}
		if err := s.tidx.SanityCheck(); err != nil {
			return err
		}
		if s.tidx.Entries() > 0 && s.tidx.LastEntry().Offset >= l.upperBound(i) {
			return fmt.Errorf("segment %d: time index entry at offset %d beyond the segment", s.baseOffset, s.tidx.LastEntry().Offset)
		}
	}
	return nil
}

// FuzzRecoverSegment opens a log whose only segment holds arbitrary bytes (and an
// arbitrary offset index): Open never panics, recovery keeps a prefix of the bytes
// made of whole valid batches, and the result reads back and agrees with its indexes.
func FuzzRecoverSegment(f *testing.F) {
	good := append(valueBatch(1, "a"), encodeBatch(1, 2, kv{key: "k", value: "b"}, kv{value: "c"})...)
	f.Add(good, []byte{})
	f.Add(good[:len(good)-7], []byte{0, 0, 0, 1, 0, 0, 0, 70})
	f.Add(append(append([]byte(nil), good...), make([]byte, 40)...), make([]byte, 16))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 13, 1, 2, 3, 4, 2}, []byte{1})
	f.Fuzz(func(t *testing.T, logBytes, indexBytes []byte) {
		fsys := vfs.NewMem()
		require.NoError(t, fsys.MkdirAll(testDir, 0o755))
		writeFile(t, fsys, segPath(0, LogSuffix), 0, logBytes)
		writeFile(t, fsys, segPath(0, IndexSuffix), 0, indexBytes)
		l, err := Open(fsys, testDir, testConfig(), 0, WithCleanShutdown())
		if err != nil {
			return // a legacy or unreadable file is an error, never a panic
		}
		kept := fileSize(t, fsys, segPath(0, LogSuffix))
		f2, err := fsys.Open(segPath(0, LogSuffix))
		require.NoError(t, err)
		b := make([]byte, kept)
		_, _ = f2.ReadAt(b, 0)
		require.Equal(t, logBytes[:kept], b, "recovery may only cut the tail")
		if _, err := readAllErr(l); err != nil {
			t.Fatalf("recovered log does not read: %v", err)
		}
		if err := indexesAgree(l); err != nil {
			t.Fatal(err)
		}
	})
}

// A batch larger than the recovery buffer is CRC-checked piece by piece, and recovery
// allocates about one buffer whatever the segment size.
func TestRecoveryBoundedMemory(t *testing.T) {
	fsys := vfs.NewMem()
	cfg := testConfig()
	cfg.SegmentBytes = 64 << 20
	cfg.MaxMessageBytes = 8 << 20
	l := openTestLog(t, fsys, cfg)
	big := valueBatch(1, string(make([]byte, 3*RecoveryBufferSize)))
	appendLeader(t, l, big, 0)
	for i := 0; i < 2000; i++ {
		appendLeader(t, l, valueBatch(int64(i), string(make([]byte, 16<<10))), 0)
	}
	size := l.Size()
	fsys.Crash()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	l, err := Open(fsys, testDir, cfg, 0)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.Empty(t, l.RecoveryReport().Truncations)
	require.Equal(t, int64(2001), l.LogEndOffset())
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("recovered %d MiB allocating %d KiB", size>>20, alloc>>10)
	require.Less(t, alloc, uint64(4*RecoveryBufferSize), "recovery of a %d-byte segment allocated %d bytes", size, alloc)

	// The big batch, corrupted in its last piece, fails its CRC: the cut would take the
	// later segments' data with it, so the open refuses and names the batch.
	fsys.Crash()
	writeFile(t, fsys, segPath(0, LogSuffix), int64(len(big))-2, []byte{0xff})
	_, err = Open(fsys, testDir, cfg, 0)
	require.ErrorIs(t, err, ErrInconsistentLog)
	require.Contains(t, err.Error(), "crc")
	var fe *FileError
	require.ErrorAs(t, err, &fe)
	require.Equal(t, int64(0), fe.Position)
}

// A v2 batch whose magic byte was damaged reads, as in Kafka's FileLogInputStream,
// as a legacy message (magic 0 or 1, or a negative byte) whose CRC-32/IEEE fails, or
// a batch of an unknown magic: recovery cuts the log there, as for any corrupt
// batch, and the report names every byte removed. A batch too large for the
// recovery buffer is checked piece by piece.
func TestRecoveryCutsAtDamagedMagic(t *testing.T) {
	for _, tc := range []struct {
		magic byte
		k     int
		big   bool
	}{{0, 7, false}, {1, 0, false}, {1, 19, false}, {3, 12, false}, {0xff, 5, false}, {0, 20, true}, {1, 20, true}} {
		t.Run(fmt.Sprintf("magic %d at batch %d big %v", int8(tc.magic), tc.k, tc.big), func(t *testing.T) {
			fsys, starts := twentyBatches(t)
			end := fileSize(t, fsys, segPath(0, LogSuffix))
			if tc.big {
				value := make([]byte, RecoveryBufferSize+RecoveryBufferSize/2)
				for i := range value {
					value[i] = byte(i * 31)
				}
				writeFile(t, fsys, segPath(0, LogSuffix), end, encodeBatch(20, 1, kv{value: string(value)}))
				starts = append(starts, end)
				end = fileSize(t, fsys, segPath(0, LogSuffix))
			}
			writeFile(t, fsys, segPath(0, LogSuffix), starts[tc.k]+16, []byte{tc.magic})
			cfg := testConfig()
			cfg.SegmentBytes = 4 << 20
			cfg.MaxMessageBytes = 2 << 20
			l := openTestLog(t, fsys, cfg)
			if diff := cmp.Diff(offsetRange(0, int64(tc.k)), offsetsOf(readAll(t, l))); diff != "" {
				t.Errorf("records after recovery (-want +got):\n%s", diff)
			}
			rep := l.RecoveryReport()
			require.Len(t, rep.Truncations, 1)
			got := rep.Truncations[0]
			want := Truncation{Segment: 0, Position: starts[tc.k], Bytes: end - starts[tc.k], Reason: got.Reason}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("truncation (-want +got):\n%s", diff)
			}
			require.NotContains(t, got.Reason, "legacy message format", "a damaged magic is not a legacy message")
			if diff := cmp.Diff([]Removal{{File: SegmentFileName(0, LogSuffix), Position: starts[tc.k], Bytes: end - starts[tc.k], Reason: got.Reason}}, rep.Removed); diff != "" {
				t.Errorf("removed (-want +got):\n%s", diff)
			}
			require.Equal(t, starts[tc.k], fileSize(t, fsys, segPath(0, LogSuffix)))
		})
	}
}

// A damaged base offset (the CRC does not cover it) that runs ahead of the
// batches after it: recovery cuts at the first batch whose offsets go back
// (kafkalog's increasing-offsets check; Kafka 3.7's LogSegment.recover keeps
// them), which removes offsets below the LEO; the epochs that began there
// are contradicted by the batch kept over them (of an older epoch) and go:
// the cache describes the batches kept, and what a leader says of an
// epoch's end offset is what its log holds.
func TestRecoveryCutBelowTheLEODropsTheEpochsThere(t *testing.T) {
	fsys := vfs.NewMem()
	cfg := testConfig()
	cfg.SegmentBytes = 1 << 20
	l := openTestLog(t, fsys, cfg)
	var starts []int64
	for i, epoch := range []int32{0, 2, 2, 2, 4} {
		starts = append(starts, l.Size())
		_, err := l.AppendAsLeader(valueBatch(int64(i), fmt.Sprint("v", i)), epoch, 0)
		require.NoError(t, err)
	}
	require.NoError(t, l.Close())
	if diff := cmp.Diff([]EpochEntry{{0, 0}, {2, 1}, {4, 4}}, l.LeaderEpochCache().Entries()); diff != "" {
		t.Fatalf("epochs before the damage (-want +got):\n%s", diff)
	}
	writeFile(t, fsys, segPath(0, LogSuffix), starts[0]+7, []byte{0xff}) // base offset 0 reads 255
	l = openTestLog(t, fsys, cfg)
	if diff := cmp.Diff([]int64{255}, offsetsOf(readAll(t, l))); diff != "" {
		t.Errorf("records after recovery (-want +got):\n%s", diff)
	}
	require.Equal(t, int64(256), l.LogEndOffset())
	if diff := cmp.Diff([]EpochEntry{{0, 0}}, l.LeaderEpochCache().Entries()); diff != "" {
		t.Errorf("epochs after recovery (-want +got):\n%s", diff)
	}
	rep := l.RecoveryReport()
	require.Len(t, rep.Truncations, 1)
	require.Equal(t, starts[1], rep.Truncations[0].Position)
	require.True(t, rep.EpochsTruncated)
	if diff := cmp.Diff([]string{
		LeaderEpochCheckpointFile + ": epoch 2 starts at offset 1, but the first batch there (offsets 255..255 in 00000000000000000000.log) is of epoch 0: the entry is dropped",
		LeaderEpochCheckpointFile + ": epoch 4 starts at offset 4, but the first batch there (offsets 255..255 in 00000000000000000000.log) is of epoch 0: the entry is dropped",
	}, rep.Inconsistencies); diff != "" {
		t.Errorf("inconsistencies (-want +got):\n%s", diff)
	}
}

// An epoch entry that the batch at its start offset contradicts is dropped:
// a replica that led epoch 2 from offset 1 without appending, whose one
// batch (epoch 0) has its base offset damaged from 0 to 255, would keep
// saying epoch 0 ends at 1, before the batch of epoch 0 it holds at 255.
func TestOpenDropsAnEpochTheLogContradicts(t *testing.T) {
	fsys := vfs.NewMem()
	l := openTestLog(t, fsys, testConfig())
	_, err := l.AppendAsLeader(valueBatch(0, "v0"), 0, 0)
	require.NoError(t, err)
	require.NoError(t, l.LeaderEpochCache().Assign(2, 1))
	require.NoError(t, l.Close())
	writeFile(t, fsys, segPath(0, LogSuffix), 7, []byte{0xff}) // base offset 0 reads 255
	l = openTestLog(t, fsys, testConfig(), WithCleanShutdown())
	require.Equal(t, int64(256), l.LogEndOffset())
	if diff := cmp.Diff([]EpochEntry{{0, 0}}, l.LeaderEpochCache().Entries()); diff != "" {
		t.Errorf("epochs after the open (-want +got):\n%s", diff)
	}
	require.Equal(t, []string{LeaderEpochCheckpointFile + ": epoch 2 starts at offset 1, but the first batch there (offsets 255..255 in 00000000000000000000.log) is of epoch 0: the entry is dropped"},
		l.RecoveryReport().Inconsistencies)
	entries, err := ReadLeaderEpochCheckpoint(fsys, testDir+"/"+LeaderEpochCheckpointFile)
	require.NoError(t, err)
	require.Equal(t, []EpochEntry{{0, 0}}, entries, "the checkpoint is rewritten")
}
