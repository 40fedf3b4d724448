package broker

import "github.com/twmb/franz-go/pkg/kmsg"

// listPartitionReassignments answers ListPartitionReassignments (v0),
// which a broker forwards to the controller, as Kafka 3.9's
// ReplicationControlManager.listPartitionReassignments does: the
// partitions being reassigned, of every topic (a null list) or of the
// topics named. The simulated cluster has no reassignments (no
// AlterPartitionAssignments: a partition's replicas are those it was
// created with), so the list is always empty, with no error, as Kafka's
// is while nothing moves.
func (b *Broker) listPartitionReassignments(req *kmsg.ListPartitionReassignmentsRequest) *kmsg.ListPartitionReassignmentsResponse {
	resp := kmsg.NewPtrListPartitionReassignmentsResponse()
	resp.Topics = []kmsg.ListPartitionReassignmentsResponseTopic{}
	return resp
}
