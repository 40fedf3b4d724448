package group

// QuietForLoad reports whether everything coordinator c holds of group id
// is in the group's latest stored record, as a test of loading needs it:
// the group is Stable or Empty, no member waits in a JoinGroup or a
// SyncGroup or has yet to sync, no handed-out member id is unused, and no
// store is in flight.
func QuietForLoad(c *Coordinator, id string) bool {
	g := c.groups[id]
	if g == nil || g.state != Stable && g.state != Empty || len(g.pending) > 0 || len(c.stores) > 0 {
		return false
	}
	for _, m := range g.members {
		if m.awaitingJoin || m.awaitingSync || m.pendingSync {
			return false
		}
	}
	return true
}

// CopyMemberIDCounters gives each group of dst the member id counter of
// src's group of the same id: what a record does not hold (Kafka's member
// ids are random UUIDs), so that two coordinators hand out the same ids.
func CopyMemberIDCounters(dst, src *Coordinator) {
	for id, g := range dst.groups {
		if s := src.groups[id]; s != nil {
			g.nextSeq = s.nextSeq
		}
	}
}
