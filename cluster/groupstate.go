package cluster

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/group"
)

// GroupInfo is one consumer group in a [State], as its coordinator and its
// members' processes see it.
type GroupInfo struct {
	Name string `json:"name"`
	// State is the coordinator's: Empty, PreparingRebalance,
	// CompletingRebalance, Stable or Dead; "Unknown" while no broker can
	// coordinate it (its offsets partition has no running leader).
	State      string `json:"state"`
	Generation int32  `json:"generation"`
	// Protocol is "eager" or "cooperative" (the chosen assignor's; before a
	// generation, the members' own).
	Protocol string `json:"protocol"`
	// Assignor is the chosen assignor, e.g. "cooperative-sticky" (extra).
	Assignor string `json:"assignor,omitempty"`
	// Coordinator is the broker coordinating it, -1 if none (extra).
	Coordinator int32 `json:"coordinator"`
	// Leader is the group leader's member id (extra).
	Leader string `json:"leader,omitempty"`
	// GroupProtocol is "consumer" for a group of the consumer group
	// protocol (KIP-848), omitted for a classic one (extra). Such a
	// group's State is Empty, Assigning, Reconciling or Stable, its
	// Generation its group epoch, Assignor its server-side assignor.
	GroupProtocol string `json:"group_protocol,omitempty"`
	// AssignmentEpoch is a consumer-protocol group's target assignment
	// epoch (extra).
	AssignmentEpoch int32        `json:"assignment_epoch,omitempty"`
	Members         []MemberInfo `json:"members"`
	Offsets         []OffsetInfo `json:"offsets"`
}

// MemberInfo is one member of a group.
type MemberInfo struct {
	ID string `json:"id"`
	// Partitions are the partitions the member reads now: its process's
	// fetchable partitions (an eager member that is rebalancing reads none),
	// or the coordinator's assignment when its process is gone.
	Partitions []PartitionRef `json:"partitions"`
	// ClientID, InstanceID (static members) and Host are extra.
	ClientID   string `json:"client_id"`
	InstanceID string `json:"instance_id,omitempty"`
	Host       string `json:"host"`
	// Assignment is the coordinator's record of its last SyncGroup (extra):
	// what kafka-consumer-groups shows.
	Assignment []PartitionRef `json:"assignment"`
	// Idle says why it reads nothing (extra, omitted when it reads).
	Idle string `json:"idle,omitempty"`
	// MemberEpoch is a consumer-protocol member's epoch (extra, omitted for
	// classic members, as the four fields after it).
	MemberEpoch int32 `json:"member_epoch,omitempty"`
	// MemberState is where a consumer-protocol member is on its way to its
	// target assignment: STABLE, UNREVOKED_PARTITIONS (it must revoke
	// first) or UNRELEASED_PARTITIONS (it waits for partitions others
	// still own).
	MemberState string `json:"member_state,omitempty"`
	// Target is its target assignment, as the coordinator computed it.
	Target []PartitionRef `json:"target,omitempty"`
	// Pending are the target's partitions it does not own yet: another
	// member still owns them, they come once released.
	Pending []PartitionRef `json:"pending,omitempty"`
	// Revoking are the partitions it must give up before its next epoch.
	Revoking []PartitionRef `json:"revoking,omitempty"`
}

// PartitionRef names a partition.
type PartitionRef struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
}

// OffsetInfo is a group's committed offset of one partition and its lag.
type OffsetInfo struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	// Committed is the committed offset, -1 if none.
	Committed int64 `json:"committed"`
	// LogEndOffset is the HW of the partition's leader (the LOG-END-OFFSET
	// a read_uncommitted consumer sees), -1 when offline.
	LogEndOffset int64 `json:"log_end_offset"`
	// Lag is LogEndOffset − Committed, -1 when unknown.
	Lag int64 `json:"lag"`
	// Member is the member id assigned it by the coordinator (extra).
	Member string `json:"member,omitempty"`
}

// groupHost is the HOST column of every simulated consumer.
const groupHost = broker.GroupHost

// ownMemberHost reports whether a member whose coordinator knows it at
// host is one of the world's own consumers, described by its process: they
// have no connection, so the coordinator knows them at no host, or at
// groupHost once their requests or the group's records (which a new
// coordinator loads) carry it; an outside client is known at its
// connection's address.
func ownMemberHost(host string) bool { return host == "" || host == groupHost }

// groupInfos describes every group a consumer names or a coordinator
// hosts, sorted by name; with offsetsOnly also those known only by
// committed offsets, which takes reading the offsets partitions' logs.
func (w *World) groupInfos(offsetsOnly bool) []GroupInfo {
	var names []string
	for _, c := range w.consumers {
		if c.IsGroup() {
			names = append(names, c.Config().Group)
		}
	}
	for _, b := range w.brokers {
		if offsetsOnly {
			// a group only a client's commits made (assign and commit, or
			// a transaction's TxnOffsetCommit) is known by its offsets:
			// Empty, as ListGroups answers it, on the broker that leads
			// its offsets partition even before a request started that
			// broker's coordinator (Kafka's runs from the broker's start)
			names = append(names, b.OffsetsOnlyGroups(w.env())...)
		}
		if b.RunningCoordinator() != nil {
			for _, g := range b.RunningCoordinator().Groups() {
				if g.State != group.Dead { // deleted, gone at the coordinator's next tick
					names = append(names, g.GroupID)
				}
			}
		}
		if b.RunningConsumerGroups() != nil {
			for _, g := range b.RunningConsumerGroups().Groups() {
				names = append(names, g.GroupID)
			}
		}
	}
	slices.Sort(names)
	var out []GroupInfo
	for _, n := range slices.Compact(names) {
		out = append(out, w.groupInfo(n))
	}
	return out
}

func (w *World) groupInfo(name string) GroupInfo {
	gi := GroupInfo{Name: name, State: "Unknown", Coordinator: -1, Members: []MemberInfo{}, Offsets: []OffsetInfo{}, Protocol: membersProtocol(w.consumers, name).String()}
	b := w.coordinatorOf(name)
	if b == nil {
		return gi
	}
	gi.Coordinator, gi.State = b.ID(), group.Empty.String()
	if cg := b.RunningConsumerGroups(); cg != nil {
		if s, ok := cg.Group(name); ok {
			return w.consumerGroupInfo(gi, b, s)
		}
	}
	var st group.GroupStatus
	if b.RunningCoordinator() != nil {
		if s, ok := b.RunningCoordinator().Group(name); ok {
			st = s
			gi.State, gi.Generation, gi.Assignor, gi.Leader = s.State.String(), s.Generation, s.Protocol, s.Leader
			if s.Protocol != "" {
				gi.Protocol = s.RebalanceProtocol().String()
			}
		}
	}
	owner := map[partitionKey]string{}
	for _, m := range st.Members {
		mi := w.memberInfo(m)
		gi.Members = append(gi.Members, mi)
		for _, tp := range m.Assignment {
			owner[partitionKey(tp)] = m.MemberID
		}
	}
	gi.Offsets = w.offsetInfos(b, name, owner)
	return gi
}

// consumerGroupInfo completes gi for a consumer-protocol group s.
func (w *World) consumerGroupInfo(gi GroupInfo, b *broker.Broker, s group.ConsumerGroupStatus) GroupInfo {
	gi.State, gi.Generation, gi.Assignor, gi.Protocol = s.State.String(), s.GroupEpoch, s.AssignorName, group.Cooperative.String()
	gi.GroupProtocol, gi.AssignmentEpoch = GroupProtocolConsumer, s.AssignmentEpoch
	owner := map[partitionKey]string{}
	for _, m := range s.Members {
		gi.Members = append(gi.Members, w.consumerMemberInfo(m))
		for _, tp := range m.Assigned {
			owner[partitionKey(tp)] = m.MemberID
		}
	}
	gi.Offsets = w.offsetInfos(b, gi.Name, owner)
	return gi
}

// consumerMemberInfo describes a consumer-protocol member as its
// coordinator has it, and what its process reads.
func (w *World) consumerMemberInfo(m group.ConsumerMemberStatus) MemberInfo {
	mi := MemberInfo{ID: m.MemberID, ClientID: m.ClientID, InstanceID: m.InstanceID, Host: groupHost, Assignment: partitionRefs(m.Assigned),
		MemberEpoch: m.MemberEpoch, MemberState: m.State.String(), Target: partitionRefs(m.Target), Pending: partitionRefs(m.Pending),
		Revoking: partitionRefs(m.Revoking)}
	if !ownMemberHost(m.ClientHost) {
		mi.Host, mi.Partitions = m.ClientHost, mi.Assignment
		return mi
	}
	fillReads(&mi, w.consumer(m.ClientID), w.clock, w.cfg.ClockStartMs, m.MemberID, m.SessionDeadlineMs, func(idle string) string {
		if idle != "" && len(m.Assigned) == 0 && len(m.Pending) > 0 {
			// the member knows only what it may own; its coordinator knows the rest
			return fmt.Sprintf("epoch %d: waits for %v, which their owners give up first", m.MemberEpoch, m.Pending)
		}
		return idle
	})
	return mi
}

// membersProtocol is the protocol the group's consumers use.
func membersProtocol(consumers []*Consumer, name string) group.RebalanceProtocol {
	for _, c := range consumers {
		if c.IsGroup() && c.Config().Group == name {
			return c.Protocol()
		}
	}
	return group.Eager
}

func (w *World) memberInfo(m group.MemberStatus) MemberInfo {
	mi := MemberInfo{ID: m.MemberID, ClientID: m.ClientID, InstanceID: m.GroupInstanceID, Host: groupHost,
		Assignment: partitionRefs(m.Assignment)}
	if !ownMemberHost(m.ClientHost) {
		return externalMemberInfo(mi, m)
	}
	fillReads(&mi, w.consumer(m.ClientID), w.clock, w.cfg.ClockStartMs, m.MemberID, m.SessionDeadlineMs, func(idle string) string { return idle })
	return mi
}

// fillReads fills what member mi's process c reads at nowMs (Kafka's
// clock, which started at clockStartMs), and why it reads nothing: a
// process that is gone (crashed, or a new incarnation with another member
// id) reads nothing, its partitions wait at the coordinator until its
// session expires; a running one reads what it may fetch, idle saying why
// not (a busy application says so first). The times it names are the
// world's (t=, from 0).
func fillReads(mi *MemberInfo, c *Consumer, nowMs, clockStartMs int64, memberID string, sessionDeadlineMs int64, idle func(string) string) {
	if c == nil || !c.Running() || c.MemberID() != memberID {
		mi.Partitions = mi.Assignment
		mi.Idle = fmt.Sprintf("its process is gone: the coordinator keeps its partitions until its session expires (t=%d)", sessionDeadlineMs-clockStartMs)
		return
	}
	st := c.MemberStatus()
	mi.Partitions = partitionRefs(st.Fetchable)
	mi.Idle = idle(st.Idle)
	if nowMs < c.StalledUntil() {
		mi.Idle = fmt.Sprintf("busy processing until t=%d (no poll)", c.StalledUntil()-clockStartMs)
	}
}

func partitionRefs(tps []group.TopicPartition) []PartitionRef {
	out := make([]PartitionRef, len(tps))
	for i, tp := range tps {
		out[i] = PartitionRef{Topic: tp.Topic, Partition: tp.Partition}
	}
	return out
}

// offsetInfos lists the partitions the group committed or is assigned,
// with their lag.
func (w *World) offsetInfos(b *broker.Broker, name string, owner map[partitionKey]string) []OffsetInfo {
	store := b.Committed()
	tps := map[partitionKey]bool{}
	for _, tp := range store.CommittedPartitions(name) {
		tps[partitionKey(tp)] = true
	}
	for tp := range owner {
		tps[tp] = true
	}
	keys := make([]partitionKey, 0, len(tps))
	for tp := range tps {
		keys = append(keys, tp)
	}
	slices.SortFunc(keys, metadata.ComparePartitions)
	out := []OffsetInfo{}
	for _, tp := range keys {
		oi := OffsetInfo{Topic: tp.Topic, Partition: tp.Partition, Committed: -1, LogEndOffset: -1, Lag: -1, Member: owner[tp]}
		if po, ok := store.Committed(name, group.TopicPartition(tp)); ok {
			oi.Committed = po.Offset
		}
		if _, s := w.consumersLeader(tp); s != nil {
			oi.LogEndOffset = s.Node.Progress().HighWatermark
			if lag, ok := group.Lag(oi.LogEndOffset, oi.Committed); ok {
				oi.Lag = lag
			}
		}
		out = append(out, oi)
	}
	return out
}

// groupConsumerInfo describes a group consumer for [State].
func groupConsumerInfo(c *Consumer) ConsumerInfo {
	processed, duplicates := c.Processed()
	return ConsumerInfo{Name: c.Name(), ID: c.Name(), Group: c.Config().Group, Processed: processed, Duplicates: duplicates,
		MemberID: c.MemberID(), Status: c.Status()}
}

// MarshalJSON prints a simple consumer as {name, topic, partition,
// position, read} and a group consumer as {id, group, processed,
// duplicates, member_id, status}.
func (c ConsumerInfo) MarshalJSON() ([]byte, error) {
	if c.Group == "" {
		type simple struct {
			Name      string `json:"name"`
			Topic     string `json:"topic"`
			Partition int32  `json:"partition"`
			Position  int64  `json:"position"`
			Read      int    `json:"read"`
		}
		return json.Marshal(simple{c.Name, c.Topic, c.Partition, c.Position, c.Read})
	}
	type member struct {
		ID         string `json:"id"`
		Group      string `json:"group"`
		Processed  int    `json:"processed"`
		Duplicates int    `json:"duplicates"`
		MemberID   string `json:"member_id"`
		Status     string `json:"status"`
	}
	return json.Marshal(member{c.ID, c.Group, c.Processed, c.Duplicates, c.MemberID, c.Status})
}

// externalMemberInfo completes mi, a member that joined from outside the
// world: its host is the client's address, and it reads what the
// coordinator assigned it (whether it fetches is the client's business).
func externalMemberInfo(mi MemberInfo, m group.MemberStatus) MemberInfo {
	mi.Host = m.ClientHost
	mi.Partitions = mi.Assignment
	if m.AwaitingJoin || m.AwaitingSync {
		mi.Idle = "an external client, rebalancing"
	}
	return mi
}
