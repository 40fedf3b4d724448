package groupkit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/internal/kit"
	"pgregory.net/rapid"
)

// memberNames are the ids members join with, in no useful order.
var memberNames = []string{"m-kiwi", "m-fig", "m-apple", "m-plum", "m-date", "m-lime", "m-pear", "m-cherry"}

// groupMachine is one consumer group under the cooperative protocol.
type groupMachine struct {
	a          CooperativeSticky
	topics     []group.TopicMetadata
	members    []string // in the order they joined
	owned      map[string][]group.TopicPartition
	generation int
	steps      []string
	replay     string
}

func cooperativeProperties(a CooperativeSticky, replay string) func(*rapid.T) {
	return func(t *rapid.T) {
		m := &groupMachine{a: a, replay: replay, owned: map[string][]group.TopicPartition{}}
		for i := range rapid.IntRange(1, 2).Draw(t, "topics") {
			m.topics = append(m.topics, topic([]string{"orders", "payments"}[i], rapid.Int32Range(1, 8).Draw(t, "partitions")))
		}
		for _, tm := range m.topics {
			m.step("topic %s has %d partition(s)", tm.Topic, tm.Partitions)
		}
		for range rapid.IntRange(1, 3).Draw(t, "firstMembers") {
			m.join(t)
		}
		m.rebalance(t)
		t.Repeat(map[string]func(*rapid.T){
			"join":          func(t *rapid.T) { m.join(t); m.rebalance(t) },
			"leaveOrCrash":  func(t *rapid.T) { m.leave(t); m.rebalance(t) },
			"addPartitions": func(t *rapid.T) { m.addPartitions(t); m.rebalance(t) },
			"":              func(*rapid.T) {},
		})
	}
}

func (m *groupMachine) step(format string, args ...any) {
	m.steps = append(m.steps, fmt.Sprintf(format, args...))
}

func (m *groupMachine) join(t *rapid.T) {
	var free []string
	for _, n := range memberNames {
		if !slices.Contains(m.members, n) {
			free = append(free, n)
		}
	}
	if len(free) == 0 || len(m.members) >= 6 {
		return
	}
	id := rapid.SampledFrom(free).Draw(t, "joiningMember")
	m.members = append(m.members, id)
	m.step("%s joins", id)
}

// leave removes a member: a LeaveGroup (clean close) or an expired session
// (crash) look the same to the assignor: its partitions are owned by nobody.
func (m *groupMachine) leave(t *rapid.T) {
	if len(m.members) == 0 {
		return
	}
	id := rapid.SampledFrom(m.members).Draw(t, "leavingMember")
	m.step("%s leaves (or its session expires): %s owned by nobody now", id, group.FormatPartitions(m.owned[id]))
	m.members = slices.DeleteFunc(m.members, func(s string) bool { return s == id })
	delete(m.owned, id)
}

func (m *groupMachine) addPartitions(t *rapid.T) {
	i := rapid.IntRange(0, len(m.topics)-1).Draw(t, "grownTopic")
	m.topics[i].Partitions += rapid.Int32Range(1, 3).Draw(t, "newPartitions")
	m.step("%s grows to %d partitions", m.topics[i].Topic, m.topics[i].Partitions)
}

func (m *groupMachine) input() roundInput {
	in := roundInput{topics: slices.Clone(m.topics)}
	for _, id := range m.members {
		in.members = append(in.members, Member{MemberID: id, OwnedPartitions: slices.Clone(m.owned[id])})
	}
	return in
}

// rebalance runs a round, and the follow-up round when someone revoked.
func (m *groupMachine) rebalance(t *rapid.T) {
	if m.round(t) {
		if m.round(t) {
			m.fail(t, roundInputFailure(m.input(), "the follow-up rebalance must settle the group: every partition free after the first round goes to its new owner, and nobody gives anything up again."))
		}
	}
}

// round runs one rebalance, applies it, and reports whether any member gave
// up a partition (which makes it rejoin at once).
func (m *groupMachine) round(t *rapid.T) bool {
	in := m.input()
	got, f := roundCase(m.a, in)
	m.generation++
	if f != nil {
		m.fail(t, f)
	}
	revoked := false
	var lines []string
	for _, id := range m.members {
		gave := difference(m.owned[id], got[id])
		revoked = revoked || len(gave) > 0
		lines = append(lines, fmt.Sprintf("%s %s (revokes %s)", id, group.FormatPartitions(got[id]), group.FormatPartitions(gave)))
		m.owned[id] = got[id]
	}
	m.step("rebalance, generation %d: %s", m.generation, strings.Join(lines, ", "))
	return revoked
}

func difference(a, b []group.TopicPartition) []group.TopicPartition {
	out := []group.TopicPartition{}
	for _, tp := range a {
		if !slices.Contains(b, tp) {
			out = append(out, tp)
		}
	}
	return out
}

func (m *groupMachine) fail(t *rapid.T, f *kit.Failure) {
	f.Details = append(f.Details, "steps that led here (shrunk by rapid):\n  "+strings.Join(m.steps, "\n  "))
	f.Replay = m.replay
	kit.Fatal(t, f)
}

func roundInputFailure(in roundInput, what string) *kit.Failure {
	return &kit.Failure{Rule: ruleG5, What: what, Details: []string{describeRound(in, nil)}}
}
