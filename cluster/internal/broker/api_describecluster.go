package broker

import (
	"fmt"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
)

// DescribeCluster's endpoint types (KIP-919): a broker describes brokers.
const (
	endpointBroker     int8 = 1
	endpointController int8 = 2
)

// clusterOperations is the cluster's authorized operations without an
// authorizer: every operation a cluster resource supports (AclEntry's
// supportedOperations(CLUSTER): CREATE 5, ALTER 7, DESCRIBE 8,
// CLUSTER_ACTION 9, DESCRIBE_CONFIGS 10, ALTER_CONFIGS 11,
// IDEMPOTENT_WRITE 12), one bit per operation code (Utils.to32BitField).
const clusterOperations int32 = 1<<5 | 1<<7 | 1<<8 | 1<<9 | 1<<10 | 1<<11 | 1<<12

// describeCluster answers DescribeCluster (v0-2) as a Kafka 4.0 broker
// does (KafkaApis.handleDescribeCluster, AuthHelper.computeDescribeClusterResponse;
// KIP-700, KIP-919, KIP-1073): an endpoint type other than brokers is
// refused (INVALID_REQUEST at v0; MISMATCHED_ENDPOINT_TYPE for
// controllers, UNSUPPORTED_ENDPOINT_TYPE for an unknown one), else the
// cluster id, the alive brokers with their racks (and, when v2 asks, the
// fenced ones, marked), a controller id (Kafka's KRaft broker names a
// random alive broker; here the lowest, as Metadata does, so that replays
// agree) and, when asked, the cluster's authorized operations (all of
// them: no authorizer). The brokers' Host and Port are left to the wire
// layer, as in Metadata.
func (b *Broker) describeCluster(env APIEnv, req *kmsg.DescribeClusterRequest) *kmsg.DescribeClusterResponse {
	resp := kmsg.NewPtrDescribeClusterResponse()
	resp.EndpointType = endpointBroker
	if t := req.EndpointType; req.Version >= 1 && t != endpointBroker {
		resp.ErrorCode = kafkaerr.UnsupportedEndpointType
		msg := fmt.Sprintf("Unsupported endpoint type %d", t)
		if t == endpointController {
			resp.ErrorCode = kafkaerr.MismatchedEndpointType
			msg = "The request was sent to an endpoint of type BROKER, but we wanted an endpoint of type CONTROLLER"
		}
		resp.ErrorMessage = &msg
		return resp
	}
	alive := env.Alive()
	ids := alive
	if req.IncludeFencedBrokers {
		ids = slices.Sorted(slices.Values(append(slices.Clone(alive), env.Fenced()...)))
	}
	for _, id := range ids {
		br := kmsg.NewDescribeClusterResponseBroker()
		br.NodeID, br.Rack, br.IsFenced = id, b.rackOf(id), !slices.Contains(alive, id)
		resp.Brokers = append(resp.Brokers, br)
	}
	resp.ClusterID = b.cfg.ClusterID
	resp.ControllerID = -1
	if len(alive) > 0 {
		resp.ControllerID = alive[0]
	}
	if req.IncludeClusterAuthorizedOperations {
		resp.ClusterAuthorizedOperations = clusterOperations
	}
	return resp
}

// rackOf is broker id's broker.rack as the metadata knows it, nil if none.
func (b *Broker) rackOf(id int32) *string {
	if id < 1 || int(id) > len(b.cfg.Racks) || b.cfg.Racks[id-1] == "" {
		return nil
	}
	r := b.cfg.Racks[id-1]
	return &r
}
