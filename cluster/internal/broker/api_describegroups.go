package broker

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/group"
)

// GroupHost is the HOST column of every simulated consumer (an outside
// client's is its address).
const GroupHost = "/10.0.0.100"

// describeGroups describes the groups b coordinates
// (GroupCoordinator.handleDescribeGroup, 3.7): a group b does not know is
// Dead with no error; the members' metadata and assignments only in a
// Stable group (GroupMetadata.summary); NOT_COORDINATOR for a group of
// another coordinator.
func (b *Broker) describeGroups(env Env, r *kmsg.DescribeGroupsRequest) *kmsg.DescribeGroupsResponse {
	resp := r.ResponseKind().(*kmsg.DescribeGroupsResponse)
	stored := b.storedGroups()
	for _, name := range r.Groups {
		d := kmsg.NewDescribeGroupsResponseGroup()
		d.Group = name
		d.AuthorizedOperations = -2147483648 // not asked for (Integer.MIN_VALUE)
		if !b.Coordinates(env, name) {
			d.ErrorCode = kafkaerr.NotCoordinator
			resp.Groups = append(resp.Groups, d)
			continue
		}
		d.State = group.Dead.String()
		var st group.GroupStatus
		ok := false
		if b.RunningCoordinator() != nil {
			st, ok = b.RunningCoordinator().Group(name)
		}
		switch {
		case ok:
			d.State, d.ProtocolType = st.State.String(), st.ProtocolType
		case stored(name):
			d.State = group.Empty.String() // a group that only stores offsets
		}
		stable := ok && st.State == group.Stable
		if stable {
			d.Protocol = st.Protocol
		}
		for _, m := range st.Members {
			dm := kmsg.NewDescribeGroupsResponseGroupMember()
			dm.MemberID, dm.ClientID, dm.ClientHost = m.MemberID, m.ClientID, m.ClientHost
			if dm.ClientHost == "" {
				dm.ClientHost = GroupHost
			}
			if m.GroupInstanceID != "" {
				dm.InstanceID = ptr(m.GroupInstanceID)
			}
			dm.ProtocolMetadata, dm.MemberAssignment = []byte{}, []byte{}
			if stable {
				dm.ProtocolMetadata = m.Protocol.Metadata
				if dm.ProtocolMetadata == nil {
					dm.ProtocolMetadata = encodeSubscription(st.Protocol, m.Protocol.Subscription)
				}
				dm.MemberAssignment = m.AssignmentData
				if dm.MemberAssignment == nil {
					dm.MemberAssignment = encodeAssignment(m.Assignment)
				}
			}
			d.Members = append(d.Members, dm)
		}
		resp.Groups = append(resp.Groups, d)
	}
	return resp
}

// storedGroups returns a test of whether a group has committed offsets in
// b's replica of its __consumer_offsets partition, which reads each
// partition once, when first asked (a request may name thousands of
// groups).
func (b *Broker) storedGroups() func(group string) bool {
	byPartition := map[tp]map[string]bool{}
	return func(name string) bool {
		k := metadata.OffsetsPartition(name, b.cfg.OffsetsTopicNumPartitions)
		groups, ok := byPartition[k]
		if !ok {
			if s := b.Partition(k); s != nil {
				groups = StoredIn(s.Log, s.Node.Progress().HighWatermark)
			}
			byPartition[k] = groups
		}
		return groups[name]
	}
}
