package vfs_test

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/kafkalive/kafkalive/vfs/vfstest"
	"pgregory.net/rapid"
)

// inode is the model of a file: its page cache and its durable bytes.
type inode struct{ cached, durable []byte }

// memModel is what a MemFS should hold: the current entries of two durable directories
// and the entries each directory had at its last SyncDir.
type memModel struct {
	entries map[string]*inode            // "d1/a" -> file
	synced  map[string]map[string]*inode // "d1" -> "a" -> file
}

var (
	modelDirs  = []string{"d1", "d2"}
	modelPaths = []string{"d1/a", "d1/b", "d1/c", "d2/a", "d2/b"}
)

// memMachine drives a MemFS and the model side by side.
type memMachine struct {
	fs      *vfs.MemFS
	model   memModel
	handles map[*inode]vfs.File // open read-write files, by the model file they write
	frozen  *vfs.MemFS          // a fork no action may change
	want    vfstest.Tree        // what frozen holds
	// seen is what the files held at the last check, at ContentVersion
	// seenVersion.
	seen        vfstest.Tree
	seenVersion int64
}

func newMemMachine(t *rapid.T) *memMachine {
	m := &memMachine{fs: vfs.NewMem(), handles: map[*inode]vfs.File{},
		model: memModel{entries: map[string]*inode{}, synced: map[string]map[string]*inode{}}}
	for _, d := range modelDirs {
		m.ok(t, m.fs.MkdirAll(d, 0o755))
		m.model.synced[d] = map[string]*inode{}
	}
	m.ok(t, m.fs.SyncDir(""))
	return m
}

func (m *memMachine) ok(t *rapid.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("MemFS refused an operation the model allows: %v", err)
	}
}

// existing draws a path that holds a file, or skips the action.
func (m *memMachine) existing(t *rapid.T) (string, *inode) {
	var paths []string
	for _, p := range modelPaths {
		if m.model.entries[p] != nil {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		t.Skip("no file yet")
	}
	p := rapid.SampledFrom(paths).Draw(t, "file")
	return p, m.model.entries[p]
}

// handle returns an open read-write file for the model file at p.
func (m *memMachine) handle(t *rapid.T, p string, ino *inode) vfs.File {
	if f, ok := m.handles[ino]; ok {
		return f
	}
	f, err := m.fs.OpenReadWrite(p)
	m.ok(t, err)
	m.handles[ino] = f
	return f
}

func (m *memMachine) create(t *rapid.T) {
	p := rapid.SampledFrom(modelPaths).Draw(t, "path")
	f, err := m.fs.Create(p)
	m.ok(t, err)
	ino := m.model.entries[p]
	if ino == nil {
		ino = &inode{}
		m.model.entries[p] = ino
	}
	ino.cached = nil
	m.handles[ino] = f
}

func (m *memMachine) write(t *rapid.T) {
	p, ino := m.existing(t)
	off := rapid.Int64Range(0, int64(len(ino.cached))+3).Draw(t, "offset")
	data := rapid.SliceOfN(rapid.ByteRange('a', 'z'), 0, 6).Draw(t, "data")
	f := m.handle(t, p, ino)
	var err error
	if rapid.Bool().Draw(t, "no copy") {
		_, err = vfs.WriteAtNoCopy(f, data, off) // data is never changed again
	} else {
		_, err = f.WriteAt(data, off)
	}
	m.ok(t, err)
	if end := off + int64(len(data)); len(data) > 0 && end > int64(len(ino.cached)) { // an empty write never extends
		ino.cached = append(ino.cached, make([]byte, end-int64(len(ino.cached)))...)
	}
	if len(data) > 0 {
		copy(ino.cached[off:], data)
	}
}

func (m *memMachine) truncate(t *rapid.T) {
	p, ino := m.existing(t)
	size := rapid.Int64Range(0, int64(len(ino.cached))+5).Draw(t, "size")
	m.ok(t, m.handle(t, p, ino).Truncate(size))
	if size <= int64(len(ino.cached)) {
		ino.cached = ino.cached[:size]
		return
	}
	ino.cached = append(ino.cached, make([]byte, size-int64(len(ino.cached)))...)
}

func (m *memMachine) sync(t *rapid.T) {
	p, ino := m.existing(t)
	m.ok(t, m.handle(t, p, ino).Sync())
	ino.durable = append([]byte(nil), ino.cached...)
}

func (m *memMachine) syncDir(t *rapid.T) {
	d := rapid.SampledFrom(modelDirs).Draw(t, "dir")
	m.ok(t, m.fs.SyncDir(d))
	m.model.synced[d] = map[string]*inode{}
	for p, ino := range m.model.entries {
		if dir, name, _ := strings.Cut(p, "/"); dir == d {
			m.model.synced[d][name] = ino
		}
	}
}

func (m *memMachine) rename(t *rapid.T) {
	src, ino := m.existing(t)
	dst := rapid.SampledFrom(modelPaths).Draw(t, "to")
	m.ok(t, m.fs.Rename(src, dst))
	delete(m.model.entries, src)
	m.model.entries[dst] = ino
}

func (m *memMachine) remove(t *rapid.T) {
	p, _ := m.existing(t)
	m.ok(t, m.fs.Remove(p))
	delete(m.model.entries, p)
}

func (m *memMachine) crash(t *rapid.T) {
	m.fs.Crash()
	m.checkHandlesDead(t, "process crash")
}

func (m *memMachine) writeback(t *rapid.T) {
	m.fs.Writeback()
	for _, ino := range m.model.entries {
		ino.durable = append([]byte(nil), ino.cached...)
	}
	for _, d := range modelDirs {
		m.model.synced[d] = map[string]*inode{}
	}
	for p, ino := range m.model.entries {
		dir, name, _ := strings.Cut(p, "/")
		m.model.synced[dir][name] = ino
	}
}

func (m *memMachine) powerCut(t *rapid.T) {
	kept := map[string]int64{}
	m.fs.PowerCut(func(name string, durable, cached int64) int64 {
		dir, base, _ := strings.Cut(name, "/")
		ino := m.model.synced[dir][base]
		if ino == nil || [2]int64{durable, cached} != [2]int64{int64(len(ino.durable)), int64(len(ino.cached))} {
			t.Fatalf("the power cut asked about %s with %d durable and %d cached bytes, which the model does not have", name, durable, cached)
		}
		kept[name] = rapid.Int64Range(0, cached-durable).Draw(t, "keep "+name)
		return kept[name]
	})
	m.checkHandlesDead(t, "power cut")
	entries := map[string]*inode{}
	for _, d := range modelDirs {
		for name, ino := range m.model.synced[d] {
			p := d + "/" + name
			_, asked := kept[p]
			if asked != (len(ino.cached) > len(ino.durable)) {
				t.Fatalf("the power cut asked about %s: %v, but it has %d cached bytes beyond %d durable", p, asked, len(ino.cached), len(ino.durable))
			}
			content := append([]byte(nil), ino.durable...)
			if asked {
				content = append(content, ino.cached[len(ino.durable):][:kept[p]]...)
			}
			entries[p] = &inode{cached: content, durable: append([]byte(nil), content...)}
		}
	}
	m.model.entries = entries
	m.writebackDirsOnly()
}

// writebackDirsOnly sets every directory's synced entries to its current ones, as they
// are after a power cut.
func (m *memMachine) writebackDirsOnly() {
	for _, d := range modelDirs {
		m.model.synced[d] = map[string]*inode{}
	}
	for p, ino := range m.model.entries {
		dir, name, _ := strings.Cut(p, "/")
		m.model.synced[dir][name] = ino
	}
}

// checkHandlesDead checks that every open file fails with ErrCrashed, then forgets them.
func (m *memMachine) checkHandlesDead(t *rapid.T, what string) {
	for _, f := range m.handles {
		if _, err := f.WriteAt([]byte("x"), 0); !errors.Is(err, vfs.ErrCrashed) {
			t.Fatalf("after a %s a write through %s returned %v, want ErrCrashed", what, f.Name(), err)
		}
	}
	m.handles = map[*inode]vfs.File{}
}

// fork clones the MemFS, carries on with one of the two and freezes the other.
func (m *memMachine) fork(t *rapid.T) {
	clone := m.fs.Clone()
	tree, err := vfstest.ReadTree(m.fs, "")
	m.ok(t, err)
	if rapid.Bool().Draw(t, "carry on with the clone") {
		m.frozen, m.fs = m.fs, clone
		m.handles = map[*inode]vfs.File{}
	} else {
		m.frozen = clone
	}
	m.want = tree
}

// check compares every directory and file with the model.
func (m *memMachine) check(t *rapid.T) {
	var durableSum int64
	for _, d := range modelDirs {
		names, err := m.fs.List(d)
		m.ok(t, err)
		var want []string
		for _, p := range modelPaths {
			if dir, name, _ := strings.Cut(p, "/"); dir == d && m.model.entries[p] != nil {
				want = append(want, name)
			}
		}
		sort.Strings(want)
		if diff := cmp.Diff(want, names, cmp.Comparer(func(a, b []string) bool { return fmt.Sprint(a) == fmt.Sprint(b) })); diff != "" {
			t.Fatalf("directory %s lists (-model +memfs):\n%s", d, diff)
		}
	}
	for _, p := range modelPaths {
		ino := m.model.entries[p]
		if ino == nil {
			continue
		}
		durableSum += int64(len(ino.durable))
		got, err := vfstest.ReadFile(m.fs, p)
		m.ok(t, err)
		if got != string(ino.cached) {
			t.Fatalf("%s reads %q, the model's page cache holds %q", p, got, ino.cached)
		}
		if f := m.handles[ino]; f != nil && !vfs.HoldsAt(f, append([]byte(nil), ino.cached...), 0) {
			t.Fatalf("%s does not hold the %d bytes it reads", p, len(ino.cached))
		}
		durable, cached, err := m.fs.SizeOnDisk(p)
		m.ok(t, err)
		if durable != int64(len(ino.durable)) || cached != int64(len(ino.cached)) {
			t.Fatalf("%s has %d durable and %d cached bytes, the model %d and %d", p, durable, cached, len(ino.durable), len(ino.cached))
		}
		dir, name, _ := strings.Cut(p, "/")
		if got, want := m.fs.EntryDurable(p), m.model.synced[dir][name] == ino; got != want {
			t.Fatalf("EntryDurable(%s) = %v, but the model's last SyncDir of %s says %v", p, got, dir, want)
		}
	}
	if got := m.fs.DurableBytes(""); got != durableSum {
		t.Fatalf("DurableBytes = %d, the model's files have %d durable bytes", got, durableSum)
	}
	tree, err := vfstest.ReadTree(m.fs, "")
	m.ok(t, err)
	if v := m.fs.ContentVersion(); m.seen != nil && v == m.seenVersion {
		if diff := cmp.Diff(m.seen, tree); diff != "" {
			t.Fatalf("the files changed while ContentVersion stayed %d (-before +now):\n%s", v, diff)
		}
	}
	m.seen, m.seenVersion = tree, m.fs.ContentVersion()
	if m.frozen != nil {
		got, err := vfstest.ReadTree(m.frozen, "")
		m.ok(t, err)
		if diff := cmp.Diff(m.want, got); diff != "" {
			t.Fatalf("a frozen fork changed after the clone (-at the fork +now):\n%s", diff)
		}
	}
}

func TestMemFSAgainstModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := newMemMachine(t)
		t.Repeat(map[string]func(*rapid.T){
			"":          m.check,
			"create":    m.create,
			"write":     m.write,
			"truncate":  m.truncate,
			"sync":      m.sync,
			"syncdir":   m.syncDir,
			"rename":    m.rename,
			"remove":    m.remove,
			"crash":     m.crash,
			"powercut":  m.powerCut,
			"writeback": m.writeback,
			"fork":      m.fork,
		})
	})
}
