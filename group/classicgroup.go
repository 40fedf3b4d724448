package group

import (
	"bytes"
	"fmt"
	"slices"
)

// classicGroup is one group's coordinator-side state.
type classicGroup struct {
	id string
	// incarnation tells this group apart from every other the coordinator
	// made under the same id (deleted or expired, then made again, or
	// unloaded and loaded back): an append's end applies only to the
	// group that made the record (store.go).
	incarnation int64
	state       State
	// stateSinceMs is when it entered state (currentStateTimestamp), -1
	// when loaded from a record that does not say.
	stateSinceMs int64
	generation   int32
	protocolType string
	protocolName string
	leader       string
	members      map[string]*member
	// table is what orders members as Kafka's GroupMetadata.members does
	// (see [memberTable]).
	table memberTable
	// pending holds member ids handed out with MEMBER_ID_REQUIRED and not yet
	// used, with the time they expire (session timeout).
	pending map[string]int64
	// static maps group.instance.id to its current member id.
	static map[string]string
	// nextSeq numbers member ids, so they are deterministic.
	nextSeq int
	// joinDeadlineMs ends the join phase (PreparingRebalance).
	joinDeadlineMs int64
	// initialJoin marks the delayed first join of an Empty group;
	// initialRemainingMs is how much more it may be extended, and
	// newMemberAdded whether someone joined since the last extension.
	initialJoin        bool
	initialRemainingMs int64
	newMemberAdded     bool
	// syncDeadlineMs bounds the wait for SyncGroups after a join phase.
	syncDeadlineMs int64
	// emptySinceMs is when it last became Empty (created, or its last
	// member gone): its offsets expire offsets.retention.minutes later
	// (GroupMetadata.currentStateTimestamp, KIP-211).
	emptySinceMs int64
	// dueMs is the group's next deadline when a Tick last looked at it
	// (nextDeadline).
	dueMs int64
}

// member is one member as the coordinator knows it.
type member struct {
	id                 string
	instanceID         string
	clientID           string
	clientHost         string
	sessionTimeoutMs   int32
	rebalanceTimeoutMs int32
	protocols          []Protocol
	assignment         []TopicPartition
	// assignmentData is the leader's assignment bytes, nil if it sent
	// partitions only.
	assignmentData []byte
	// joinFrom / syncFrom hold the address of a parked JoinGroup / SyncGroup;
	// non-empty means "awaiting".
	awaitingJoin bool
	joinFrom     string
	awaitingSync bool
	syncFrom     string
	// pendingSync: joined this generation but has not sent SyncGroup yet.
	pendingSync bool
	// heartbeatDeadlineMs: removed when the clock passes it (unless parked).
	heartbeatDeadlineMs int64
	// newJoinDeadlineMs: a member that joined as new and is still waiting
	// for its first generation at this time is dropped (KAFKA-7610: 5 min).
	newJoinDeadlineMs int64
}

// newMemberJoinTimeoutMs is how long a new member's first JoinGroup may stay
// parked (Kafka's GroupCoordinator.NewMemberJoinTimeoutMs, 5 minutes).
const newMemberJoinTimeoutMs = 5 * 60 * 1000

func (g *classicGroup) newMemberID(prefix string) string {
	g.nextSeq++
	return fmt.Sprintf("%s-%d", prefix, g.nextSeq)
}

func (g *classicGroup) sortedMemberIDs() []string {
	out := make([]string, 0, len(g.members))
	for id := range g.members {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// putMember adds m under id, as GroupMetadata.add (or, for a static member
// given a new id, replaceStaticMember) puts it in its members map.
func (g *classicGroup) putMember(id string, m *member) {
	g.table.put(id, len(g.members))
	g.members[id] = m
}

// deleteMember removes id from the members.
func (g *classicGroup) deleteMember(id string) {
	g.table.forget(id)
	delete(g.members, id)
}

// mapOrderMemberIDs lists the member ids in the iteration order of Kafka
// 3.7's GroupMetadata.members, a Scala mutable.HashMap: the order of the
// JoinGroup answer's members (GroupMetadata.currentMemberMetadata).
func (g *classicGroup) mapOrderMemberIDs() []string {
	return g.table.order(g.sortedMemberIDs())
}

// rebalanceTimeoutMs is the largest rebalance timeout among the members.
func (g *classicGroup) rebalanceTimeoutMs() int64 {
	var t int32
	for _, m := range g.members {
		t = max(t, m.rebalanceTimeoutMs)
	}
	return int64(t)
}

// allJoined: every member has a parked JoinGroup and no handed-out id is
// still unused.
func (g *classicGroup) allJoined() bool {
	for _, m := range g.members {
		if !m.awaitingJoin {
			return false
		}
	}
	return len(g.pending) == 0
}

// anyJoined reports whether some member has a parked JoinGroup.
func (g *classicGroup) anyJoined() bool {
	for _, m := range g.members {
		if m.awaitingJoin {
			return true
		}
	}
	return false
}

// supportsProtocols reports whether a joining member fits the group: same
// protocol type and at least one assignor every current member supports.
func (g *classicGroup) supportsProtocols(protocolType string, protocols []Protocol) bool {
	if len(protocols) == 0 {
		return false
	}
	if len(g.members) == 0 {
		return true
	}
	if protocolType != g.protocolType {
		return false
	}
	for _, p := range protocols {
		if g.allSupport(p.Name, "") {
			return true
		}
	}
	return false
}

// allSupport reports whether every member except skip lists assignor name.
func (g *classicGroup) allSupport(name, skip string) bool {
	for id, m := range g.members {
		if id != skip && !slices.ContainsFunc(m.protocols, func(p Protocol) bool { return p.Name == name }) {
			return false
		}
	}
	return true
}

// selectProtocol picks the assignor as Kafka does: among the assignors every
// member supports, each member votes for its most preferred; most votes
// wins, ties broken by name so the choice is deterministic.
func (g *classicGroup) selectProtocol() string {
	votes := map[string]int{}
	for _, id := range g.sortedMemberIDs() {
		for _, p := range g.members[id].protocols {
			if g.allSupport(p.Name, "") {
				votes[p.Name]++
				break
			}
		}
	}
	best := ""
	for name, v := range votes {
		if best == "" || v > votes[best] || (v == votes[best] && name < best) {
			best = name
		}
	}
	return best
}

// protocol returns m's entry for assignor name (an empty subscription of
// generation -1 when it lists none).
func (m *member) protocol(name string) Protocol {
	for _, p := range m.protocols {
		if p.Name == name {
			return p
		}
	}
	return Protocol{Name: name, Subscription: Subscription{Generation: -1}}
}

// sameProtocols reports whether a rejoin carries the same assignors and
// subscriptions ("same metadata": no rebalance needed). The bytes are
// compared when both sides have them (Kafka compares only bytes); a
// world's own member sends none, and a member loaded from a group record
// has the stored bytes and their decoding, so the subscriptions decide.
func sameProtocols(a, b []Protocol) bool {
	return slices.EqualFunc(a, b, func(x, y Protocol) bool {
		return x.Name == y.Name && slices.Equal(x.Subscription.Topics, y.Subscription.Topics) &&
			slices.Equal(SortedPartitions(x.Subscription.OwnedPartitions), SortedPartitions(y.Subscription.OwnedPartitions)) &&
			x.Subscription.Generation == y.Subscription.Generation && (x.Metadata == nil || y.Metadata == nil || bytes.Equal(x.Metadata, y.Metadata))
	})
}
