package vfs_test

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/internal/clonetest"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/kafkalive/kafkalive/vfs/vfstest"
)

func TestCloneIsIndependent(t *testing.T) {
	orig := newDurable(t, map[string]string{"a.log": "synced"})
	appendTo(t, orig, "d/a.log", "+cached")
	f, err := orig.OpenReadWrite("d/a.log")
	must(t, err)
	clone := orig.Clone()

	// Change both sides differently.
	_, err = f.WriteAt([]byte("ORIG"), 0) // through a handle opened before the clone
	must(t, err)
	appendTo(t, clone, "d/a.log", "+clone")
	appendTo(t, clone, "d/new", "x")
	clone.PowerCut(func(string, int64, int64) int64 { return 3 })

	gotOrig, err := vfstest.ReadTree(orig, "")
	must(t, err)
	gotClone, err := vfstest.ReadTree(clone, "")
	must(t, err)
	if diff := cmp.Diff(vfstest.Tree{"d/": "", "d/a.log": "ORIGed+cached"}, gotOrig); diff != "" {
		t.Errorf("the original (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(vfstest.Tree{"d/": "", "d/a.log": "synced+ca"}, gotClone); diff != "" {
		t.Errorf("the clone after its power cut (-want +got):\n%s", diff)
	}
	durable, cached, err := orig.SizeOnDisk("d/a.log")
	must(t, err)
	if durable != 6 || cached != 13 {
		t.Errorf("the original's sizes: %d durable, %d cached; want 6 and 13", durable, cached)
	}
}

func TestCloneKeepsDurability(t *testing.T) {
	orig := newDurable(t, map[string]string{"a": "synced"})
	appendTo(t, orig, "d/a", "+cached")
	must(t, orig.MkdirAll("d/unsynced", 0o755))
	clone := orig.Clone()
	orig.PowerCut(nil)
	clone.PowerCut(nil)
	a, err := vfstest.ReadTree(orig, "")
	must(t, err)
	b, err := vfstest.ReadTree(clone, "")
	must(t, err)
	if diff := cmp.Diff(vfstest.Tree{"d/": "", "d/a": "synced"}, a); diff != "" {
		t.Errorf("the original after a power cut (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("the clone after the same power cut (-original +clone):\n%s", diff)
	}
}

func TestCloneCopiesOnWrite(t *testing.T) {
	orig := newDurable(t, map[string]string{"a": "0123456789"})
	c1 := orig.Clone()
	c2 := c1.Clone()
	f, err := c1.OpenReadWrite("d/a")
	must(t, err)
	_, err = f.WriteAt([]byte("X"), 0)
	must(t, err)
	must(t, f.Sync())
	got := map[string]string{"orig": read(t, orig, "d/a"), "c1": read(t, c1, "d/a"), "c2": read(t, c2, "d/a")}
	want := map[string]string{"orig": "0123456789", "c1": "X123456789", "c2": "0123456789"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("d/a after a synced write to c1 only (-want +got):\n%s", diff)
	}
	c2.PowerCut(nil)
	if diff := cmp.Diff("0123456789", read(t, c2, "d/a")); diff != "" {
		t.Errorf("c2's durable d/a after c1 synced a write (-want +got):\n%s", diff)
	}
}

// TestPowerCutAfterShrinkInAClone is the case rapid found: a shrink leaves the page
// cache with less capacity than the durable size once copy-on-write has copied it.
func TestPowerCutAfterShrinkInAClone(t *testing.T) {
	m := newDurable(t, map[string]string{"a": "012345678"})
	f, err := m.OpenReadWrite("d/a")
	must(t, err)
	must(t, f.Truncate(0))
	_ = m.Clone()
	_, err = f.WriteAt([]byte("x"), 0)
	must(t, err)
	m.PowerCut(func(string, int64, int64) int64 { return 1 })
	if diff := cmp.Diff("012345678", read(t, m, "d/a")); diff != "" {
		t.Fatalf("after an unsynced shrink and a power cut d/a holds (-want +got):\n%s", diff)
	}
}

// fsOp is one operation on a MemFS, drawn once and applied alike to any
// number of file systems, each with its own open handles.
type fsOp struct {
	kind        string
	path, path2 string
	handle      int
	off, size   int64
	data        []byte // a write's bytes, never changed once drawn (a kept write keeps them)
	keep        bool
}

var (
	cloneDirs  = []string{"", "a", "a/b"}
	cloneFiles = []string{"f", "g", "a/f", "a/g", "a/b/f", "a/b/g"}
	fsOpKinds  = []string{"mkdir", "create", "open", "open-ro", "write", "write", "write", "truncate", "sync", "close",
		"syncdir", "rename", "remove", "removeall", "writeback", "expired", "crash", "powercut", "damage", "now", "capacity", "read"}
)

func drawFSOp(t *rapid.T) fsOp {
	op := fsOp{
		kind:   rapid.SampledFrom(fsOpKinds).Draw(t, "op"),
		path:   rapid.SampledFrom(append(cloneFiles, cloneDirs[1:]...)).Draw(t, "path"),
		path2:  rapid.SampledFrom(cloneFiles).Draw(t, "path2"),
		handle: rapid.IntRange(0, 7).Draw(t, "handle"),
		off:    int64(rapid.IntRange(0, 40000).Draw(t, "off")),
		size:   int64(rapid.IntRange(0, 40000).Draw(t, "size")),
		keep:   rapid.Bool().Draw(t, "keep"),
	}
	if op.kind == "write" {
		op.data = make([]byte, rapid.IntRange(1, 20000).Draw(t, "length"))
		fill := byte(rapid.IntRange(1, 255).Draw(t, "fill"))
		for i := range op.data {
			op.data[i] = fill + byte(i)
		}
	}
	return op
}

// apply runs op on m with m's open handles and returns what it answered.
func (op fsOp) apply(m *vfs.MemFS, handles *[]vfs.File) string {
	h := func() vfs.File {
		if len(*handles) == 0 {
			return nil
		}
		return (*handles)[op.handle%len(*handles)]
	}
	opened := func(f vfs.File, err error) string {
		if err == nil {
			*handles = append(*handles, f)
		}
		return fmt.Sprint(err)
	}
	answer := func(vals ...any) string { return fmt.Sprint(vals...) }
	switch op.kind {
	case "mkdir":
		return answer(m.MkdirAll(op.path, 0o755))
	case "create":
		return opened(m.Create(op.path))
	case "open":
		return opened(m.OpenReadWrite(op.path))
	case "open-ro":
		return opened(m.Open(op.path))
	case "write", "truncate", "sync", "close", "read":
		f := h()
		if f == nil {
			return "no handle"
		}
		switch op.kind {
		case "write":
			if op.keep {
				return answer(vfs.WriteAtNoCopy(f, op.data, op.off))
			}
			return answer(f.WriteAt(op.data, op.off))
		case "truncate":
			return answer(f.Truncate(op.size))
		case "sync":
			return answer(f.Sync())
		case "close":
			return answer(f.Close())
		}
		b := make([]byte, op.size%5000)
		n, err := f.ReadAt(b, op.off)
		return answer(string(b[:n]), err)
	case "syncdir":
		return answer(m.SyncDir(cloneDirs[op.handle%len(cloneDirs)]))
	case "rename":
		return answer(m.Rename(op.path, op.path2))
	case "remove":
		return answer(m.Remove(op.path))
	case "removeall":
		return answer(m.RemoveAll(op.path))
	case "writeback":
		m.Writeback()
	case "expired":
		return answer(m.WritebackExpired(op.off, op.size))
	case "crash":
		m.Crash()
	case "powercut":
		m.PowerCut(func(_ string, durable, cached int64) int64 { return (op.off + durable) % (cached - durable + 1) })
	case "damage":
		return answer(m.DamageDisk(op.path, op.off%100, 1+op.size%50, func(b []byte) {
			for i := range b {
				b[i] ^= 0x5a
			}
		}))
	case "now":
		m.SetNow(op.off)
	case "capacity":
		m.SetCapacity(op.size*8 - 40000) // negative: unlimited
	}
	return ""
}

// observe is everything a user of m can see without changing it.
func observe(t *rapid.T, m *vfs.MemFS) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nused=%d durable=%d cache=%d version=%d ops=%d\n", m, m.UsedBytes(), m.DurableBytes(""), m.CacheBytes(""), m.ContentVersion(), m.OpCount())
	for k := vfs.OpCreate; k <= vfs.OpMkdirAll; k++ {
		fmt.Fprintf(&b, "%s=%d ", k, m.OpCountOf(k))
	}
	tree, err := vfstest.ReadTree(m, "")
	if err != nil {
		t.Fatalf("reading the tree: %v", err)
	}
	for _, p := range slices.Sorted(maps.Keys(tree)) {
		fi, err := m.Stat(p)
		if err != nil {
			t.Fatalf("stat %s: %v", p, err)
		}
		dirtied, dirty, err := m.Dirtied(p)
		fmt.Fprintf(&b, "\n%s %q mode=%v mtime=%d dirty=%v@%d(%v) durable entry=%v", p, tree[p], fi.Mode(), fi.ModTime().UnixMilli(), dirty, dirtied, err, m.EntryDurable(p))
		if !fi.IsDir() {
			durable, cached, err := m.SizeOnDisk(p)
			fmt.Fprintf(&b, " durable=%d cached=%d (%v)", durable, cached, err)
		}
	}
	return b.String()
}

// TestCloneSharesNothingMutable builds a file system by random operations
// (with open handles, kept writes, crashes, power cuts and damage), clones
// it, and checks that the clone
//   - shares nothing with it but frozen page tables and page bytes
//     (clonetest.Shared);
//   - sees what the original sees, and goes on seeing it when both are driven
//     by the same operations (each with its own handles);
//   - does not move when only the original changes, through handles opened
//     before the clone or after, and the other way round.
func TestCloneSharesNothingMutable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m, mh := vfs.NewMem(), []vfs.File{}
		for range rapid.IntRange(0, 60).Draw(t, "ops before the clone") {
			drawFSOp(t).apply(m, &mh)
		}
		c := m.Clone()
		checkShared(t, m, c)
		if got, want := observe(t, c), observe(t, m); got != want {
			t.Fatalf("a fresh clone differs from its original (-original +clone):\n%s", cmp.Diff(want, got))
		}
		// the same operations on both, each with handles of its own
		same := [2][]vfs.File{}
		for i := range rapid.IntRange(0, 30).Draw(t, "ops on both") {
			op := drawFSOp(t)
			a, b := op.apply(m, &same[0]), op.apply(c, &same[1])
			if a != b {
				t.Fatalf("op %d %+v answered %q on the original, %q on the clone", i, op, a, b)
			}
			if got, want := observe(t, c), observe(t, m); got != want {
				t.Fatalf("after op %d %+v the clone differs (-original +clone):\n%s", i, op, cmp.Diff(want, got))
			}
		}
		// one side alone, with every handle it has
		mh, ch := append(mh, same[0]...), same[1]
		for _, side := range []string{"original", "clone"} {
			changed, changedHandles, still := m, &mh, c
			if side == "clone" {
				changed, changedHandles, still = c, &ch, m
			}
			want := observe(t, still)
			for i := range rapid.IntRange(0, 30).Draw(t, "ops on "+side) {
				op := drawFSOp(t)
				op.apply(changed, changedHandles)
				if got := observe(t, still); got != want {
					t.Fatalf("op %d %+v on the %s alone changed the other (-before +after):\n%s", i, op, side, cmp.Diff(want, got))
				}
			}
		}
	})
}

// checkShared fails if c reaches memory m reaches, except what MemFS shares
// on purpose: frozen page tables (no version writes them) and the bytes of
// pages (written in place only by the one table that owns them).
func checkShared(t *rapid.T, m, c *vfs.MemFS) {
	for _, s := range clonetest.Shared(m, c) {
		switch {
		case s.Type().String() == "*vfs.pageTable" && s.Value.Elem().FieldByName("frozen").Bool():
		case s.Type() == reflect.TypeFor[[]byte]():
		default:
			t.Fatalf("the clone shares %s with the original", s)
		}
	}
}

// TestEpochCountsCrashes: Epoch moves at each crash and power cut, and only
// then; a clone starts at its original's, and a Sub reports its file system's.
func TestEpochCountsCrashes(t *testing.T) {
	m := newDurable(t, map[string]string{"a": "x"})
	epochs := func() []uint64 {
		e, ok := vfs.EpochOf(m)
		sub, subOK := vfs.EpochOf(vfs.Sub(m, "d"))
		if !ok || !subOK {
			t.Fatalf("a MemFS or a Sub of one is not an Epocher")
		}
		return []uint64{e, sub}
	}
	var got [][]uint64
	got = append(got, epochs())
	appendTo(t, m, "d/a", "y")
	m.Writeback()
	got = append(got, epochs())
	m.Crash()
	got = append(got, epochs())
	m.PowerCut(nil)
	got = append(got, epochs())
	if diff := cmp.Diff([][]uint64{{0, 0}, {0, 0}, {1, 1}, {2, 2}}, got); diff != "" {
		t.Errorf("epochs after a write, a crash and a power cut (-want +got):\n%s", diff)
	}
	if c := m.Clone(); c.Epoch() != m.Epoch() {
		t.Errorf("a clone's epoch is %d, its original's %d", c.Epoch(), m.Epoch())
	}
	if _, ok := vfs.EpochOf(vfs.Default); ok {
		t.Errorf("the OS's file system says it has an epoch")
	}
}

// TestSnapshotSharesWhatDidNotChange builds a file system by random
// operations (with open handles, kept writes, crashes, power cuts and
// damage), taking snapshots between them, and checks that each snapshot
//   - sees what its original saw when it was taken, and goes on seeing it
//     whatever the original does next (later snapshots sharing its nodes);
//   - clones as any file system does: the clone sees the same, shares
//     nothing mutable with the snapshot, and runs the same operations as
//     the original did after the snapshot to the same answers and files.
func TestSnapshotSharesWhatDidNotChange(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m, mh := vfs.NewMem(), []vfs.File{}
		type taken struct {
			snap  *vfs.MemFS
			seen  string
			after []fsOp // the operations on m since
		}
		var snaps []*taken
		for range rapid.IntRange(1, 8).Draw(t, "snapshots") {
			for range rapid.IntRange(0, 20).Draw(t, "ops before the snapshot") {
				op := drawFSOp(t)
				op.apply(m, &mh)
				for _, s := range snaps {
					s.after = append(s.after, op)
				}
			}
			s := m.Snapshot()
			snaps = append(snaps, &taken{snap: s, seen: observe(t, m)})
			if got := observe(t, s); got != snaps[len(snaps)-1].seen {
				t.Fatalf("a fresh snapshot differs from its original (-original +snapshot):\n%s", cmp.Diff(snaps[len(snaps)-1].seen, got))
			}
		}
		for i, s := range snaps {
			if got := observe(t, s.snap); got != s.seen {
				t.Fatalf("snapshot %d moved with its original (-when taken +now):\n%s", i, cmp.Diff(s.seen, got))
			}
			c := s.snap.Clone()
			checkShared(t, s.snap, c)
			if got := observe(t, c); got != s.seen {
				t.Fatalf("a clone of snapshot %d differs from it (-snapshot +clone):\n%s", i, cmp.Diff(s.seen, got))
			}
			// the same operations on a fresh copy of the original as it was
			// (handles opened after the snapshot only)
			var ch []vfs.File
			for _, op := range s.after {
				op.apply(c, &ch)
			}
			if got := observe(t, s.snap); got != s.seen {
				t.Fatalf("running a clone of snapshot %d moved the snapshot (-when taken +now):\n%s", i, cmp.Diff(s.seen, got))
			}
		}
	})
}
