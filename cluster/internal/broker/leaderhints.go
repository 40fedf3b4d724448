package broker

import (
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/replica"
)

// Versions from which a Produce and a Fetch answer carry KIP-951's leader
// hints (Kafka 3.7+).
const (
	produceLeaderHintsVersion = 10
	fetchLeaderHintsVersion   = 16
)

// leaderHint is KIP-951's hint for a partition a client asked broker b
// about and b does not lead, as Kafka 3.7's KafkaApis.getCurrentLeader
// gives it: the leader and leader epoch b's own replica knows, else (no
// replica here) the metadata's, -1 and -1 when neither knows one; ok says
// whether that leader is alive, when its endpoint goes in the answer's
// NodeEndpoints (the wire layer fills in its host and port from its
// listener).
func leaderHint(env APIEnv, b *Broker, k tp) (leader, epoch int32, ok bool) {
	leader, epoch = -1, -1
	if s := b.Partition(k); s != nil {
		st := s.Node.Status()
		leader, epoch = st.LeaderID, st.LeaderEpoch
	} else if st, found := env.Partition(k); found {
		leader, epoch = st.Leader, st.LeaderEpoch
	}
	if leader == replica.NoLeader {
		leader = -1
	}
	return leader, epoch, leader >= 0 && slices.Contains(env.Alive(), leader)
}

// addProduceLeaderHints fills in KIP-951's CurrentLeader of every partition
// answered NOT_LEADER_OR_FOLLOWER, and the NodeEndpoints of those leaders
// (KafkaApis.handleProduceRequest, Produce v10+).
func addProduceLeaderHints(env APIEnv, b *Broker, resp *kmsg.ProduceResponse) {
	var nodes []int32
	for ti := range resp.Topics {
		t := &resp.Topics[ti]
		for pi := range t.Partitions {
			p := &t.Partitions[pi]
			if p.ErrorCode != kafkaerr.NotLeaderOrFollower {
				continue
			}
			leader, epoch, alive := leaderHint(env, b, tp{Topic: t.Topic, Partition: p.Partition})
			p.CurrentLeader.LeaderID, p.CurrentLeader.LeaderEpoch = leader, epoch
			if alive && !slices.Contains(nodes, leader) {
				nodes = append(nodes, leader)
			}
		}
	}
	slices.Sort(nodes)
	for _, id := range nodes {
		resp.Brokers = append(resp.Brokers, kmsg.ProduceResponseBroker{NodeID: id})
	}
}

// addFetchLeaderHints is addProduceLeaderHints for a consumer's Fetch
// (v16+), whose hints also go with FENCED_LEADER_EPOCH
// (KafkaApis.handleFetchRequest).
func addFetchLeaderHints(env APIEnv, b *Broker, resp *kmsg.FetchResponse) {
	var nodes []int32
	for ti := range resp.Topics {
		t := &resp.Topics[ti]
		for pi := range t.Partitions {
			p := &t.Partitions[pi]
			if p.ErrorCode != kafkaerr.NotLeaderOrFollower && p.ErrorCode != int16(replica.FencedLeaderEpoch) {
				continue
			}
			leader, epoch, alive := leaderHint(env, b, tp{Topic: t.Topic, Partition: p.Partition})
			p.CurrentLeader.LeaderID, p.CurrentLeader.LeaderEpoch = leader, epoch
			if alive && !slices.Contains(nodes, leader) {
				nodes = append(nodes, leader)
			}
		}
	}
	slices.Sort(nodes)
	for _, id := range nodes {
		resp.Brokers = append(resp.Brokers, kmsg.FetchResponseBroker{NodeID: id})
	}
}
