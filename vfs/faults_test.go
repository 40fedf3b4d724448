package vfs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/kafkalive/kafkalive/vfs/vfstest"
)

// script does one of each mutating operation, stopping at the first error.
func script(m *vfs.MemFS) error {
	if err := m.MkdirAll("d", 0o755); err != nil {
		return err
	}
	f, err := m.Create("d/a.tmp")
	if err != nil {
		return err
	}
	if _, err := f.WriteAt([]byte("hello"), 0); err != nil {
		return err
	}
	if err := f.Truncate(8); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := m.Rename("d/a.tmp", "d/a"); err != nil {
		return err
	}
	if err := m.SyncDir("d"); err != nil {
		return err
	}
	if _, err := m.OpenReadWrite("d/b"); err != nil {
		return err
	}
	if err := m.Remove("d/b"); err != nil {
		return err
	}
	return m.RemoveAll("d")
}

func TestHookSeesEveryMutatingOp(t *testing.T) {
	m := vfs.NewMem()
	var got []vfs.Op
	m.SetHook(func(op vfs.Op) error { got = append(got, op); return nil })
	must(t, script(m))
	want := []vfs.Op{
		{Seq: 1, KindSeq: 1, Kind: vfs.OpMkdirAll, Name: "d"},
		{Seq: 2, KindSeq: 1, Kind: vfs.OpCreate, Name: "d/a.tmp"},
		{Seq: 3, KindSeq: 1, Kind: vfs.OpWrite, Name: "d/a.tmp", Offset: 0, Len: 5},
		{Seq: 4, KindSeq: 1, Kind: vfs.OpTruncate, Name: "d/a.tmp", Offset: 8},
		{Seq: 5, KindSeq: 1, Kind: vfs.OpSync, Name: "d/a.tmp"},
		{Seq: 6, KindSeq: 1, Kind: vfs.OpRename, Name: "d/a.tmp", NewName: "d/a"},
		{Seq: 7, KindSeq: 1, Kind: vfs.OpSyncDir, Name: "d"},
		{Seq: 8, KindSeq: 2, Kind: vfs.OpCreate, Name: "d/b"},
		{Seq: 9, KindSeq: 1, Kind: vfs.OpRemove, Name: "d/b"},
		{Seq: 10, KindSeq: 1, Kind: vfs.OpRemoveAll, Name: "d"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("operations the hook saw (-want +got):\n%s", diff)
	}
	if m.OpCount() != 10 || m.OpCountOf(vfs.OpCreate) != 2 || m.OpCountOf(vfs.OpWrite) != 1 {
		t.Fatalf("OpCount = %d, creates %d, writes %d; want 10, 2, 1", m.OpCount(), m.OpCountOf(vfs.OpCreate), m.OpCountOf(vfs.OpWrite))
	}
	if diff := cmp.Diff("#3 write d/a.tmp [0,+5)", want[2].String()); diff != "" {
		t.Fatalf("Op.String (-want +got):\n%s", diff)
	}
}

// TestHookFailureChangesNothing fails each operation of the script in turn and checks
// that the failed operation returned the hook's error and left the tree as it was.
func TestHookFailureChangesNothing(t *testing.T) {
	errDisk := errors.New("disk on fire")
	for n := int64(1); n <= 10; n++ {
		m := vfs.NewMem()
		var before vfstest.Tree
		m.SetHook(func(op vfs.Op) error {
			if op.Seq != n {
				return nil
			}
			var err error
			before, err = vfstest.ReadTree(m, "")
			must(t, err)
			return errDisk
		})
		err := script(m)
		if !errors.Is(err, errDisk) {
			t.Fatalf("failing operation %d: the script got %v, want the hook's error", n, err)
		}
		m.SetHook(nil)
		after, err := vfstest.ReadTree(m, "")
		must(t, err)
		if diff := cmp.Diff(before, after); diff != "" {
			t.Fatalf("operation %d failed by the hook still changed the tree (-before +after):\n%s", n, diff)
		}
	}
}

func TestFailAfter(t *testing.T) {
	errDisk := errors.New("disk on fire")
	m := vfs.NewMem()
	m.SetHook(vfs.FailAfter(vfs.OpWrite, 2, errDisk))
	f, err := m.Create("a")
	must(t, err)
	var errs []bool
	for i := range 4 {
		_, err := f.WriteAt([]byte{'0' + byte(i)}, int64(i))
		errs = append(errs, errors.Is(err, errDisk))
		must(t, f.Sync()) // syncs are not writes: never failed
	}
	if diff := cmp.Diff([]bool{false, false, true, true}, errs); diff != "" {
		t.Fatalf("which writes failed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("01", read(t, m, "a")); diff != "" {
		t.Fatalf("the file after two good writes (-want +got):\n%s", diff)
	}
}

func TestCapacity(t *testing.T) {
	m := vfs.NewMem()
	m.SetCapacity(10)
	f, err := m.Create("a")
	must(t, err)
	type step struct {
		Did      string
		N        int
		NoSpace  bool
		Used     int64
		Contents string
	}
	var got []step
	record := func(did string, n int, err error) {
		if err != nil && !errors.Is(err, vfs.ErrNoSpace) {
			t.Fatalf("%s: %v", did, err)
		}
		got = append(got, step{did, n, err != nil, m.UsedBytes(), read(t, m, "a")})
	}
	n, err := f.WriteAt([]byte("12345678"), 0)
	record("write 8", n, err)
	n, err = f.WriteAt([]byte("abcd"), 8)
	record("write 4 at 8: 2 fit", n, err)
	n, err = f.WriteAt([]byte("XY"), 0)
	record("overwrite: no growth", n, err)
	record("grow by truncate", 0, f.Truncate(11))
	record("shrink by truncate", 0, f.Truncate(4))
	g, err := m.Create("b")
	must(t, err)
	n, err = g.WriteAt([]byte("bbbbbbbb"), 0)
	record("write 8 to b: 6 fit", n, err)
	must(t, m.Remove("b"))
	record("remove b frees 6", 0, nil)
	want := []step{
		{"write 8", 8, false, 8, "12345678"},
		{"write 4 at 8: 2 fit", 2, true, 10, "12345678ab"},
		{"overwrite: no growth", 2, false, 10, "XY345678ab"},
		{"grow by truncate", 0, true, 10, "XY345678ab"},
		{"shrink by truncate", 0, false, 4, "XY34"},
		{"write 8 to b: 6 fit", 6, true, 10, "XY34"},
		{"remove b frees 6", 0, false, 4, "XY34"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("a 10-byte disk (-want +got):\n%s", diff)
	}
}

func TestNoSpaceIsAPathError(t *testing.T) {
	m := vfs.NewMem()
	m.SetCapacity(0)
	f, err := m.Create("a")
	must(t, err)
	_, err = f.WriteAt([]byte("x"), 0)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != "a" || !errors.Is(err, vfs.ErrNoSpace) {
		t.Fatalf("a write to a full disk returned %v, want an *fs.PathError for a wrapping ErrNoSpace", err)
	}
}

func TestWildOffsetsFailWithoutAllocating(t *testing.T) {
	m := vfs.NewMem()
	f, err := m.Create("a")
	must(t, err)
	for _, tc := range []struct {
		what string
		err  error
	}{
		{"write at 1 GiB", func() error { _, err := f.WriteAt([]byte("x"), vfs.MaxFileSize); return err }()},
		{"write at the largest offset", func() error { _, err := f.WriteAt([]byte("xy"), 1<<63-1); return err }()},
		{"truncate to 1 GiB + 1", f.Truncate(vfs.MaxFileSize + 1)},
	} {
		if !errors.Is(tc.err, vfs.ErrFileTooLarge) {
			t.Errorf("%s: got %v, want ErrFileTooLarge", tc.what, tc.err)
		}
	}
	if m.UsedBytes() != 0 {
		t.Fatalf("the refused writes used %d bytes", m.UsedBytes())
	}
}

// TestPowerCutInsideTheHook cuts the power just before the second Sync: that Sync fails
// with ErrCrashed and never happens, so only the first record is durable.
func TestPowerCutInsideTheHook(t *testing.T) {
	m := newDurable(t, map[string]string{"a.log": ""})
	second := m.OpCountOf(vfs.OpSync) + 2 // the setup synced too
	m.SetHook(func(op vfs.Op) error {
		if op.Kind == vfs.OpSync && op.KindSeq == second {
			m.PowerCut(nil)
		}
		return nil
	})
	f, err := m.OpenReadWrite("d/a.log")
	must(t, err)
	var errs []string
	for i, rec := range []string{"rec0|", "rec1|", "rec2|"} {
		_, err := f.WriteAt([]byte(rec), int64(5*i))
		errs = append(errs, fmt.Sprint(errors.Is(err, vfs.ErrCrashed)))
		err = f.Sync()
		errs = append(errs, fmt.Sprint(errors.Is(err, vfs.ErrCrashed)))
	}
	if diff := cmp.Diff([]string{"false", "false", "false", "true", "true", "true"}, errs); diff != "" {
		t.Fatalf("which of write, sync, write, sync, write, sync saw ErrCrashed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("rec0|", read(t, m, "d/a.log")); diff != "" {
		t.Fatalf("after a power cut before the second sync the log holds (-want +got):\n%s", diff)
	}
}
