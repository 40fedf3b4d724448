package kafkalog

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
)

// damageTP is the partition of the data dirs the damage tests build.
var damageTP = TopicPartition{Topic: "topic", Partition: 0}

const damageRoot = "data"

func damageDir() string { return damageRoot + "/" + damageTP.DirName() }

func damagePath(base int64, suffix string) string {
	return damageDir() + "/" + SegmentFileName(base, suffix)
}

// buildDataDir writes a data dir with one partition: batches of 1-3 records with
// values of varying length, appended under cfg, then closes it cleanly (recovery
// point checkpoint and clean shutdown marker written). It returns what was appended.
func buildDataDir(t *testing.T, fsys *vfs.MemFS, cfg Config, batches int) []logRec {
	t.Helper()
	d, err := OpenDataDir(fsys, damageRoot, 0, DataDirOptions{Config: func(TopicPartition) Config { return cfg }})
	if err != nil {
		t.Fatal(err)
	}
	l, err := d.CreateLog(damageTP, cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < batches; i++ {
		var recs []kv
		for j := 0; j <= i%3; j++ {
			recs = append(recs, kv{key: fmt.Sprint("k", i%7), value: fmt.Sprintf("v%d.%d-%s", i, j, strings.Repeat("x", (i*13)%50))})
		}
		if _, err := l.AppendAsLeader(encodeBatch(0, int64(1000+i), recs...), int32(i/40), int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	want := readAll(t, l)
	if err := d.Close(7); err != nil {
		t.Fatal(err)
	}
	return want
}

// openDamaged opens the data dir and returns its log of damageTP (nil if it failed)
// and the error.
func openDamaged(fsys vfs.FS, cfg Config) (*DataDir, *Log, error) {
	d, err := OpenDataDir(fsys, damageRoot, 0, DataDirOptions{Config: func(TopicPartition) Config { return cfg }})
	if d == nil {
		return nil, nil, err
	}
	return d, d.Log(damageTP), err
}

// checkAppendAfter appends one batch and checks it gets offset want and reads back.
func checkAppendAfter(t *testing.T, l *Log, want int64) {
	t.Helper()
	info, err := l.AppendAsLeader(valueBatch(5000, "after"), 9, 0)
	if err != nil {
		t.Fatalf("append after open: %v", err)
	}
	if info.FirstOffset != want {
		t.Fatalf("the append after open got offset %d, want %d (the offset after the last kept record)", info.FirstOffset, want)
	}
	recs, err := readAllErr(l)
	if err != nil {
		t.Fatalf("read after the append: %v", err)
	}
	if n := len(recs); n == 0 || recs[n-1] != (logRec{Offset: want, Value: "after"}) {
		t.Fatalf("last record read back %+v, want the append at %d", recs[len(recs)-1:], want)
	}
	checkIndexes(t, l)
}

// An .index copied from another segment (here from another partition's log of a
// different shape): the open must not trust it. Before the fix a clean open reported LEO
// 0 with no error (the last entry sent the end-of-log scan into the middle of a batch,
// where it saw a torn tail), and the next append reused offset 0 after the old batches.
func TestOpenIndexCopiedFromAnotherSegment(t *testing.T) {
	for _, clean := range []bool{true, false} {
		t.Run(fmt.Sprintf("clean=%v", clean), func(t *testing.T) {
			fsys := vfs.NewMem()
			cfg := testConfig()
			cfg.SegmentBytes = 1 << 20
			want := buildDataDir(t, fsys, cfg, 60)
			other := vfs.NewMem()
			l := openTestLog(t, other, cfg)
			for i := 0; i < 80; i++ { // its last entry points into the middle of a batch here
				if _, err := l.AppendAsLeader(valueBatch(int64(i), fmt.Sprint("other", i)), 0, 0); err != nil {
					t.Fatal(err)
				}
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			b, err := readWholeFile(other, segPath(0, IndexSuffix))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, fsys, damagePath(0, IndexSuffix), 0, b)
			if !clean {
				if err := fsys.Remove(damageRoot + "/" + CleanShutdownFile); err != nil {
					t.Fatal(err)
				}
			}
			_, l, err = openDamaged(fsys, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := l.LogEndOffset(); got != int64(len(want)) {
				t.Fatalf("LEO %d, want %d", got, len(want))
			}
			if diff := cmp.Diff(want, readAll(t, l)); diff != "" {
				t.Fatalf("records (-want +got):\n%s", diff)
			}
			if r := l.RecoveryReport(); clean && (!cmp.Equal([]int64{0}, r.IndexesRebuilt) || len(r.Inconsistencies) != 1) {
				t.Fatalf("a clean open must find the index inconsistent and rebuild it: %+v", r)
			}
			checkAppendAfter(t, l, int64(len(want)))
		})
	}
}

// A stray empty .log whose base offset falls inside an earlier segment holds nothing:
// the open removes it (and says so) and keeps every batch. Before the fix an unclean
// open cut the earlier segment at that offset and deleted the stray; a clean open made
// it the active segment, dropping the LEO to its base offset and then duplicating
// offsets.
func TestOpenStrayEmptySegmentInsideAnother(t *testing.T) {
	for _, clean := range []bool{true, false} {
		t.Run(fmt.Sprintf("clean=%v", clean), func(t *testing.T) {
			fsys := vfs.NewMem()
			cfg := testConfig()
			cfg.SegmentBytes, cfg.SegmentIndexBytes = 1<<20, 1<<20
			want := buildDataDir(t, fsys, cfg, 250)
			leo := want[len(want)-1].Offset + 1
			writeFile(t, fsys, damagePath(3, LogSuffix), 0, nil)
			if !clean {
				if err := fsys.Remove(damageRoot + "/" + CleanShutdownFile); err != nil {
					t.Fatal(err)
				}
			}
			_, l, err := openDamaged(fsys, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := l.LogEndOffset(); got != leo {
				t.Fatalf("LEO %d, want %d", got, leo)
			}
			if diff := cmp.Diff(want, readAll(t, l)); diff != "" {
				t.Fatalf("records (-want +got):\n%s", diff)
			}
			r := l.RecoveryReport()
			if len(r.Truncations) > 0 || len(r.SegmentsDeleted) > 0 {
				t.Fatalf("valid batches cut: %+v", r)
			}
			if !containsName(r.FilesRemoved, SegmentFileName(3, LogSuffix)) {
				t.Fatalf("files removed %v, want the stray %s", r.FilesRemoved, SegmentFileName(3, LogSuffix))
			}
			if diff := cmp.Diff([]int64{0}, segmentBases(l)); diff != "" {
				t.Fatalf("segments (-want +got):\n%s", diff)
			}
			checkAppendAfter(t, l, leo)
		})
	}
}

func containsName(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// A clean shutdown marker over a torn last batch: the open must cut the torn bytes
// (and report them) rather than append after them. Before the fix it kept them and Read
// returned a batch that failed its CRC.
func TestOpenCleanMarkerOverTornTail(t *testing.T) {
	fsys := vfs.NewMem()
	cfg := testConfig()
	cfg.SegmentBytes = 1 << 20
	want := buildDataDir(t, fsys, cfg, 30)
	name := damagePath(0, LogSuffix)
	size := fileSize(t, fsys, name)
	f, err := fsys.OpenReadWrite(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size - 5); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	_, l, err := openDamaged(fsys, cfg)
	if err != nil {
		t.Fatal(err)
	}
	last := want[len(want)-1].Offset
	kept := want[:0]
	for _, r := range want {
		if r.Offset < last-2 { // the last batch holds 3 records (i=29: 29%3+1)
			kept = append(kept, r)
		}
	}
	if diff := cmp.Diff(kept, readAll(t, l)); diff != "" {
		t.Fatalf("records (-want +got):\n%s", diff)
	}
	r := l.RecoveryReport()
	if len(r.Truncations) != 1 || r.Truncations[0].Position+r.Truncations[0].Bytes != size-5 {
		t.Fatalf("truncations %+v, want one cut of the torn batch ending at %d", r.Truncations, size-5)
	}
	checkAppendAfter(t, l, last-2)
}

// A non-empty segment whose offsets fall inside an earlier one: two files claim the
// same offsets, and either could be the right one. The open refuses with an error that
// names the file and position, and changes no .log. (It used to cut the earlier segment
// at the overlap and delete the later one: valid batches of both went.)
func TestOpenOverlappingSegmentsIsAnError(t *testing.T) {
	fsys := vfs.NewMem()
	cfg := testConfig()
	cfg.SegmentBytes = 1 << 20
	buildDataDir(t, fsys, cfg, 30)
	writeFile(t, fsys, damagePath(15, LogSuffix), 0, encodeBatch(15, 1, kv{value: "other"}))
	before := fileSize(t, fsys, damagePath(0, LogSuffix))
	_, l, err := openDamaged(fsys, cfg)
	if l != nil || !errors.Is(err, ErrInconsistentLog) {
		t.Fatalf("open: log %v, err %v; want ErrInconsistentLog", l, err)
	}
	var fe *FileError
	if !errors.As(err, &fe) || fe.Path != damagePath(0, LogSuffix) || fe.Position <= 0 {
		t.Fatalf("error %v does not name %s and a position", err, damagePath(0, LogSuffix))
	}
	if !strings.Contains(err.Error(), SegmentFileName(15, LogSuffix)) {
		t.Fatalf("error %q does not name the other segment", err)
	}
	if got := fileSize(t, fsys, damagePath(0, LogSuffix)); got != before {
		t.Fatalf(".log cut from %d to %d bytes by a refused open", before, got)
	}
}

// An unreadable root checkpoint is reset to empty, as Kafka 3.7's LogManager.loadLogs
// does: the data dir opens, every log recovers from offset 0, and CheckpointsReset names
// the file. (It used to fail the whole data dir.)
func TestOpenDataDirResetsUnreadableCheckpoints(t *testing.T) {
	fsys := vfs.NewMem()
	cfg := testConfig()
	want := buildDataDir(t, fsys, cfg, 40)
	if err := fsys.Remove(damageRoot + "/" + CleanShutdownFile); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{RecoveryPointCheckpointFile, LogStartOffsetCheckpointFile, CleanerOffsetCheckpointFile} {
		writeFile(t, fsys, damageRoot+"/"+name, 0, []byte("0\n1\ntopic 0 x\n"))
	}
	d, l, err := openDamaged(fsys, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.CheckpointsReset(); len(got) != 3 || !strings.Contains(got[0], damageRoot+"/"+RecoveryPointCheckpointFile) {
		t.Fatalf("CheckpointsReset = %q, want the three files named", got)
	}
	if got, want := l.RecoveryReport().SegmentsRecovered, len(l.Segments()); got != want {
		t.Fatalf("%d segments recovered, want all %d (recovery point reset to 0)", got, want)
	}
	if diff := cmp.Diff(want, readAll(t, l)); diff != "" {
		t.Fatalf("records (-want +got):\n%s", diff)
	}
	cps, err := ReadOffsetCheckpoint(fsys, damageRoot+"/"+RecoveryPointCheckpointFile)
	if err != nil || cps[damageTP] != l.RecoveryPoint() {
		t.Fatalf("the recovery point checkpoint was not rewritten: %v, %v", cps, err)
	}
}

// A power cut at any point of a truncation that deletes later segments leaves a prefix
// of the log at least as long as the truncation's, never the cut segment followed by
// the truncated segments again (which, after a durable cut, a lost directory sync would
// bring back, after a gap).
func TestTruncateToPowerCutAtEveryOperation(t *testing.T) {
	fsys := vfs.NewMem()
	cfg := testConfig()
	l := openTestLog(t, fsys, cfg)
	for i := 0; i < 40; i++ {
		if _, err := l.AppendAsLeader(valueBatch(int64(i), fmt.Sprint("v", i)), 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Flush(l.LogEndOffset()); err != nil {
		t.Fatal(err)
	}
	bases := segmentBases(l)
	if len(bases) < 3 {
		t.Fatalf("segments %v, want at least 3", bases)
	}
	to := bases[1] + 1
	var snaps []*vfs.MemFS
	fsys.SetHook(func(vfs.Op) error {
		snaps = append(snaps, fsys.Clone())
		return nil
	})
	if err := l.TruncateTo(to, 0); err != nil {
		t.Fatal(err)
	}
	fsys.SetHook(nil)
	snaps = append(snaps, fsys.Clone())
	for k, snap := range snaps {
		for _, v := range tearVariants {
			c := snap.Clone()
			c.PowerCut(v.keep)
			l, err := Open(c, testDir, cfg, 0)
			if err != nil {
				t.Fatalf("power cut after operation %d of the truncation (%s): %v", k, v.name, err)
			}
			got := offsetsOf(readAll(t, l))
			if !cmp.Equal(got, offsetRange(0, int64(len(got)))) || len(got) < int(to) {
				t.Fatalf("power cut after operation %d of the truncation (%s): offsets %v, want 0..n-1 for some n in [%d, 40]", k, v.name, got, to)
			}
		}
	}
}
