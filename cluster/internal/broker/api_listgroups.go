package broker

import (
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/group"
)

// listGroups lists the groups b coordinates now, with the states filter
// of v4+ (KIP-518) and the types filter of v5+ (KIP-848; both
// case-insensitive, as Kafka's GroupMetadataManager.listGroups): the
// classic groups its coordinator hosts and those that only store offsets
// in the __consumer_offsets partitions it leads (type "classic"), and its
// consumer-protocol groups (type "consumer", protocol type "consumer").
func (b *Broker) listGroups(env Env, r *kmsg.ListGroupsRequest) *kmsg.ListGroupsResponse {
	resp := r.ResponseKind().(*kmsg.ListGroupsResponse)
	type entry struct{ state, protocolType, groupType string }
	groups := map[string]entry{}
	for _, name := range b.offsetsOnlyGroups(env) {
		groups[name] = entry{state: group.Empty.String(), groupType: "classic"}
	}
	if b.RunningCoordinator() != nil {
		for _, g := range b.RunningCoordinator().Groups() {
			if g.State != group.Dead && b.Coordinates(env, g.GroupID) {
				groups[g.GroupID] = entry{g.State.String(), g.ProtocolType, "classic"}
			}
		}
	}
	if b.RunningConsumerGroups() != nil {
		for _, g := range b.RunningConsumerGroups().Groups() {
			if b.Coordinates(env, g.GroupID) {
				groups[g.GroupID] = entry{g.State.String(), consumerProtocolType, "consumer"}
			}
		}
	}
	names := make([]string, 0, len(groups))
	for n := range groups {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		e := groups[n]
		if len(r.StatesFilter) > 0 && !slices.ContainsFunc(r.StatesFilter, func(s string) bool { return strings.EqualFold(s, e.state) }) {
			continue
		}
		if r.Version >= 5 && len(r.TypesFilter) > 0 && !slices.ContainsFunc(r.TypesFilter, func(t string) bool { return strings.EqualFold(t, e.groupType) }) {
			continue
		}
		lg := kmsg.NewListGroupsResponseGroup()
		lg.Group, lg.ProtocolType = n, e.protocolType
		if r.Version >= 4 {
			lg.GroupState = e.state
		}
		if r.Version >= 5 {
			lg.GroupType = e.groupType
		}
		resp.Groups = append(resp.Groups, lg)
	}
	return resp
}

// offsetsOnlyGroups lists the groups with committed offsets in the
// __consumer_offsets partitions b leads (as [Broker.Coordinates] has it:
// its running process's replica is the leader), sorted. It asks nothing
// of b's coordinator, which starts only at its first request: Kafka's
// runs from the broker's start and loads every group of a partition it
// becomes the leader of (GroupMetadataManager.loadGroupsAndOffsets), its
// transactional offsets with them once their transaction committed.
func (b *Broker) offsetsOnlyGroups(env Env) []string {
	t := topicNamed(env, metadata.OffsetsTopic)
	if t == nil || b.state != BrokerRunning {
		return nil
	}
	var out []string
	for p := range t.Assignment {
		k := tp{Topic: metadata.OffsetsTopic, Partition: int32(p)}
		if !b.leads(env, k) {
			continue
		}
		s := b.replicas[k]
		// one pass over the partition, not one a group
		for g := range StoredIn(s.Log, s.Node.Progress().HighWatermark) {
			out = append(out, g)
		}
	}
	slices.Sort(out)
	return out
}
