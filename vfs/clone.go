package vfs

import "slices"

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
	cl := cloner{from: m.root}
	cl.to = cl.tree(m.root)
	cl.resolve()
	return &MemFS{
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
	indexed  bool // memo holds the current tree
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

// tree copies n and, if it is a directory, everything under its current
// entries, and its durable entries that are current ones.
func (cl *cloner) tree(n *node) *node {
	c := cl.node()
	*c = *n
	if !n.dir {
		c.data, c.disk = n.data.share(), n.disk.share()
		return c
	}
	c.children = make(map[string]*node, len(n.children))
	c.synced = make(map[string]*node, len(n.synced))
	c.changed = slices.Clone(n.changed)
	same := 0
	for name, child := range n.children {
		cc := cl.tree(child)
		c.children[name] = cc
		if n.synced[name] == child {
			c.synced[name] = cc
			same++
		}
	}
	if same < len(n.synced) {
		cl.odd = append(cl.odd, n, c)
	}
	return c
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
