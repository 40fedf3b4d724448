package broker

import (
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/group"
)

// The consumer protocol's bytes (Kafka's ConsumerProtocol): what a
// consumer of the "consumer" protocol type puts in its JoinGroup (its
// subscription) and its group's leader in the SyncGroup (each member's
// assignment), translated to and from what the world's members and
// assignors speak.

// decodeSubscription reads a consumer's ConsumerProtocolSubscription for
// assignor name into the subscription the world's assignors read. The
// eager sticky assignor's previous assignment travels in the user data
// (StickyAssignorUserData, kmsg's StickyMemberMetadata) when the owned
// partitions are empty, as Kafka's StickyAssignor reads it. Bytes that do
// not parse subscribe to nothing.
func decodeSubscription(name string, meta []byte) group.Subscription {
	s := group.Subscription{Generation: -1}
	m := kmsg.NewConsumerMemberMetadata()
	if err := m.ReadFrom(meta); err != nil {
		return s
	}
	s.Topics = slices.Clone(m.Topics)
	for _, o := range m.OwnedPartitions {
		for _, p := range o.Partitions {
			s.OwnedPartitions = append(s.OwnedPartitions, group.TopicPartition{Topic: o.Topic, Partition: p})
		}
	}
	if m.Version >= 2 {
		s.Generation = m.Generation
	}
	if name == "sticky" && len(s.OwnedPartitions) == 0 && len(m.UserData) > 0 {
		ud := kmsg.NewStickyMemberMetadata()
		if err := ud.ReadFrom(m.UserData); err == nil {
			for _, a := range ud.CurrentAssignment {
				for _, p := range a.Partitions {
					s.OwnedPartitions = append(s.OwnedPartitions, group.TopicPartition{Topic: a.Topic, Partition: p})
				}
			}
			if s.Generation < 0 {
				s.Generation = ud.Generation
			}
		}
	}
	return s
}

// encodeSubscription writes a world member's subscription as Kafka 3.7's
// consumer sends it (ConsumerProtocolSubscription v3), with the sticky
// assignors' user data (the previous assignment and its generation,
// StickyAssignorUserData as franz-go sends it too) for an external leader.
func encodeSubscription(name string, s group.Subscription) []byte {
	m := kmsg.NewConsumerMemberMetadata()
	m.Version = 3
	m.Topics = slices.Clone(s.Topics)
	if m.Topics == nil {
		m.Topics = []string{}
	}
	m.Generation = s.Generation
	ud := kmsg.NewStickyMemberMetadata()
	ud.Generation = s.Generation
	for _, tp := range group.SortedPartitions(s.OwnedPartitions) {
		if n := len(m.OwnedPartitions); n == 0 || m.OwnedPartitions[n-1].Topic != tp.Topic {
			o := kmsg.NewConsumerMemberMetadataOwnedPartition()
			o.Topic = tp.Topic
			m.OwnedPartitions = append(m.OwnedPartitions, o)
			a := kmsg.NewStickyMemberMetadataCurrentAssignment()
			a.Topic = tp.Topic
			ud.CurrentAssignment = append(ud.CurrentAssignment, a)
		}
		o := &m.OwnedPartitions[len(m.OwnedPartitions)-1]
		o.Partitions = append(o.Partitions, tp.Partition)
		a := &ud.CurrentAssignment[len(ud.CurrentAssignment)-1]
		a.Partitions = append(a.Partitions, tp.Partition)
	}
	if name == "sticky" || name == "cooperative-sticky" {
		m.UserData = ud.AppendTo(nil)
	}
	return m.AppendTo(nil)
}

// decodeAssignment reads a ConsumerProtocolAssignment into partitions, in
// its order; bytes that do not parse assign nothing.
func decodeAssignment(data []byte) []group.TopicPartition {
	a := kmsg.NewConsumerMemberAssignment()
	if err := a.ReadFrom(data); err != nil {
		return nil
	}
	var out []group.TopicPartition
	for _, t := range a.Topics {
		for _, p := range t.Partitions {
			out = append(out, group.TopicPartition{Topic: t.Topic, Partition: p})
		}
	}
	return out
}

// encodeAssignment writes partitions as a ConsumerProtocolAssignment
// (version 3, the layout of every version, as Kafka 3.7's consumer
// writes it), topics in the order they first appear.
func encodeAssignment(tps []group.TopicPartition) []byte {
	a := kmsg.NewConsumerMemberAssignment()
	a.Version = 3
	a.Topics = []kmsg.ConsumerMemberAssignmentTopic{}
	for _, tp := range tps {
		i := slices.IndexFunc(a.Topics, func(t kmsg.ConsumerMemberAssignmentTopic) bool { return t.Topic == tp.Topic })
		if i < 0 {
			t := kmsg.NewConsumerMemberAssignmentTopic()
			t.Topic = tp.Topic
			a.Topics = append(a.Topics, t)
			i = len(a.Topics) - 1
		}
		a.Topics[i].Partitions = append(a.Topics[i].Partitions, tp.Partition)
	}
	return a.AppendTo(nil)
}
