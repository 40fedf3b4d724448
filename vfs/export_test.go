package vfs

// WritebackExpiredByWalk is WritebackExpired as a walk of the whole current
// tree, the way it was written before it kept a list of dirty nodes: the
// reference the list is checked against.
func WritebackExpiredByWalk(m *MemFS, nowMs, expireMs int64) (inodes int, bytes int64) {
	walkNodes(m.root, func(n *node) {
		if !n.dirty || n.dirtiedMs > nowMs-expireMs {
			return
		}
		inodes++
		if n.dir {
			n.syncDir()
			return
		}
		bytes += n.dirtyBytes()
		n.sync()
	})
	return inodes, bytes
}
