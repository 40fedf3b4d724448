package client

import (
	"encoding/base64"
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/group"
)

// A group consumer speaks one of two group protocols (group.protocol):
// "classic", JoinGroup and SyncGroup with a leader that assigns
// ([group.Member]), or "consumer", KIP-848's heartbeats, the coordinator
// assigning ([group.ConsumerMember]). The consumer drives either through
// groupMember: both hand out the same Ready (requests, partitions to
// revoke, assigned, lost), so that fetching, committing and revoking are
// the consumer's whatever the protocol.

// The group protocols ([ConsumerConfig.GroupProtocol]).
const (
	// ProtocolClassic is group.protocol=classic: the default of Kafka 4's
	// Java consumer too (KIP-848's protocol is opt-in on the client side),
	// so the world's consumers keep it unless asked.
	ProtocolClassic = "classic"
	// ProtocolConsumer is group.protocol=consumer (KIP-848).
	ProtocolConsumer = "consumer"
)

// groupMember is a consumer's side of its group protocol.
type groupMember interface {
	Tick(nowMs int64)
	Poll(nowMs int64)
	Step(group.Response) error
	HasReady() bool
	Ready() group.MemberReady
	Revoked(commits []group.PartitionOffset)
	Commit(offsets []group.PartitionOffset)
	FetchCommitted(tps []group.TopicPartition)
	Fetchable() []group.TopicPartition
	Owned() []group.TopicPartition
	SetMetadata(topics []group.TopicMetadata)
	Close()
	State() group.MemberState
	MemberID() string
	Protocol() group.RebalanceProtocol
	Status() group.ConsumerStatus
}

// checkGroupProtocol checks group.protocol and group.remote.assignor; the
// classic protocol's settings are the client's own
// (partition.assignment.strategy), the consumer protocol's assignor the
// coordinator's.
func checkGroupProtocol(c ConsumerConfig) error {
	switch c.GroupProtocol {
	case ProtocolClassic:
		if c.RemoteAssignor != "" {
			return fmt.Errorf("%w: consumer %q: group.remote.assignor needs group.protocol=consumer", metadata.ErrInvalidConfig, c.Name)
		}
		_, err := c.memberConfig()
		return err
	case ProtocolConsumer:
		if c.RemoteAssignor != "" && group.ServerAssignors()[c.RemoteAssignor] == nil {
			return fmt.Errorf("%w: consumer %q: group.remote.assignor %q (uniform, range)", metadata.ErrInvalidConfig, c.Name, c.RemoteAssignor)
		}
		return nil
	}
	return fmt.Errorf("%w: consumer %q: group.protocol %q (classic, consumer)", metadata.ErrInvalidConfig, c.Name, c.GroupProtocol)
}

// newConsumerProtocolMember starts a KIP-848 member with a member id of its
// own, a Kafka Uuid drawn from the world's random generator (Kafka 4's
// consumer makes one at its start, KIP-1082).
func newConsumerProtocolMember(env Env, c ConsumerConfig) (*group.ConsumerMember, error) {
	mc := group.DefaultConsumerMemberConfig(c.Group, c.Name, newMemberUUID(env), slices.Clone(c.Topics))
	mc.GroupInstanceID, mc.ServerAssignor = c.GroupInstanceID, c.RemoteAssignor
	if c.MaxPollIntervalMs > 0 {
		mc.MaxPollIntervalMs = c.MaxPollIntervalMs
	}
	return group.NewConsumerMember(mc, env.Now())
}

// newMemberUUID is a random Kafka Uuid as Uuid.toString prints it: 16
// bytes in URL-safe base64 without padding, never starting with '-'.
func newMemberUUID(env Env) string {
	for {
		var b [16]byte
		for i := range b {
			b[i] = byte(env.Rand().IntN(256))
		}
		if s := base64.RawURLEncoding.EncodeToString(b[:]); s[0] != '-' {
			return s
		}
	}
}

// cloneMember copies a group member for a copy of its world (assignors:
// the classic member's, see group.Member.Clone).
func cloneMember(m groupMember, assignors []group.Assignor) (groupMember, error) {
	switch m := m.(type) {
	case *group.Member:
		return m.Clone(assignors)
	case *group.ConsumerMember:
		return m.Clone(), nil
	}
	return nil, fmt.Errorf("%w: a group member of type %T", metadata.ErrInvalidConfig, m)
}
