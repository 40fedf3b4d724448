package vfs_test

import (
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
	"pgregory.net/rapid"
)

// flusherFile is the model of one file on a host whose flusher runs: its page cache,
// its disk, when it turned dirty, and for each cached byte when it was last written.
type flusherFile struct {
	cached, disk []byte
	dirty        bool
	dirtiedMs    int64
	writtenMs    []int64 // writtenMs[i]: the time cached[i] was written
	// synced is the content of the last explicit Sync (or sync(2)), and
	// firstWriteMs the time of the first write after it (-1: none).
	synced       []byte
	firstWriteMs int64
}

// flusherMachine drives a MemFS on which the flusher wakes every
// LinuxDirtyWritebackIntervalMs with LinuxDirtyExpireMs, and its model.
type flusherMachine struct {
	fs    *vfs.MemFS
	now   int64
	files map[string]*flusherFile // the current entries of d
	// entries is d's entries on disk; dirDirty and dirDirtiedMs its dirtiness.
	entries      map[string]*flusherFile
	dirDirty     bool
	dirDirtiedMs int64
	createdMs    map[string]int64
}

var flusherNames = []string{"d/a", "d/b", "d/c", "d/e"}

func newFlusherMachine(t *rapid.T) *flusherMachine {
	m := &flusherMachine{fs: vfs.NewMem(), files: map[string]*flusherFile{},
		entries: map[string]*flusherFile{}, createdMs: map[string]int64{}}
	if err := vfs.MkdirAllDurable(m.fs, "d", 0o755); err != nil {
		t.Fatalf("setup: %v", err)
	}
	return m
}

func (m *flusherMachine) ok(t *rapid.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("MemFS refused an operation: %v", err)
	}
}

// wake is one wake of the flusher at the machine's time, on both sides.
func (m *flusherMachine) wake() {
	m.fs.SetNow(m.now)
	m.fs.WritebackExpired(m.now, vfs.LinuxDirtyExpireMs)
	limit := m.now - vfs.LinuxDirtyExpireMs
	for _, f := range m.files {
		if f.dirty && f.dirtiedMs <= limit {
			f.disk, f.dirty = append([]byte(nil), f.cached...), false
		}
	}
	if m.dirDirty && m.dirDirtiedMs <= limit {
		m.syncDirModel()
	}
}

func (m *flusherMachine) syncDirModel() {
	m.entries = map[string]*flusherFile{}
	for name, f := range m.files {
		m.entries[name] = f
	}
	m.dirDirty = false
}

// advance moves the clock, waking the flusher at every multiple of its interval.
func (m *flusherMachine) advance(t *rapid.T) {
	to := m.now + rapid.Int64Range(0, 8*vfs.LinuxDirtyWritebackIntervalMs).Draw(t, "advance ms")
	for next := (m.now/vfs.LinuxDirtyWritebackIntervalMs + 1) * vfs.LinuxDirtyWritebackIntervalMs; next <= to; next += vfs.LinuxDirtyWritebackIntervalMs {
		m.now = next
		m.wake()
	}
	m.now = to
	m.fs.SetNow(m.now)
}

func (m *flusherMachine) create(t *rapid.T) {
	var free []string
	for _, name := range flusherNames {
		if m.files[name] == nil {
			free = append(free, name)
		}
	}
	if len(free) == 0 {
		t.Skip("every name is taken")
	}
	name := rapid.SampledFrom(free).Draw(t, "new file")
	f, err := m.fs.Create(name)
	m.ok(t, err)
	m.ok(t, f.Close())
	m.files[name] = &flusherFile{firstWriteMs: -1}
	m.createdMs[name] = m.now
	if !m.dirDirty {
		m.dirDirty, m.dirDirtiedMs = true, m.now
	}
}

func (m *flusherMachine) existing(t *rapid.T) (string, *flusherFile) {
	var names []string
	for name := range m.files {
		names = append(names, name)
	}
	if len(names) == 0 {
		t.Skip("no file yet")
	}
	sort.Strings(names)
	name := rapid.SampledFrom(names).Draw(t, "file")
	return name, m.files[name]
}

// write appends to a file or overwrites some of it.
func (m *flusherMachine) write(t *rapid.T) {
	name, f := m.existing(t)
	off := rapid.Int64Range(0, int64(len(f.cached))).Draw(t, "offset")
	data := rapid.SliceOfN(rapid.ByteRange('a', 'z'), 1, 8).Draw(t, "data")
	h, err := m.fs.OpenReadWrite(name)
	m.ok(t, err)
	_, err = h.WriteAt(data, off)
	m.ok(t, err)
	m.ok(t, h.Close())
	for end := off + int64(len(data)); int64(len(f.cached)) < end; {
		f.cached, f.writtenMs = append(f.cached, 0), append(f.writtenMs, 0)
	}
	copy(f.cached[off:], data)
	for i := range data {
		f.writtenMs[off+int64(i)] = m.now
	}
	if !f.dirty {
		f.dirty, f.dirtiedMs = true, m.now
	}
	if f.firstWriteMs < 0 {
		f.firstWriteMs = m.now
	}
}

func (m *flusherMachine) sync(t *rapid.T) {
	name, f := m.existing(t)
	h, err := m.fs.OpenReadWrite(name)
	m.ok(t, err)
	m.ok(t, h.Sync())
	m.ok(t, h.Close())
	f.disk, f.dirty = append([]byte(nil), f.cached...), false
	f.synced, f.firstWriteMs = append([]byte(nil), f.cached...), -1
}

func (m *flusherMachine) syncDir(t *rapid.T) {
	m.ok(t, m.fs.SyncDir("d"))
	m.syncDirModel()
}

// writeback is sync(2).
func (m *flusherMachine) writeback(t *rapid.T) {
	m.fs.Writeback()
	for _, f := range m.files {
		f.disk, f.dirty = append([]byte(nil), f.cached...), false
		f.synced, f.firstWriteMs = append([]byte(nil), f.cached...), -1
	}
	m.syncDirModel()
}

// powerCut cuts the power at the machine's time, then checks what survived against
// the model and against the two bounds that hold on a Linux host with its defaults.
func (m *flusherMachine) powerCut(t *rapid.T) {
	kept := map[string]int64{}
	asked := map[string][2]int64{}
	m.fs.PowerCut(func(name string, durable, cached int64) int64 {
		asked[name] = [2]int64{durable, cached}
		kept[name] = rapid.Int64Range(0, cached-durable).Draw(t, "keep "+name)
		return kept[name]
	})
	got := map[string]string{}
	for name := range m.files {
		if content, err := readFileMem(m.fs, name); err == nil {
			got[name] = content
		}
	}
	want := map[string]string{}
	for name, f := range m.entries {
		content := append([]byte(nil), f.disk...)
		if len(f.cached) > len(f.disk) {
			content = append(content, f.cached[len(f.disk):][:kept[name]]...)
		}
		want[name] = string(content)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("after a power cut at %d ms, the files (-model +memfs):\n%s", m.now, diff)
	}

	// Every byte written expire+interval or more before the cut survives, and every
	// file created that long before it.
	old := m.now - vfs.LinuxDirtyExpireMs - vfs.LinuxDirtyWritebackIntervalMs
	for name, f := range m.files {
		if m.createdMs[name] > old {
			continue
		}
		content, ok := got[name]
		if !ok {
			t.Fatalf("%s, created at %d ms, did not survive a power cut at %d ms", name, m.createdMs[name], m.now)
		}
		for i, at := range f.writtenMs {
			if at <= old && (i >= len(content) || content[i] != f.cached[i]) {
				t.Fatalf("%s: the byte at %d, written at %d ms, did not survive a power cut at %d ms (Linux writes it back by %d ms)",
					name, i, at, m.now, at+vfs.LinuxDirtyExpireMs+vfs.LinuxDirtyWritebackIntervalMs)
			}
		}
	}
	// A file written only within the last expire ms since its last Sync loses every
	// such write, but for the torn tail the power cut chose to keep.
	for name, f := range m.files {
		content, ok := got[name]
		if !ok || f.firstWriteMs < 0 || f.firstWriteMs <= m.now-vfs.LinuxDirtyExpireMs {
			continue
		}
		if a := asked[name]; len(f.cached) > len(f.synced) && a[0] != int64(len(f.synced)) {
			t.Fatalf("%s: %d bytes on disk at the cut, want %d (its last Sync): its writes since are all younger than %d ms",
				name, a[0], len(f.synced), vfs.LinuxDirtyExpireMs)
		}
		wantContent := append([]byte(nil), f.synced...)
		if len(f.cached) > len(f.synced) {
			wantContent = append(wantContent, f.cached[len(f.synced):][:kept[name]]...)
		}
		if content != string(wantContent) {
			t.Fatalf("%s: a power cut at %d ms left %q, want its last Sync's %q and the torn tail: every write since (from %d ms) is younger than %d ms",
				name, m.now, content, wantContent, f.firstWriteMs, vfs.LinuxDirtyExpireMs)
		}
	}

	m.files, m.entries, m.dirDirty = map[string]*flusherFile{}, map[string]*flusherFile{}, false
	for name, content := range got {
		f := &flusherFile{cached: []byte(content), disk: []byte(content), synced: []byte(content), firstWriteMs: -1,
			writtenMs: make([]int64, len(content))}
		m.files[name], m.entries[name] = f, f
		for i := range f.writtenMs {
			f.writtenMs[i] = m.now
		}
	}
}

func readFileMem(fsys *vfs.MemFS, name string) (string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		return "", err
	}
	b := make([]byte, size)
	if _, err := f.ReadAt(b, 0); err != nil && size > 0 {
		return "", fmt.Errorf("read %s: %w", name, err)
	}
	return string(b), nil
}

// check compares every file's page cache and disk size with the model.
func (m *flusherMachine) check(t *rapid.T) {
	for name, f := range m.files {
		durable, cached, err := m.fs.SizeOnDisk(name)
		m.ok(t, err)
		if durable != int64(len(f.disk)) || cached != int64(len(f.cached)) {
			t.Fatalf("at %d ms %s has %d durable and %d cached bytes, the model %d and %d", m.now, name, durable, cached, len(f.disk), len(f.cached))
		}
		at, dirty, err := m.fs.Dirtied(name)
		m.ok(t, err)
		if dirty != f.dirty || dirty && at != f.dirtiedMs {
			t.Fatalf("at %d ms Dirtied(%s) = %d, %v; the model says %d, %v", m.now, name, at, dirty, f.dirtiedMs, f.dirty)
		}
		if got, want := m.fs.EntryDurable(name), m.entries[name] == f; got != want {
			t.Fatalf("at %d ms EntryDurable(%s) = %v, the model %v", m.now, name, got, want)
		}
	}
}

// TestFlusherWritesBackWhatLinuxWould: random writes, Syncs, SyncDirs, sync(2)s and
// power cuts on a host whose flusher wakes every 5 s and writes back what has been
// dirty for 30 s: after each power cut the files are exactly what the model of the
// flusher says, every byte older than 35 s survives, and a file whose writes since
// its last Sync are all younger than 30 s keeps none of them but a torn tail.
func TestFlusherWritesBackWhatLinuxWould(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := newFlusherMachine(t)
		t.Repeat(map[string]func(*rapid.T){
			"":          m.check,
			"advance":   m.advance,
			"wait":      m.advance, // twice as likely as any other action: 30 s pass in a few steps
			"create":    m.create,
			"write":     m.write,
			"sync":      m.sync,
			"syncdir":   m.syncDir,
			"writeback": m.writeback,
			"powercut":  m.powerCut,
		})
	})
}

// TestFlusherListsEveryDirtyNode drives two file systems with the same random
// operations (open handles, kept writes, renames, removes, crashes, power
// cuts, damage, clones and snapshots' clones), the flusher's wakes on one
// looking at its list of dirty nodes and on the other walking the whole
// tree, and checks that they answer the same and hold the same files,
// durable and cached, after every operation (a power cut shows what each
// made durable).
func TestFlusherListsEveryDirtyNode(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		listed, walked := vfs.NewMem(), vfs.NewMem()
		var lh, wh []vfs.File
		for i := range rapid.IntRange(1, 80).Draw(t, "ops") {
			op := drawFSOp(t)
			var a, b string
			switch copyKind := rapid.IntRange(0, 9).Draw(t, "copy"); {
			case op.kind == "expired":
				a, b = fmt.Sprint(listed.WritebackExpired(op.off, op.size)), fmt.Sprint(vfs.WritebackExpiredByWalk(walked, op.off, op.size))
			case copyKind == 0:
				listed, walked, lh, wh = listed.Clone(), walked.Clone(), nil, nil
			case copyKind == 1:
				listed, walked, lh, wh = listed.Snapshot().Clone(), walked.Clone(), nil, nil
			case copyKind == 2:
				listed.Snapshot()
			default:
				a, b = op.apply(listed, &lh), op.apply(walked, &wh)
			}
			if a != b {
				t.Fatalf("op %d %+v answered %q with the list, %q walking", i, op, a, b)
			}
			if got, want := observe(t, listed), observe(t, walked); got != want {
				t.Fatalf("after op %d %+v the file systems differ (-walking +list):\n%s", i, op, cmp.Diff(want, got))
			}
		}
	})
}
