package controller

// changes are what the controller changed since the world last took them
// (TakeChanged): the partitions whose leader, ISR or existence changed,
// and whether a broker's registration or fencing changed, which concerns
// every partition. The world checks its invariants on those partitions
// alone, and on every partition when a broker's standing changed.
type changes struct {
	parts []tp
	all   bool
}

// markChanged notes that partition k changed.
func (c *Controller) markChanged(k tp) { c.changes.parts = append(c.changes.parts, k) }

// markAllChanged notes that a broker's registration or fencing changed.
func (c *Controller) markAllChanged() { c.changes.all = true }

// TakeChanged returns the partitions the controller changed (created,
// removed, a new leader or ISR) since the last call, perhaps some more
// than once, and all true if a broker's registration or fencing changed
// (every partition it hosts concerned); it forgets them.
func (c *Controller) TakeChanged() (parts []tp, all bool) {
	parts, all = c.changes.parts, c.changes.all
	c.changes = changes{}
	return parts, all
}
