package group

import (
	"slices"
	"strconv"
	"strings"
)

// GroupRecord is a classic group's metadata for the caller to store in
// the group's __consumer_offsets partition, as Kafka 3.7's
// GroupMetadataManager.storeGroup writes it (a GroupMetadataKey and a
// GroupMetadataValue, see [AppendGroupMetadataValue]), or a tombstone for a
// deleted group; and what [Coordinator.LoadGroup] takes back from the log.
// The members' subscriptions and assignments are kept as the coordinator
// has them (structured for the world's own members, bytes for the others):
// the caller turns them into the value's bytes with its protocol's codec.
type GroupRecord struct {
	// StoreID numbers the records a coordinator emits: the caller reports
	// each one's append with [Coordinator.GroupStored]. 0 in a loaded record.
	StoreID int64
	// Group is the group id.
	Group string
	// Tombstone: the group is deleted (a null value); nothing below is set.
	Tombstone bool
	// Generation is the group's generation.
	Generation int32
	// ProtocolType is the group's protocol type.
	ProtocolType string
	// Protocol is the chosen assignor and Leader the leader's member id,
	// both "" for a group without members (null in the value).
	Protocol, Leader string
	// CurrentStateTimestampMs is when the group last changed state, -1 when
	// unknown.
	CurrentStateTimestampMs int64
	// Members are listed in the order Kafka's coordinator writes them (the
	// iteration order of its members map).
	Members []StoredMember
}

// StoredMember is one member in a [GroupRecord].
type StoredMember struct {
	// MemberID, GroupInstanceID ("" if dynamic), ClientID and ClientHost
	// are the member's.
	MemberID, GroupInstanceID, ClientID, ClientHost string
	// RebalanceTimeoutMs and SessionTimeoutMs are the member's timeouts.
	RebalanceTimeoutMs, SessionTimeoutMs int32
	// Protocol is the member's entry for the group's chosen assignor: the
	// only one Kafka stores, and so the only one a loaded member supports.
	Protocol Protocol
	// Assignment is the member's assignment in the leader's order, and
	// AssignmentData its bytes as the leader sent them (nil from the
	// world's own leaders).
	Assignment     []TopicPartition
	AssignmentData []byte
}

// storeKind says what waits for a stored record.
type storeKind int8

const (
	// storeOnly: nothing waits (an empty group after a join, a tombstone).
	storeOnly storeKind = iota
	// storeSync: the leader's assignment, applied once stored.
	storeSync
	// storeStatic: a static member's new member id, answered once stored.
	storeStatic
)

// storeWait is what a record's append completes (GroupMetadataManager's
// storeGroup callbacks in GroupCoordinator.doSyncGroup and
// updateStaticMemberAndRebalance). It holds data only, so that a clone
// copies it: the group is named by its id and incarnation where Kafka's
// callback holds the GroupMetadata object itself.
type storeWait struct {
	kind        storeKind
	group       string
	incarnation int64
	generation  int32
	// assignments is the leader's assignment (storeSync).
	assignments []MemberAssignment
	// static is the replacement to answer or undo (storeStatic).
	static staticReplacement
}

// staticReplacement is a static member's rejoin in a Stable group under
// a new member id, with what it replaced.
type staticReplacement struct {
	oldID, newID, from, oldLeader              string
	oldProtocols                               []Protocol
	oldRebalanceTimeoutMs, oldSessionTimeoutMs int32
}

// storeGroup emits g's record as it stands (for a leader's SyncGroup, with
// the leader's assignment, not yet applied), and registers what waits for
// its append.
func (c *Coordinator) storeGroup(g *classicGroup, w storeWait) {
	c.nextStoreID++
	rec := GroupRecord{StoreID: c.nextStoreID, Group: g.id, Generation: g.generation, ProtocolType: g.protocolType,
		Leader: g.leader, CurrentStateTimestampMs: g.stateSinceMs}
	if len(g.members) > 0 {
		rec.Protocol = g.protocolName
	}
	given, data := leaderAssignment(w.assignments)
	for _, id := range g.mapOrderMemberIDs() {
		m := g.members[id]
		sm := StoredMember{MemberID: id, GroupInstanceID: m.instanceID, ClientID: m.clientID, ClientHost: m.clientHost,
			RebalanceTimeoutMs: m.rebalanceTimeoutMs, SessionTimeoutMs: m.sessionTimeoutMs, Protocol: m.protocol(g.protocolName),
			Assignment: m.assignment, AssignmentData: m.assignmentData}
		if w.kind == storeSync {
			sm.Assignment, sm.AssignmentData = distinctPartitions(given[id]), data[id]
			if _, ok := given[id]; !ok {
				sm.AssignmentData = []byte{} // left out by the leader: Kafka stores an empty assignment
			}
		}
		rec.Members = append(rec.Members, sm)
	}
	c.ready.Groups = append(c.ready.Groups, rec)
	if w.kind != storeOnly {
		w.group, w.incarnation, w.generation = g.id, g.incarnation, g.generation
		if c.stores == nil {
			c.stores = map[int64]storeWait{}
		}
		c.stores[rec.StoreID] = w
	}
}

// storeTombstone emits the tombstone of a deleted group
// (GroupMetadataManager.cleanupGroupMetadata).
func (c *Coordinator) storeTombstone(id string) {
	c.nextStoreID++
	c.ready.Groups = append(c.ready.Groups, GroupRecord{StoreID: c.nextStoreID, Group: id, Tombstone: true})
}

// leaderAssignment indexes a leader's assignment by member (Kafka keeps a
// member id's last bytes).
func leaderAssignment(assignments []MemberAssignment) (map[string][]TopicPartition, map[string][]byte) {
	given := map[string][]TopicPartition{}
	data := map[string][]byte{}
	for _, a := range assignments {
		given[a.MemberID] = append(given[a.MemberID], a.Partitions...)
		if a.Data != nil {
			data[a.MemberID] = a.Data
		}
	}
	return given, data
}

// GroupStored reports how the append of the record numbered storeID ended:
// None once the in-sync replicas have it (acks=all), else the error to
// answer, mapped as Kafka 3.7's GroupMetadataManager.storeGroup maps the
// append's (too few in-sync replicas COORDINATOR_NOT_AVAILABLE, a replica
// no longer leading NOT_COORDINATOR, a timed-out append
// REBALANCE_IN_PROGRESS, a record too large UNKNOWN_SERVER_ERROR).
//
// A leader's assignment is applied only now, if the group is still
// completing the same generation: the group goes Stable and every waiting
// SyncGroup is answered, or on an error they are answered with it and the
// group rebalances (GroupCoordinator.doSyncGroup). A static member's new
// member id is answered now, or on an error undone
// (updateStaticMemberAndRebalance). Unknown or finished ids are ignored,
// and so is the end of an append made for a group since deleted or
// expired, even if a group of the same id has been made again and has
// reached the same generation: Kafka's callback holds the group it was
// made for, which is Dead, and the new group's own record decides for it.
func (c *Coordinator) GroupStored(storeID int64, code ErrorCode) {
	w, ok := c.stores[storeID]
	if !ok {
		return
	}
	delete(c.stores, storeID)
	g := c.groups[w.group]
	if g == nil || g.incarnation != w.incarnation || g.state == Dead {
		return
	}
	c.touch(w.group) // its deadlines change (tick.go)
	switch w.kind {
	case storeSync:
		if g.state != CompletingRebalance || g.generation != w.generation {
			return
		}
		if code == None {
			c.applyAssignment(g, w.assignments)
			return
		}
		c.failAssignment(g, code)
	case storeStatic:
		c.staticStored(g, w.static, code)
	}
}

// failAssignment is resetAndPropagateAssignmentError and
// maybePrepareRebalance: every member's assignment is emptied, every
// waiting SyncGroup answered with code, and the group rebalances.
func (c *Coordinator) failAssignment(g *classicGroup, code ErrorCode) {
	for _, id := range g.sortedMemberIDs() {
		m := g.members[id]
		m.assignment, m.assignmentData = nil, nil
		if m.awaitingSync {
			c.respond(m.syncFrom, SyncGroupResponse{Error: code, Assignment: []TopicPartition{}})
			m.awaitingSync, m.syncFrom = false, ""
		}
	}
	c.prepareRebalance(g)
}

// staticStored answers a static member's rejoin once its new member id is
// stored, or undoes the replacement and answers the error.
func (c *Coordinator) staticStored(g *classicGroup, s staticReplacement, code ErrorCode) {
	m := g.members[s.newID]
	if m == nil {
		return
	}
	waiting := m.awaitingJoin && m.joinFrom == s.from
	if code == None {
		if waiting {
			m.awaitingJoin, m.joinFrom = false, ""
			c.respond(s.from, c.joinResponse(g, m, s.newID == g.leader))
		}
		return
	}
	m.protocols, m.rebalanceTimeoutMs, m.sessionTimeoutMs = s.oldProtocols, s.oldRebalanceTimeoutMs, s.oldSessionTimeoutMs
	m.awaitingJoin, m.joinFrom = false, ""
	c.replaceMemberID(g, m, s.newID, s.oldID)
	m.heartbeatDeadlineMs = c.nowMs + int64(m.sessionTimeoutMs)
	if waiting {
		c.respond(s.from, JoinGroupResponse{Error: code, GenerationID: g.generation, ProtocolType: g.protocolType,
			ProtocolName: g.protocolName, Leader: s.oldLeader, Members: []MemberSubscription{}})
	}
}

// replaceMemberID moves member m from id from to id to (GroupMetadata.
// replaceStaticMember): its instance id and, if it led, the leadership
// follow it.
func (c *Coordinator) replaceMemberID(g *classicGroup, m *member, from, to string) {
	g.deleteMember(from)
	m.id = to
	g.putMember(to, m)
	if m.instanceID != "" {
		g.static[m.instanceID] = to
	}
	if g.leader == from {
		g.leader = to
	}
}

// LoadGroup takes over a group from its latest metadata record, as Kafka
// 3.7's coordinator does when it becomes the leader of the group's
// __consumer_offsets partition (GroupMetadataManager.loadGroupsAndOffsets,
// GroupMetadata.loadGroup, GroupCoordinator.onGroupLoaded): a group with
// members is Stable at the record's generation, one without is Empty; each
// member keeps its id, instance id, timeouts, the subscription of the
// chosen assignor and its assignment, and its session starts now. A group
// the coordinator already hosts is kept as it is (the cached one wins, as
// in GroupMetadataManager.loadGroup); so is a tombstone's. It reports
// whether the group was loaded.
//
// Member ids are numbered per group; what the previous coordinator handed
// out but never stored is not known, so a loaded group numbers new member
// ids after the highest number among its loaded members (Kafka's ids are
// random UUIDs and never meet this question).
func (c *Coordinator) LoadGroup(rec GroupRecord) bool {
	if rec.Tombstone || rec.Group == "" {
		return false
	}
	if _, ok := c.groups[rec.Group]; ok {
		return false
	}
	g := c.newGroup(rec.Group)
	c.touch(rec.Group) // its members' sessions start now (tick.go)
	g.generation, g.protocolType, g.protocolName, g.leader = rec.Generation, rec.ProtocolType, rec.Protocol, rec.Leader
	g.stateSinceMs = rec.CurrentStateTimestampMs
	g.emptySinceMs = rec.CurrentStateTimestampMs // -1: expire by commit times
	g.state = Empty
	if len(rec.Members) > 0 {
		g.state = Stable
	}
	for _, sm := range rec.Members {
		m := &member{id: sm.MemberID, instanceID: sm.GroupInstanceID, clientID: sm.ClientID, clientHost: sm.ClientHost,
			sessionTimeoutMs: sm.SessionTimeoutMs, rebalanceTimeoutMs: sm.RebalanceTimeoutMs,
			protocols:  []Protocol{sm.Protocol},
			assignment: slices.Clone(sm.Assignment), assignmentData: sm.AssignmentData,
			heartbeatDeadlineMs: c.nowMs + int64(sm.SessionTimeoutMs)}
		g.putMember(m.id, m)
		if m.instanceID != "" {
			g.static[m.instanceID] = m.id
		}
		g.nextSeq = max(g.nextSeq, memberIDNumber(m.id))
	}
	if g.leader == "" && len(rec.Members) > 0 {
		g.leader = rec.Members[0].MemberID
	}
	if c.cfg.GroupMaxSize > 0 && len(g.members) > c.cfg.GroupMaxSize {
		// onGroupLoaded: a group over group.max.size rebalances, and the
		// members that do not fit are refused when they rejoin.
		c.prepareRebalance(g)
	}
	return true
}

// memberIDNumber is the number that ends a member id this package makes
// ("client-7": 7), 0 for any other id.
func memberIDNumber(id string) int {
	i := strings.LastIndexByte(id, '-')
	if i < 0 {
		return 0
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// UnloadGroup forgets a group whose __consumer_offsets partition the
// caller no longer leads (GroupCoordinator.onResignation, onGroupUnloaded):
// the group and its stores in flight are dropped without an answer; the
// caller answers the requests it holds for the group NOT_COORDINATOR. A
// later [Coordinator.LoadGroup] takes it from the log again.
func (c *Coordinator) UnloadGroup(id string) {
	delete(c.groups, id)
	for sid, w := range c.stores {
		if w.group == id {
			delete(c.stores, sid)
		}
	}
}
