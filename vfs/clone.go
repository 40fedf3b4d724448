package vfs

// Clone returns an independent copy of the file system: the page cache, the durable
// state, the capacity, the time and the operation count; not the hook and not the open
// files. Bytes are shared copy-on-write, so a Clone costs a walk of the tree and each
// file's bytes are copied at most once, when either side first changes them.
func (m *MemFS) Clone() *MemFS {
	return &MemFS{
		root:     cloneNode(m.root, map[*node]*node{}),
		epoch:    m.epoch,
		ops:      m.ops,
		version:  m.version,
		kindOps:  m.kindOps,
		capacity: m.capacity,
		used:     m.used,
		nowMs:    m.nowMs,
	}
}

// cloneNode copies n; memo keeps a node reached twice (through current and durable
// entries) one node in the copy.
func cloneNode(n *node, memo map[*node]*node) *node {
	if c, ok := memo[n]; ok {
		return c
	}
	c := *n
	memo[n] = &c
	if !n.dir {
		c.data, c.disk = n.data.share(), n.disk.share()
		return &c
	}
	c.children = make(map[string]*node, len(n.children))
	for _, name := range sortedNames(n.children) {
		c.children[name] = cloneNode(n.children[name], memo)
	}
	c.synced = make(map[string]*node, len(n.synced))
	for _, name := range sortedNames(n.synced) {
		c.synced[name] = cloneNode(n.synced[name], memo)
	}
	return &c
}
