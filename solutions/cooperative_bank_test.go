package solutions

import (
	"testing"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/group/groupkit"
	"github.com/kafkalive/kafkalive/solutions/ch06/cooperative"
	"github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/doubleassigns"
	"github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/flooronly"
	"github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/forgetsnewmembers"
	"github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/freezesonrevoke"
	"github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/handsoutrevoked"
	"github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/ignoresowned"
	"github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/inputorder"
	"github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/keepsdeleted"
	"github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/keepseverything"
	"github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/maxforall"
	"github.com/kafkalive/kafkalive/solutions/ch06/cooperative/mutants/revokeseverything"
)

type cooperativeFunc = func([]cooperative.Member, []cooperative.TopicMetadata) cooperative.Assignment

// cooperativeAdapter calls f with the solution's types, as the exercise's
// test file does.
func cooperativeAdapter(f cooperativeFunc) groupkit.CooperativeSticky {
	return groupkit.CooperativeSticky{Assign: func(members []groupkit.Member, topics []group.TopicMetadata) group.Assignment {
		var ms []cooperative.Member
		for _, m := range members {
			var owned []cooperative.TopicPartition
			for _, tp := range m.OwnedPartitions {
				owned = append(owned, cooperative.TopicPartition(tp))
			}
			ms = append(ms, cooperative.Member{MemberID: m.MemberID, OwnedPartitions: owned})
		}
		var ts []cooperative.TopicMetadata
		for _, t := range topics {
			ts = append(ts, cooperative.TopicMetadata(t))
		}
		got := f(ms, ts)
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
	}}
}

func cooperativeSubject(name string, f cooperativeFunc) subject {
	a := cooperativeAdapter(f)
	return subject{name: name, check: func() error { return groupkit.CheckCooperativeSticky(a) }, props: groupkit.CooperativeStickyProperties(a)}
}

func cooperativeBank() bank {
	stub := func([]cooperative.Member, []cooperative.TopicMetadata) cooperative.Assignment { panic(stubTODO{}) }
	return bank{
		exercise: "ch06/cooperative",
		solution: cooperativeSubject("solution", cooperative.Assign),
		stub:     cooperativeSubject("stub", stub),
		stubTest: func(t *testing.T) { groupkit.TestCooperativeSticky(t, cooperativeAdapter(stub)) },
		mutants:  cooperativeMutantSubjects(),
	}
}

// cooperativeMutants are the bank's mistakes, by name.
var cooperativeMutants = []struct {
	name string
	f    cooperativeFunc
}{
	{"doubleassigns", doubleassigns.Assign},
	{"flooronly", flooronly.Assign},
	{"forgetsnewmembers", forgetsnewmembers.Assign},
	{"handsoutrevoked", handsoutrevoked.Assign},
	{"ignoresowned", ignoresowned.Assign},
	{"inputorder", inputorder.Assign},
	{"keepseverything", keepseverything.Assign},
	{"maxforall", maxforall.Assign},
	{"revokeseverything", revokeseverything.Assign},
	{"freezesonrevoke", freezesonrevoke.Assign},
	{"keepsdeleted", keepsdeleted.Assign},
}

func cooperativeMutantSubjects() []subject {
	var out []subject
	for _, m := range cooperativeMutants {
		out = append(out, cooperativeSubject(m.name, m.f))
	}
	return out
}
