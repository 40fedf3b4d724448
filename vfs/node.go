package vfs

import (
	"errors"
	"io/fs"
	"time"
)

// node is a MemFS file or directory (an inode).
type node struct {
	dir   bool
	mode  fs.FileMode
	mtime int64 // milliseconds, from SetNow

	// Directories. children are the current entries; synced are the entries as of the
	// last SyncDir, the ones a power cut keeps.
	children map[string]*node
	synced   map[string]*node
	// changed names the entries changed since the last SyncDir (some
	// perhaps more than once), which the next one copies (every other
	// entry is the same in children and synced); resync says there were
	// too many to note, and the next one copies them all.
	changed []string
	resync  bool

	// Files. data is the page cache (what reads see), disk what the last Sync made
	// durable. Bytes in [dirtyLo, dirtyHi) of data may differ from disk; every byte of
	// data beyond disk's size is inside that range. Their pages may be shared with
	// each other (after a Sync) and with a Clone's, and are copied before they are
	// written (pages).
	data, disk       pages
	dirtyLo, dirtyHi int64
	linked           bool // in the current tree (a file's bytes counted in MemFS.used)

	// Files and directories. dirty says the page cache (data, or the current entries)
	// may differ from the disk since the last Sync, SyncDir or writeback; dirtiedMs is
	// the SetNow time at which it last turned dirty, kept while it stays dirty (Linux's
	// inode->dirtied_when).
	dirty     bool
	dirtiedMs int64
	listed    bool // in MemFS.dirtied

	// kept is this node's copy in the last Snapshot, which the next one
	// holds again if nothing in the node (nor under it) changed since.
	// Nothing writes a snapshot's nodes, so several snapshots share them.
	// stale says that something in or under directory n may have changed
	// since (stir), so that the next Snapshot looks; a directory that is
	// not stale has every directory above it not stale either, and its
	// kept copy is its whole subtree as it is. parent is the directory n
	// was last linked into, and name its entry there.
	kept   *node
	stale  bool
	parent *node
	name   string
	// stirred names, in directory n whose kept copy is the last snapshot's
	// (fast), the entries that may have changed since: added, removed or
	// replaced, synced, or stirred in or under (each stir notes the name of
	// the node that changed, and of each directory it turns stale, in its
	// parent), so that the next Snapshot copies n from its kept copy and
	// looks at those entries alone (cloner.fast). A directory with too
	// many names to note is copied whole (fast false).
	stirred []string
	fast    bool
}

// stir notes that n changed: the directories from n's (n itself if a
// directory) up to the root are stale, for the next Snapshot to look at,
// and each one's parent, and n's, notes its name (stirred). A directory
// already stale was noted when it turned stale, and so were those above.
func (n *node) stir() {
	p := n
	if !n.dir {
		n.noteInParent()
		p = n.parent
	}
	for ; p != nil && !p.stale; p = p.parent {
		p.stale = true
		p.noteInParent()
	}
}

// noteInParent notes n's name in the directory it was last linked into.
func (n *node) noteInParent() {
	if n.parent != nil {
		n.parent.note(n.name)
	}
}

// note notes that directory d's entry name may have changed since its
// last snapshot, if d's next snapshot looks at the noted entries alone.
// It is kept out of line, as stir, which calls it, is inlined on every
// path that changes a file (the WebAssembly world a first visit downloads
// weighs every inlined copy).
//
//go:noinline
func (d *node) note(name string) {
	if !d.fast {
		return // copied whole: nothing to note
	}
	if len(d.stirred) > len(d.children)+64 {
		d.fast, d.stirred = false, nil
		return
	}
	d.stirred = append(d.stirred, name)
}

func newDir(mtime int64) *node {
	return &node{dir: true, mode: fs.ModeDir | 0o755, mtime: mtime,
		children: map[string]*node{}, synced: map[string]*node{}}
}

func newFile(mtime int64) *node {
	return &node{mode: 0o644, mtime: mtime}
}

// markDirty records that data[lo:hi] may differ from disk.
func (n *node) markDirty(lo, hi int64) {
	if lo >= hi {
		return
	}
	if n.dirtyLo >= n.dirtyHi {
		n.dirtyLo, n.dirtyHi = lo, hi
		return
	}
	n.dirtyLo, n.dirtyHi = min(n.dirtyLo, lo), max(n.dirtyHi, hi)
}

// dirtyBytes returns the size of the range of data that may differ from disk.
func (n *node) dirtyBytes() int64 {
	return max(0, n.dirtyHi-n.dirtyLo)
}

// touch records that n's page cache changed now: a clean n turns dirty with
// dirtiedMs the time, and joins the nodes the flusher looks at
// (MemFS.dirtied); a dirty n keeps the time it first turned dirty, as
// Linux's __mark_inode_dirty sets dirtied_when only on an inode that was
// clean.
func (m *MemFS) touch(n *node) {
	n.stir()
	if n.dirty {
		return
	}
	n.dirty, n.dirtiedMs = true, m.nowMs
	if !n.listed {
		n.listed = true
		m.dirtied = append(m.dirtied, n)
	}
}

// resize sets the page cache size of file n, accounting used bytes and dirty ranges.
func (m *MemFS) resize(n *node, size int64) {
	old := n.data.len()
	if size == old {
		return
	}
	n.data.resize(size)
	if n.linked {
		m.used += size - old
	}
	m.touch(n)
	if size > old {
		n.markDirty(old, size)
		return
	}
	n.dirtyHi = min(n.dirtyHi, size)
}

// sync makes file n's page cache durable: the disk shares its pages.
func (n *node) sync() {
	n.stir()
	n.dirty = false
	if n.disk.len() == n.data.len() && n.dirtyBytes() == 0 {
		return
	}
	n.disk = n.data.share()
	n.dirtyLo, n.dirtyHi = 0, 0
}

// syncDir makes directory n's current entries durable: those changed
// since the last SyncDir, so that making a partition's directory in a log
// dir of thousands costs what it changes.
func (n *node) syncDir() {
	n.stir()
	n.dirty = false
	if n.resync {
		n.fast, n.stirred = false, nil // every durable entry may change
		n.synced = make(map[string]*node, len(n.children))
		for name, c := range n.children {
			n.synced[name] = c
		}
	} else {
		for _, name := range n.changed {
			n.note(name) // its durable entry changes
			if c, ok := n.children[name]; ok {
				n.synced[name] = c
			} else {
				delete(n.synced, name)
			}
		}
	}
	n.changed, n.resync = n.changed[:0], false
}

// entryChanged notes that directory n's entry name was added, removed or
// replaced.
func (n *node) entryChanged(name string) {
	n.note(name)
	if n.resync {
		return
	}
	if len(n.changed) > 2*len(n.children)+64 {
		n.changed, n.resync = nil, true
		return
	}
	n.changed = append(n.changed, name)
}

// fileInfo is a MemFS fs.FileInfo.
type fileInfo struct {
	name    string
	size    int64
	mode    fs.FileMode
	mtimeMs int64
}

func (fi fileInfo) Name() string       { return fi.name }
func (fi fileInfo) Size() int64        { return fi.size }
func (fi fileInfo) Mode() fs.FileMode  { return fi.mode }
func (fi fileInfo) ModTime() time.Time { return time.UnixMilli(fi.mtimeMs).UTC() }
func (fi fileInfo) IsDir() bool        { return fi.mode.IsDir() }
func (fi fileInfo) Sys() any           { return nil }

// isNotExist says whether err is, or wraps, fs.ErrNotExist.
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// unwrapPath returns the error inside a *fs.PathError, or err itself.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
