package cooperative

import (
	"testing"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/group/groupkit"
	"github.com/kafkalive/kafkalive/solutions/bank"
)

func TestCooperativeSticky(t *testing.T) {
	groupkit.TestCooperativeSticky(t, groupkit.CooperativeSticky{Assign: assign}, bank.Cooperative()...)
}

// assign calls Assign with the suite's types.
func assign(members []groupkit.Member, topics []group.TopicMetadata) group.Assignment {
	var ms []Member
	for _, m := range members {
		var owned []TopicPartition
		for _, tp := range m.OwnedPartitions {
			owned = append(owned, TopicPartition(tp))
		}
		ms = append(ms, Member{MemberID: m.MemberID, OwnedPartitions: owned})
	}
	var ts []TopicMetadata
	for _, t := range topics {
		ts = append(ts, TopicMetadata{Topic: t.Topic, Partitions: t.Partitions})
	}
	got := Assign(ms, ts)
	if got == nil {
		return nil
	}
	out := group.Assignment{}
	for id, tps := range got {
		out[id] = []group.TopicPartition{}
		for _, tp := range tps {
			out[id] = append(out[id], group.TopicPartition(tp))
		}
	}
	return out
}
