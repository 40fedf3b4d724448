package vfs

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path"
	"strings"
)

// SyncDir makes the current entries of dir durable: files and directories created,
// renamed into or removed from dir since its last SyncDir survive a power cut from now
// on. It makes no file data durable (that takes File.Sync) and no entries of other
// directories (a rename between two directories takes a SyncDir on each).
func (m *MemFS) SyncDir(dir string) error {
	if err := m.before(Op{Kind: OpSyncDir, Name: dir}); err != nil {
		return err
	}
	n, err := m.lookup("syncdir", dir)
	if err != nil {
		return err
	}
	if !n.dir {
		return &fs.PathError{Op: "syncdir", Path: dir, Err: ErrNotDir}
	}
	n.syncDir()
	return nil
}

// Crash is a process crash: every open File becomes unusable (ErrCrashed) and nothing is
// lost, because the page cache belongs to the operating system, which lives on.
func (m *MemFS) Crash() { m.epoch++ }

// Epoch counts the crashes and power cuts so far ([Epocher]): a File opened while it
// was lower is dead (ErrCrashed). A Clone starts at its original's.
func (m *MemFS) Epoch() uint64 { return m.epoch }

// Writeback is the operating system flushing every dirty page and directory: afterwards
// all data and entries are durable, as if every file and directory had been synced
// (sync(2)). WritebackExpired writes back only what has been dirty long enough, as
// Linux's flusher threads do on their own.
func (m *MemFS) Writeback() {
	m.walkTree(m.root, "", func(n *node, _ string) {
		if n.dir {
			n.syncDir()
		} else {
			n.sync()
		}
	})
}

// Linux's defaults for its flusher threads (Documentation/admin-guide/sysctl/vm.rst),
// in milliseconds: vm.dirty_writeback_centisecs 500 and vm.dirty_expire_centisecs 3000.
const (
	// LinuxDirtyWritebackIntervalMs is how often the flusher threads wake.
	LinuxDirtyWritebackIntervalMs = 5000
	// LinuxDirtyExpireMs is how long an inode stays dirty before a wake writes it back.
	LinuxDirtyExpireMs = 30000
)

// WritebackExpired is one wake of Linux's flusher threads at nowMs (the periodic, or
// "kupdate", writeback of fs/fs-writeback.c's wb_writeback): every file and directory
// that turned dirty at or before nowMs-expireMs (its dirtied time, see Dirtied) is
// written back whole, as if synced: all its dirty pages, whatever their age, or all
// its entries. Those dirtied later stay in the page cache. It returns how many files
// and directories it wrote back and the file bytes it wrote.
//
// Calling it every LinuxDirtyWritebackIntervalMs with LinuxDirtyExpireMs is the
// default Linux host: a page written at t is on disk by t+35 s at the latest, unless
// the inode is re-dirtied and written back in between. Left out: the background
// writeback that starts when dirty pages pass vm.dirty_background_ratio of memory, and
// the journal commits of a journaling file system (ext4 commits metadata every 5 s).
func (m *MemFS) WritebackExpired(nowMs, expireMs int64) (inodes int, bytes int64) {
	m.findDirtied()
	kept := m.dirtied[:0]
	for _, n := range m.dirtied {
		if !n.dirty || !n.linked {
			n.listed = false // clean, or out of the tree for good
			continue
		}
		if n.dirtiedMs > nowMs-expireMs {
			kept = append(kept, n)
			continue
		}
		n.listed = false
		inodes++
		if n.dir {
			n.syncDir()
			continue
		}
		bytes += n.dirtyBytes()
		n.sync()
	}
	clear(m.dirtied[len(kept):])
	m.dirtied = kept
	return inodes, bytes
}

// findDirtied lists the dirty nodes of the current tree if they are not
// known (a Snapshot's).
func (m *MemFS) findDirtied() {
	if !m.rescan {
		return
	}
	m.rescan, m.dirtied = false, nil
	walkNodes(m.root, func(n *node) {
		n.listed = n.dirty
		if n.dirty {
			m.dirtied = append(m.dirtied, n)
		}
	})
}

// Dirtied says whether the named file or directory is dirty (written, grown, shrunk,
// or its entries changed, since its last Sync, SyncDir or writeback) and, if so, the
// SetNow time at which it turned dirty. Like Linux's inode->dirtied_when, that time is
// set when a clean inode is first changed and kept by later changes until it is
// written back.
func (m *MemFS) Dirtied(name string) (dirtiedMs int64, dirty bool, err error) {
	n, err := m.lookup("stat", name)
	if err != nil {
		return 0, false, err
	}
	if !n.dirty {
		return 0, false, nil
	}
	return n.dirtiedMs, true, nil
}

// PowerCut is a power failure followed by a reboot. Every open File becomes unusable
// (ErrCrashed) and the file system becomes what was durable:
//
//   - the directory entries as of each directory's last SyncDir (the root's own entry
//     always exists): a file created in a directory never synced since is gone, an
//     unsynced rename is undone, an unsynced remove is undone;
//   - in each surviving file, the bytes as of its last Sync, followed by the first k
//     bytes of the page cache beyond that size, where k is keep(name, durable, cached)
//     clamped to [0, cached-durable]. So an unsynced append survives whole (k =
//     cached-durable), not at all (k = 0), or torn at any byte; a file grown by an
//     unsynced Truncate reads back zero-padded up to k. Unsynced overwrites below the
//     durable size, and unsynced shrinking, are lost.
//
// keep is called once for each surviving path whose page cache is longer than its
// durable size, depth first with each directory's entries in sorted order (a fixed
// order); name has no leading slash. A nil keep keeps
// nothing beyond the durable data. (A directory that the durable entries would make its
// own ancestor is dropped.)
func (m *MemFS) PowerCut(keep func(name string, durable, cached int64) int64) {
	m.epoch++
	m.version++
	m.root = restoreDir(m.root, "", keep, map[*node]bool{})
	m.used, m.dirtied = 0, nil // every node a new one, clean
	m.linkTree(m.root, +1)
}

// PowerCutRand is PowerCut with each file's surviving unsynced tail drawn from r: a
// third of the time none of it, a third all of it, a third a uniform length in between.
func (m *MemFS) PowerCutRand(r *rand.Rand) {
	m.PowerCut(func(_ string, durable, cached int64) int64 {
		switch r.IntN(3) {
		case 0:
			return 0
		case 1:
			return cached - durable
		}
		return r.Int64N(cached - durable + 1)
	})
}

// restoreDir builds the durable version of directory d (at dirPath) after a power cut.
// onPath holds d's ancestors, so that a cycle of durable entries ends.
func restoreDir(d *node, dirPath string, keep func(string, int64, int64) int64, onPath map[*node]bool) *node {
	out := newDir(d.mtime)
	out.mode = d.mode
	onPath[d] = true
	defer delete(onPath, d)
	for _, name := range sortedNames(d.synced) {
		c, p := d.synced[name], path.Join(dirPath, name)
		var r *node
		switch {
		case onPath[c]:
			continue
		case c.dir:
			r = restoreDir(c, p, keep, onPath)
		default:
			r = restoreFile(c, p, keep)
		}
		r.parent, r.name = out, name
		out.children[name], out.synced[name] = r, r
	}
	return out
}

// restoreFile builds the durable version of file f (at name) after a power cut.
func restoreFile(f *node, name string, keep func(string, int64, int64) int64) *node {
	durable, cached := f.disk.len(), f.data.len()
	var k int64
	if cached > durable && keep != nil {
		k = min(max(0, keep(name, durable, cached)), cached-durable)
	}
	content := f.disk.share() // shared with f, whose pages are copied before they change
	if k > 0 {
		content.writeAt(f.data.bytes(durable, durable+k), durable, false)
	}
	return &node{mode: f.mode, mtime: f.mtime, data: content, disk: content.share()}
}

// walkTree calls visit for n and everything under it in the current tree, parents
// first, entries in sorted order. p is n's path without a leading slash.
func (m *MemFS) walkTree(n *node, p string, visit func(n *node, p string)) {
	visit(n, p)
	if !n.dir {
		return
	}
	for _, name := range sortedNames(n.children) {
		m.walkTree(n.children[name], path.Join(p, name), visit)
	}
}

// walkNodes calls visit for n and everything under it in the current tree,
// parents first, in no particular order (no names sorted, no paths built:
// the flusher's walk every few seconds over every file).
func walkNodes(n *node, visit func(n *node)) {
	visit(n)
	for _, c := range n.children {
		walkNodes(c, visit)
	}
}

// DurableBytes sums the durable sizes (as of the last Sync) of the files at or under
// prefix, a file or directory path ("" or "/" for all).
func (m *MemFS) DurableBytes(prefix string) int64 {
	var sum int64
	m.walkFiles(prefix, func(n *node) { sum += n.disk.len() })
	return sum
}

// CacheBytes sums, over the files at or under prefix, the bytes only in the page cache:
// the span of each file written or grown since its last Sync. For a file that is only
// appended to, DurableBytes + CacheBytes is its size.
func (m *MemFS) CacheBytes(prefix string) int64 {
	var sum int64
	m.walkFiles(prefix, func(n *node) { sum += n.dirtyBytes() })
	return sum
}

// walkFiles calls visit for each file at or under prefix, in sorted order.
func (m *MemFS) walkFiles(prefix string, visit func(n *node)) {
	start, err := m.walk(cleanPath(prefix))
	if err != nil {
		return
	}
	m.walkTree(start, "", func(n *node, _ string) {
		if !n.dir {
			visit(n)
		}
	})
}

// SizeOnDisk returns the named file's durable size (as of its last Sync) and its page
// cache size.
func (m *MemFS) SizeOnDisk(name string) (durable, cached int64, err error) {
	n, err := m.lookup("stat", name)
	if err != nil {
		return 0, 0, err
	}
	if n.dir {
		return 0, 0, &fs.PathError{Op: "stat", Path: name, Err: ErrIsDir}
	}
	return n.disk.len(), n.data.len(), nil
}

// EntryDurable says whether name would still be there after a power cut: whether the
// entry for it, and for each directory above it, is durable (SyncDir'd since it was
// last created or renamed). The root is always durable.
func (m *MemFS) EntryDurable(name string) bool {
	n := m.root
	for p := cleanPath(name); p != ""; {
		var part string
		part, p, _ = strings.Cut(p, "/")
		c, ok := n.children[part]
		if !ok || !n.dir || n.synced[part] != c {
			return false
		}
		n = c
	}
	return true
}

// DamageDisk changes the durable bytes [off, off+n) of the named file in place, as a
// disk or its firmware may (a flipped bit, a sector read back as zeros): damage is
// given them to change. Those bytes of the page cache that are not dirty change with
// them, as if the page were read from the disk again; a dirty page keeps what was
// written to it. The range must lie inside the file's durable size.
func (m *MemFS) DamageDisk(name string, off, n int64, damage func(b []byte)) error {
	f, err := m.lookup("damage", name)
	if err != nil {
		return err
	}
	if f.dir {
		return &fs.PathError{Op: "damage", Path: name, Err: ErrIsDir}
	}
	if off < 0 || n <= 0 || off+n > f.disk.len() {
		return &fs.PathError{Op: "damage", Path: name, Err: fmt.Errorf("%w: bytes [%d, %d) outside the %d durable bytes", fs.ErrInvalid, off, off+n, f.disk.len())}
	}
	m.version++
	f.stir()
	b := f.disk.bytes(off, off+n)
	damage(b)
	f.disk.writeAt(b, off, false)
	for i := off; i < off+n && i < f.data.len(); i++ {
		if i < f.dirtyLo || i >= f.dirtyHi {
			f.data.writeAt(b[i-off:i-off+1], i, false)
		}
	}
	return nil
}
