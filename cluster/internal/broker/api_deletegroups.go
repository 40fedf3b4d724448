package broker

import (
	"fmt"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
)

// deleteGroups answers DeleteGroups (v0-2) at b as Kafka 3.7's
// GroupCoordinator.handleDeleteGroups does, for each group named (once,
// KafkaApis takes them distinct): NOT_COORDINATOR unless b coordinates it;
// GROUP_ID_NOT_FOUND for a group it does not know, or already deleted;
// NON_EMPTY_GROUP for one with members; an Empty group (or one that only
// stores offsets) becomes Dead and tombstones for its committed offsets go
// to its __consumer_offsets partition (group.Coordinator.DeleteGroup). The
// empty group id is a group like any other here, as Kafka allows it.
func (b *Broker) deleteGroups(env Env, x *Request, r *kmsg.DeleteGroupsRequest) *kmsg.DeleteGroupsResponse {
	resp := r.ResponseKind().(*kmsg.DeleteGroupsResponse)
	seen := map[string]bool{}
	for _, name := range r.Groups {
		if seen[name] {
			continue
		}
		seen[name] = true
		g := kmsg.NewDeleteGroupsResponseGroup()
		g.Group = name
		if !b.Coordinates(env, name) {
			g.ErrorCode = kafkaerr.NotCoordinator
			resp.Groups = append(resp.Groups, g)
			continue
		}
		g.ErrorCode = int16(b.DeleteGroup(env, name, fmt.Sprintf("external client %d (%s)", x.Client, x.ClientID)))
		resp.Groups = append(resp.Groups, g)
	}
	return resp
}
