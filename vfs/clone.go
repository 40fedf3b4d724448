package vfs

import (
	"maps"
	"slices"
)

// Clone returns an independent copy of the file system: the page cache, the durable
// state, the capacity, the time and the operation count; not the hook and not the open
// files (a handle opened on m is m's: open the clone's files on the clone).
//
// What it shares and what it copies. Every file's bytes, page cache and disk alike,
// are shared whole: their page tables are frozen, and whichever side writes a file
// first copies its table (a slice of page pointers), then each page it writes
// (pages). So a Clone costs one small copy per file and directory (the inode: size,
// mode, times, dirty state; a directory's entries) and nothing per byte or per page,
// and a file neither side writes again, as a sealed segment, is never copied. Nothing
// else is shared: the two file systems' trees, entries and counters are their own.
func (m *MemFS) Clone() *MemFS {
	return m.clone(false)
}

// Snapshot returns a copy of the file system as Clone does, meant to be
// kept and never written: read it, or Clone it to run it again. A node
// nothing changed in (nor under, for a directory) since the last Snapshot
// is that snapshot's copy again, so that a snapshot costs what changed
// since the last one, and a walk of the tree, not a copy of it. A Clone
// of a snapshot copies it as it copies any file system.
func (m *MemFS) Snapshot() *MemFS {
	return m.clone(true)
}

// clone copies m for Clone or, keep, Snapshot.
func (m *MemFS) clone(keep bool) *MemFS {
	cl := cloner{from: m.root, keep: keep}
	cl.to = cl.tree(m.root)
	cl.resolve()
	return &MemFS{
		dirtied:  cl.dirtied,
		rescan:   keep, // its nodes shared with other snapshots: nothing listed
		root:     cl.to,
		epoch:    m.epoch,
		ops:      m.ops,
		version:  m.version,
		kindOps:  m.kindOps,
		capacity: m.capacity,
		used:     m.used,
		nowMs:    m.nowMs,
	}
}

// cloner copies a tree of nodes. The current entries form a tree (each node is
// under one entry), copied first; a directory's durable entries are mostly the
// same nodes under the same names, and the others (a rename or a remove not yet
// synced) are resolved once the tree is copied (resolve), through memo, which
// maps originals to their copies: those copied since, and the whole current
// tree only if a durable entry names a node moved to another directory.
type cloner struct {
	from, to *node   // the root and its copy
	odd      []*node // pairs of a directory and its copy whose durable entries are not all current ones
	memo     map[*node]*node
	indexed  bool    // memo holds the current tree
	keep     bool    // a Snapshot: reuse and record each node's kept copy
	dirtied  []*node // a Clone's: the dirty copies in the current tree
	entries  []entry
	slab     []node
	made     int
}

// node returns a new node, from a slab: the nodes of a clone are allocated a
// slab at a time, each as large as all the slabs before it (up to maxSlab).
func (cl *cloner) node() *node {
	if len(cl.slab) == 0 {
		cl.slab = make([]node, min(max(cl.made, minSlab), maxSlab))
		cl.made += len(cl.slab)
	}
	n := &cl.slab[0]
	cl.slab = cl.slab[1:]
	return n
}

// The sizes of a clone's slabs of nodes.
const (
	minSlab = 8
	maxSlab = 512
)

// entry is a directory entry's name and the copy of its node.
type entry struct {
	name string
	copy *node
}

// tree copies n and, if it is a directory, everything under its current
// entries, and its durable entries that are current ones. A Snapshot's
// tree returns n's kept copy instead if it is still n as it is.
func (cl *cloner) tree(n *node) *node {
	if cl.keep && n.dir && n.kept != nil && !n.stale {
		return n.kept // nothing under n stirred since the last snapshot
	}
	if !n.dir {
		if cl.keep && n.kept != nil && sameInode(n, n.kept) {
			return n.kept
		}
		return cl.file(n)
	}
	if cl.keep && n.fast && n.kept != nil {
		return cl.fast(n)
	}
	// the copies of the entries, on a stack that each call leaves as it
	// found it
	base := len(cl.entries)
	for name, child := range n.children {
		cc := cl.tree(child)
		cl.entries = append(cl.entries, entry{name, cc})
	}
	copies := cl.entries[base:]
	defer func() { cl.entries = cl.entries[:base] }()
	var stale []string
	if cl.keep {
		// n stays stale while a directory under it does (its durable
		// entries not all current ones), for the next snapshot to copy
		for name, child := range n.children {
			if child.dir && child.stale {
				stale = append(stale, name)
			}
		}
		n.stale = len(stale) > 0
	}
	if cl.keep && n.kept != nil && cl.unchanged(n, n.kept, copies) {
		n.fast, n.stirred = true, stale // the last snapshot's copy, every durable entry a current one
		return n.kept
	}
	c := cl.copy(n)
	c.children = make(map[string]*node, len(n.children))
	c.synced = make(map[string]*node, len(n.synced))
	c.changed = slices.Clone(n.changed)
	same := 0
	for _, e := range copies {
		c.children[e.name] = e.copy
		if child := n.children[e.name]; n.synced[e.name] == child {
			c.synced[e.name] = e.copy
			same++
		}
	}
	if !cl.keep {
		for _, e := range copies {
			e.copy.parent = c
		}
	}
	if same < len(n.synced) {
		cl.odd = append(cl.odd, n, c)
		if cl.keep {
			n.stale, n.fast, n.stirred = true, false, nil
		}
	} else if cl.keep {
		n.kept = c // a directory whose durable entries are all current ones
		n.fast, n.stirred = true, stale
	}
	return c
}

// fast copies directory n for a Snapshot from its kept copy, the last
// snapshot's, looking at the entries noted since (node.stirred) alone:
// every other entry, current and durable, is what the kept copy holds
// under that name, and so is everything under it. A directory of ten
// thousand partitions of which a few changed costs a copy of its map of
// entries (no hashing) and the few; while every durable entry is a
// current one (no entry changed since the last SyncDir) the copy's
// durable entries are its current ones, the same map, which nothing
// writes. It is n's kept copy again if none of them changed after all.
func (cl *cloner) fast(n *node) *node {
	k, names := n.kept, n.stirred
	n.stirred = nil
	slices.Sort(names)
	names = slices.Compact(names)
	children := maps.Clone(k.children)
	var synced map[string]*node // nil: the same as children
	if len(n.changed) > 0 || n.resync {
		synced = maps.Clone(k.synced)
	}
	n.stale = false
	odd, same := false, sameInode(n, k)
	for _, name := range names {
		child, ok := n.children[name]
		if ok {
			cc := cl.tree(child)
			same = same && k.children[name] == cc
			children[name] = cc
			if child.dir && child.stale {
				n.stale = true
				n.stirred = append(n.stirred, name) // looked at again next time
			}
		} else {
			same = same && k.children[name] == nil
			delete(children, name)
		}
		entry, durable := n.synced[name]
		switch {
		case durable && ok && entry == child:
			same = same && k.synced[name] == children[name]
			if synced != nil {
				synced[name] = children[name]
			}
		case durable:
			odd = true // a durable entry not a current one: resolved below
			if synced != nil {
				delete(synced, name)
			}
		default:
			same = same && k.synced[name] == nil
			if synced != nil {
				delete(synced, name)
			}
		}
	}
	if synced == nil && odd {
		// (never: with no entry changed since the last SyncDir every
		// durable entry is a current one) the current ones that are
		synced = make(map[string]*node, len(n.synced))
		for name, entry := range n.synced {
			if n.children[name] == entry {
				synced[name] = children[name]
			}
		}
	}
	if synced == nil {
		synced = children
	}
	if same && !odd && len(children) == len(k.children) && len(synced) == len(k.synced) {
		return k
	}
	c := cl.copy(n)
	c.children, c.synced, c.changed = children, synced, slices.Clone(n.changed)
	if odd {
		cl.odd = append(cl.odd, n, c)
		n.stale, n.fast, n.stirred = true, false, nil
		return c
	}
	n.kept = c
	return c
}

// file copies file n, sharing its pages; a Snapshot's copy is n's kept one.
func (cl *cloner) file(n *node) *node {
	c := cl.copy(n)
	c.data, c.disk = n.data.share(), n.disk.share()
	if cl.keep {
		n.kept = c
	}
	return c
}

// copy returns a new node holding n's fields (the caller copies its pages
// and entries), listed among a Clone's dirty nodes if it is one of the
// current tree's (for a Snapshot, found when needed: MemFS.rescan).
func (cl *cloner) copy(n *node) *node {
	c := cl.node()
	*c = *n
	c.kept, c.listed, c.stale, c.parent = nil, false, true, nil
	c.stirred, c.fast = nil, false
	if !cl.keep && c.dirty && c.linked {
		c.listed = true
		cl.dirtied = append(cl.dirtied, c)
	}
	return c
}

// unchanged says whether k, directory n's kept copy, is still n as it is:
// the same inode, every durable entry a current one, and each current
// entry's copy (copies) the one k holds under that name.
func (cl *cloner) unchanged(n, k *node, copies []entry) bool {
	if !sameInode(n, k) || len(n.children) != len(k.children) || len(n.synced) != len(k.synced) {
		return false
	}
	for _, e := range copies {
		if k.children[e.name] != e.copy {
			return false
		}
	}
	for name, entry := range n.synced {
		if n.children[name] != entry || k.synced[name] != k.children[name] {
			return false
		}
	}
	return true
}

// sameInode says whether copy k holds what n holds, its entries (the
// maps) aside: a page table shared with a copy is frozen, and n's next
// write to it copies it first, so the same table is the same bytes.
func sameInode(n, k *node) bool {
	return n.dir == k.dir && n.mode == k.mode && n.mtime == k.mtime &&
		n.data.t == k.data.t && n.disk.t == k.disk.t && n.dirtyLo == k.dirtyLo && n.dirtyHi == k.dirtyHi &&
		n.linked == k.linked && n.dirty == k.dirty && n.dirtiedMs == k.dirtiedMs &&
		n.resync == k.resync && slices.Equal(n.changed, k.changed)
}

// resolve fills the durable entries that tree left out: mostly a file
// renamed within its directory (a segment renamed .deleted), found among the
// directory's current entries, or removed (no longer linked), copied now.
func (cl *cloner) resolve() {
	for i := 0; i < len(cl.odd); i += 2 {
		n, c := cl.odd[i], cl.odd[i+1]
		var here map[*node]*node // n's current entries to their copies, made if needed
		for name, entry := range n.synced {
			if n.children[name] == entry {
				continue
			}
			if !entry.dir && entry.linked {
				if here == nil {
					here = make(map[*node]*node, len(n.children))
					for name, child := range n.children {
						here[child] = c.children[name]
					}
				}
				if copied, ok := here[entry]; ok {
					c.synced[name] = copied
					continue
				}
			}
			c.synced[name] = cl.other(entry)
		}
	}
}

// other returns the copy of n, a node a durable entry names that is not the
// current one of that name: a node of the current tree elsewhere (renamed to
// another directory), already copied, or one no longer in it (removed),
// copied now with everything under it.
func (cl *cloner) other(n *node) *node {
	if cl.memo == nil {
		cl.memo = map[*node]*node{}
	}
	if c, ok := cl.memo[n]; ok {
		return c
	}
	if (n.dir || n.linked) && !cl.indexed {
		// somewhere in the current tree (a file that is linked, or a
		// directory, which does not say): index the tree once
		cl.indexed = true
		cl.index(cl.from, cl.to)
		if c, ok := cl.memo[n]; ok {
			return c
		}
	}
	c := cl.node()
	*c = *n
	c.kept, c.listed, c.stale, c.parent = nil, false, true, nil // out of the current tree
	c.stirred, c.fast = nil, false
	cl.memo[n] = c
	if !n.dir {
		c.data, c.disk = n.data.share(), n.disk.share()
		return c
	}
	c.children = make(map[string]*node, len(n.children))
	for name, child := range n.children {
		c.children[name] = cl.other(child)
	}
	c.synced = make(map[string]*node, len(n.synced))
	for name, entry := range n.synced {
		c.synced[name] = cl.other(entry)
	}
	c.changed = slices.Clone(n.changed)
	return c
}

// index records in memo that c is the copy of n, and so on under n's current
// entries.
func (cl *cloner) index(n, c *node) {
	cl.memo[n] = c
	for name, child := range n.children {
		cl.index(child, c.children[name])
	}
}
