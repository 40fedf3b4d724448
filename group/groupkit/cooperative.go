package groupkit

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/internal/kit"
	"pgregory.net/rapid"
)

// Member is one member of the group as the group leader's assignor sees it
// in the JoinGroup answer. Every member subscribes to every topic.
type Member struct {
	// MemberID is the id the coordinator gave the member.
	MemberID string
	// OwnedPartitions are the partitions it still owns as it rejoins
	// (ConsumerProtocolSubscription.ownedPartitions, KIP-429).
	OwnedPartitions []group.TopicPartition
}

// CooperativeSticky is the surface of exercise ch06/cooperative.
type CooperativeSticky struct {
	// Assign is one rebalance's assignment on the group leader
	// (CooperativeStickyAssignor.assign): the sticky target, minus every
	// partition another member still owns. Every member gets an entry.
	Assign func(members []Member, topics []group.TopicMetadata) group.Assignment
}

var cooperativeExercise = kit.Exercise{
	Dir:  "exercises/ch06/cooperative",
	File: "cooperative.go",
	Note: note06 + "#the-assignment",
}

func probeCooperative(a CooperativeSticky) error {
	return cooperativeExercise.Probe(kit.Call{Func: "Assign", Do: func() {
		a.Assign([]Member{{MemberID: "m"}}, []group.TopicMetadata{{Topic: "t", Partitions: 1}})
	}})
}

// CheckCooperativeSticky checks a against the rebalances of the scenarios
// eager-vs-cooperative and crash-is-not-a-goodbye, worked sticky examples and
// one case per known mistake, with Kafka's own answers, and returns the first
// violation.
func CheckCooperativeSticky(a CooperativeSticky, known ...kit.Known[CooperativeSticky]) error {
	return checkCooperative(judgeCooperative(a, known), kit.Replay("./"+cooperativeExercise.Dir, "TestCooperativeSticky"))
}

func checkCooperative(a cooperativeSubject, replay string) error {
	if err := probeCooperative(a.CooperativeSticky); err != nil {
		return err
	}
	cases := cooperativeKnownAnswers()
	var known []kit.KnownAnswer[roundInput]
	for _, c := range cases {
		known = append(known, kit.KnownAnswer[roundInput]{Name: c.name, In: c.in})
	}
	if f := kit.CheckKnown(known, func(in roundInput) *kit.Failure { return cooperativeCase(a, in) }, smallerRound, replay); f != nil {
		return f
	}
	for i := 1; i < len(cases); i++ {
		if f := aliasCase(a, [2]roundInput{cases[i-1].in, cases[i].in}); f != nil {
			f.Details = append(f.Details, "known answers: "+cases[i-1].name+", then "+cases[i].name)
			f.Replay = replay
			return f
		}
	}
	return nil
}

// CooperativeStickyProperties returns a rapid state machine in which members
// join, leave or crash, partitions are added, and the group rebalances with
// a, follow-up rebalance included; every round is checked against KIP-429.
func CooperativeStickyProperties(a CooperativeSticky, known ...kit.Known[CooperativeSticky]) func(*rapid.T) {
	return cooperativeProperties(judgeCooperative(a, known), kit.Replay("./"+cooperativeExercise.Dir, "TestCooperativeSticky/rebalances"))
}

// TestCooperativeSticky runs CheckCooperativeSticky and
// CooperativeStickyProperties as subtests of t.
func TestCooperativeSticky(t *testing.T, impl CooperativeSticky, known ...kit.Known[CooperativeSticky]) {
	t.Helper()
	a := judgeCooperative(impl, known)
	kit.Run(t, 1, kit.Suite{
		Exercise:  cooperativeExercise,
		Probe:     func() error { return probeCooperative(impl) },
		Check:     func(replay string) error { return checkCooperative(a, replay) },
		Props:     func(replay string) func(*rapid.T) { return cooperativeProperties(a, replay) },
		PropsName: "rebalances",
	})
}

// roundInput is one rebalance's input.
type roundInput struct {
	members []Member
	topics  []group.TopicMetadata
}

func (in roundInput) clone() roundInput {
	out := roundInput{topics: slices.Clone(in.topics)}
	for _, m := range in.members {
		out.members = append(out.members, Member{MemberID: m.MemberID, OwnedPartitions: slices.Clone(m.OwnedPartitions)})
	}
	return out
}

// reversed is the same input listed the other way round.
func (in roundInput) reversed() roundInput {
	out := in.clone()
	slices.Reverse(out.members)
	slices.Reverse(out.topics)
	for _, m := range out.members {
		slices.Reverse(m.OwnedPartitions)
	}
	return out
}

// call runs a.Assign on a copy of in, guarded.
func call(a CooperativeSticky, in roundInput) (group.Assignment, any) {
	got, _, p := callAndKeep(a, in)
	return got, p
}

// callAndKeep runs a.Assign on a copy of in as a caller hands it over (the
// members' lists with spare capacity after them) and returns, besides the
// answer, what that copy reads after the call.
func callAndKeep(a CooperativeSticky, in roundInput) (group.Assignment, roundInput, any) {
	var got group.Assignment
	c := in.withSpareCapacity()
	p := kit.Guard(func() { got = a.Assign(c.members, c.topics) })
	return normalize(got), c.clone(), p
}

// withSpareCapacity is a copy of in whose slices have room after their
// elements, filled with partitions of a topic no member subscribes to.
func (in roundInput) withSpareCapacity() roundInput {
	spare := group.TopicPartition{Topic: "spare capacity", Partition: -1}
	out := roundInput{topics: append(make([]group.TopicMetadata, 0, len(in.topics)+2), in.topics...)}
	out.members = make([]Member, 0, len(in.members)+2)
	for _, m := range in.members {
		owned := append(make([]group.TopicPartition, 0, len(m.OwnedPartitions)+3), m.OwnedPartitions...)
		for range 3 {
			owned = append(owned, spare)
		}
		out.members = append(out.members, Member{MemberID: m.MemberID, OwnedPartitions: owned[:len(m.OwnedPartitions)]})
	}
	return out
}

// Equal lets the kit compare inputs (a mistake's effect on what it was
// given).
func (in roundInput) Equal(other roundInput) bool { return sameInput(in, other) }

// sameInput reports whether two inputs list the same members with the same
// owned partitions, in the same order.
func sameInput(a, b roundInput) bool {
	if len(a.members) != len(b.members) || !slices.Equal(a.topics, b.topics) {
		return false
	}
	for i := range a.members {
		if a.members[i].MemberID != b.members[i].MemberID || !slices.Equal(a.members[i].OwnedPartitions, b.members[i].OwnedPartitions) {
			return false
		}
	}
	return true
}

// inputCase checks that Assign, given in, left the lists as they were:
// after is what they read after the call.
func inputCase(a cooperativeSubject, in, after roundInput) *kit.Failure {
	if sameInput(in, after) {
		return nil
	}
	return &kit.Failure{
		Rule:    ruleG10,
		What:    "Assign changed the lists it was given. The members and their ownedPartitions are the JoinGroup answer, which the group leader's client keeps (it reads the owned partitions again to know what to revoke): sort, cut and append to copies of your own.",
		Details: []string{"before the call:\n" + describeRound(in, nil), "after it:\n" + describeRound(after, nil)},
		Hint: func() []kit.Match {
			return a.inputs.LooksLike(inputAfterOf(a.CooperativeSticky), in, after, a.mistakes.Agrees(assignOf(a.CooperativeSticky)), a.aliases.Agrees(aliasOf(a.CooperativeSticky)))
		},
	}
}

// aliasCase runs p[0] then p[1] and checks that the assignment returned for
// p[0] still reads the same.
func aliasCase(a cooperativeSubject, p [2]roundInput) *kit.Failure {
	var first group.Assignment
	c := p[0].clone()
	if kit.Guard(func() { first = a.Assign(c.members, c.topics) }) != nil {
		return nil // the round's own check reports it
	}
	kept := cloneAssignment(first)
	c2 := p[1].clone()
	if kit.Guard(func() { a.Assign(c2.members, c2.topics) }) != nil {
		return nil
	}
	if sameAssignment(normalize(first), normalize(kept)) {
		return nil
	}
	return &kit.Failure{
		Rule: ruleG11,
		What: fmt.Sprintf("Assign returned\n%s\nand after the next rebalance (another group) that assignment reads\n%s\nThe assignment a call returns is the caller's (the leader sends it in its SyncGroup request): build it in a map and slices of their own, never in ones you keep and fill again.",
			formatAssignment(p[0], normalize(kept)), formatAssignment(p[0], normalize(first))),
		Details: []string{describeRound(p[0], nil), "the next rebalance:\n" + describeRound(p[1], nil)},
		Hint: func() []kit.Match {
			return a.aliases.LooksLike(aliasOf(a.CooperativeSticky), p, normalize(first), a.mistakes.Agrees(assignOf(a.CooperativeSticky)), a.inputs.Agrees(inputAfterOf(a.CooperativeSticky)))
		},
	}
}

func cloneAssignment(a group.Assignment) group.Assignment {
	out := group.Assignment{}
	for id, tps := range a {
		out[id] = slices.Clone(tps)
	}
	return out
}

// normalize sorts every member's partitions (order inside a list does not
// matter) and keeps empty entries.
func normalize(a group.Assignment) group.Assignment {
	out := group.Assignment{}
	for id, tps := range a {
		out[id] = sortedCopy(tps)
	}
	return out
}

func sortedCopy(tps []group.TopicPartition) []group.TopicPartition {
	out := append([]group.TopicPartition{}, tps...)
	slices.SortFunc(out, group.CompareTopicPartitions)
	return out
}

// cooperativeCase checks one rebalance against the rules, then against
// Kafka's own deal.
func cooperativeCase(a cooperativeSubject, in roundInput) *kit.Failure {
	_, f := roundCase(a, in)
	if f == nil {
		f = kafkaDealCase(a, in)
	}
	return f
}

// roundCase runs one rebalance and checks it against every rule that does
// not depend on the order Kafka deals partitions in.
func roundCase(a cooperativeSubject, in roundInput) (group.Assignment, *kit.Failure) {
	got, after, p := callAndKeep(a.CooperativeSticky, in)
	// The round's description is built only for a failure: rounds that
	// pass are the many.
	if kit.IsTimeout(p) {
		return nil, kit.Timeout(ruleG1, "Assign", terminationNote, describeRound(in, got))
	}
	if p != nil {
		return nil, &kit.Failure{Rule: ruleG8, What: fmt.Sprintf("Assign panicked: %v.", p), Details: []string{describeRound(in, got)}}
	}
	fail := func(rule kit.Rule, what string) (group.Assignment, *kit.Failure) {
		return got, &kit.Failure{Rule: rule, What: what, Details: []string{describeRound(in, got)}, Hint: looksLike(a, in, got)}
	}
	if rule, what := shapeWhy(in, got); what != "" {
		return fail(rule, what)
	}
	again, _ := call(a.CooperativeSticky, in.reversed())
	if !sameAssignment(got, again) {
		return fail(ruleG6, fmt.Sprintf("the same group listed in another order (members, topics and owned partitions reversed) got a different assignment:\n%s\nEvery member's leader must compute the same thing from the same input: sort members by member id and partitions by topic and number.", formatAssignment(in, again)))
	}
	if rule, what := stickyWhy(in, got); what != "" {
		return fail(rule, what)
	}
	if f := inputCase(a, in, after); f != nil {
		return got, f
	}
	return got, nil
}

// kafkaDealCase compares with Kafka's own answer (the library's assignor).
func kafkaDealCase(a cooperativeSubject, in roundInput) *kit.Failure {
	got, _ := call(a.CooperativeSticky, in)
	want := kafkaAssign(in)
	if sameAssignment(want, got) {
		return nil
	}
	return &kit.Failure{Rule: ruleG9, What: "the assignment obeys the rules but is not Kafka's: members in member id order keep their owned partitions in partition order up to their quota, then the free partitions, sorted, are dealt round-robin to the members below minQuota, then one each to members at minQuota while fewer than P mod N members hold maxQuota.",
		Details: []string{describeRound(in, got), "Kafka's:\n" + formatAssignment(in, want)},
		Hint:    looksLike(a, in, got)}
}

// sameAssignment compares two normalized assignments (nil and empty lists
// are equal). It runs on every round, so it avoids reflection.
func sameAssignment(a, b group.Assignment) bool {
	if len(a) != len(b) {
		return false
	}
	for id, tps := range a {
		other, ok := b[id]
		if !ok || !slices.Equal(tps, other) {
			return false
		}
	}
	return true
}

// kafkaAssign is the library's CooperativeStickyAssignor on in.
func kafkaAssign(in roundInput) group.Assignment {
	var ms []group.MemberSubscription
	var topics []string
	for _, t := range in.topics {
		topics = append(topics, t.Topic)
	}
	for _, m := range in.members {
		ms = append(ms, group.MemberSubscription{MemberID: m.MemberID, Subscription: group.Subscription{Topics: topics, OwnedPartitions: m.OwnedPartitions, Generation: 1}})
	}
	return normalize(group.CooperativeStickyAssignor{}.Assign(ms, in.topics))
}
