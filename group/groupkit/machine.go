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

// groupMachine is one consumer group under the cooperative protocol. Members
// join, leave or crash, topics grow, appear and are deleted, and the group
// rebalances one round at a time; several of these can happen before the
// group settles, between two rounds or between a round and its follow-up,
// as they do in a real group (a member that joins while others are still
// revoking, a crash in the middle of a rebalance).
type groupMachine struct {
	a          cooperativeSubject
	topics     []group.TopicMetadata
	members    []string // in the order they joined
	owned      map[string][]group.TopicPartition
	generation int
	// changed is true when something happened since the last round;
	// revoking is true when the last round made a member give up partitions
	// (it rejoins at once: the follow-up rebalance).
	changed, revoking bool
	steps             []func() string // formatted only for a failure
	replay            string
}

// topicNames are the topics the group subscribes to (a pattern subscription:
// a topic created later joins it).
var topicNames = []string{"orders", "payments", "refunds"}

func cooperativeProperties(a cooperativeSubject, replay string) func(*rapid.T) {
	return func(t *rapid.T) {
		m := &groupMachine{a: a, replay: replay, owned: map[string][]group.TopicPartition{}}
		for i := range rapid.IntRange(1, 2).Draw(t, "topics") {
			m.topics = append(m.topics, topic(topicNames[i], rapid.Int32Range(1, 8).Draw(t, "partitions")))
		}
		for _, tm := range m.topics {
			m.step("topic %s has %d partition(s)", tm.Topic, tm.Partitions)
		}
		for range rapid.IntRange(1, 3).Draw(t, "firstMembers") {
			m.join(t)
		}
		m.settle(t)
		t.Repeat(map[string]func(*rapid.T){
			"join":          m.join,
			"leaveOrCrash":  m.leave,
			"addPartitions": m.addPartitions,
			"topicChange":   m.topicChange,
			"rebalance":     m.rebalance,
			"settle":        m.settle,
			"":              func(*rapid.T) {},
		})
	}
}

func (m *groupMachine) step(format string, args ...any) {
	m.steps = append(m.steps, func() string { return fmt.Sprintf(format, args...) })
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
	m.changed = true
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
	m.changed = true
}

func (m *groupMachine) addPartitions(t *rapid.T) {
	if len(m.topics) == 0 {
		return
	}
	i := rapid.IntRange(0, len(m.topics)-1).Draw(t, "grownTopic")
	m.topics[i].Partitions += rapid.Int32Range(1, 3).Draw(t, "newPartitions")
	m.changed = true
	m.step("%s grows to %d partitions", m.topics[i].Topic, m.topics[i].Partitions)
}

// topicChange creates a topic the group's pattern matches, or deletes one:
// members that owned its partitions still list them as they rejoin, and the
// assignor must ignore what no longer exists.
func (m *groupMachine) topicChange(t *rapid.T) {
	var absent []string
	for _, n := range topicNames {
		if !slices.ContainsFunc(m.topics, func(tm group.TopicMetadata) bool { return tm.Topic == n }) {
			absent = append(absent, n)
		}
	}
	if len(absent) > 0 && (len(m.topics) <= 1 || rapid.Bool().Draw(t, "createTopic")) {
		tm := topic(rapid.SampledFrom(absent).Draw(t, "createdTopic"), rapid.Int32Range(1, 4).Draw(t, "createdPartitions"))
		m.topics = append(m.topics, tm)
		m.changed = true
		m.step("topic %s is created with %d partition(s)", tm.Topic, tm.Partitions)
		return
	}
	if len(m.topics) <= 1 {
		return
	}
	i := rapid.IntRange(0, len(m.topics)-1).Draw(t, "deletedTopic")
	m.step("topic %s is deleted (its owners still list its partitions as they rejoin)", m.topics[i].Topic)
	m.topics = slices.Delete(m.topics, i, i+1)
	m.changed = true
}

// input is the JoinGroup answer the leader assigns from: every member with
// what it owns, partitions of deleted topics included.
func (m *groupMachine) input() roundInput {
	in := roundInput{topics: slices.Clone(m.topics)}
	for _, id := range m.members {
		in.members = append(in.members, Member{MemberID: id, OwnedPartitions: slices.Clone(m.owned[id])})
	}
	return in
}

// rebalance runs one round, whatever happened since the last one.
func (m *groupMachine) rebalance(t *rapid.T) { m.round(t) }

// settle runs rounds until the group is stable: after the last change, one
// round, and one follow-up if it made anyone revoke.
func (m *groupMachine) settle(t *rapid.T) {
	for range 3 {
		if !m.changed && !m.revoking {
			return
		}
		m.round(t)
	}
	m.fail(t, roundInputFailure(m.input(), "the group does not settle: with nothing changing, a round that made members revoke must be followed by one that hands the revoked partitions on and makes nobody give anything up again."))
}

// round runs one rebalance, checks it against every rule and against
// Kafka's own answer (the library's cooperative-sticky assignor), and
// applies it. A follow-up round (nothing changed since a round in which
// someone revoked) must not make anyone revoke again.
func (m *groupMachine) round(t *rapid.T) {
	in := m.input()
	followUp := m.revoking && !m.changed
	got, f := roundCase(m.a, in)
	if f == nil && !sameAssignment(kafkaAssign(in), got) {
		f = kafkaDealCase(m.a, in)
	}
	if f == nil && m.generation == 0 { // once a run: it costs two more rebalances
		f = aliasCase(m.a, [2]roundInput{in, otherGroup})
	}
	m.generation++
	if f != nil {
		m.fail(t, f)
	}
	revoked := false
	exists := owners(in) // a deleted topic's partitions are lost, not revoked
	ids, gaves := slices.Clone(m.members), map[string][]group.TopicPartition{}
	for _, id := range ids {
		gave := difference(intersect(m.owned[id], keys(exists)), got[id])
		revoked = revoked || len(gave) > 0
		gaves[id] = gave
		m.owned[id] = got[id]
	}
	generation := m.generation
	m.steps = append(m.steps, func() string {
		var lines []string
		for _, id := range ids {
			lines = append(lines, fmt.Sprintf("%s %s (revokes %s)", id, group.FormatPartitions(got[id]), group.FormatPartitions(gaves[id])))
		}
		return fmt.Sprintf("rebalance, generation %d: %s", generation, strings.Join(lines, ", "))
	})
	if followUp && revoked {
		m.fail(t, roundInputFailure(in, "the follow-up rebalance must settle the group: every partition free after the first round goes to its new owner, and nobody gives anything up again."))
	}
	m.changed, m.revoking = false, revoked
}

func keys(m map[group.TopicPartition]string) []group.TopicPartition { return sortedPartitions(m) }

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
	var steps []string
	for _, s := range m.steps {
		steps = append(steps, s())
	}
	f.Details = append(f.Details, "steps that led here (shrunk by rapid):\n  "+strings.Join(steps, "\n  "))
	f.Replay = m.replay
	kit.Fatal(t, f)
}

func roundInputFailure(in roundInput, what string) *kit.Failure {
	return &kit.Failure{Rule: ruleG5, What: what, Details: []string{describeRound(in, nil)}}
}

// otherGroup is a rebalance of another group, made after each round to see
// whether the round's assignment changes with it.
var otherGroup = roundInput{
	members: []Member{{MemberID: "x-1", OwnedPartitions: []group.TopicPartition{{Topic: "other", Partition: 1}}}, {MemberID: "x-2"}},
	topics:  []group.TopicMetadata{{Topic: "other", Partitions: 3}},
}
