package observe

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// EventKind says what an [Event] is about.
type EventKind string

// The kinds of events the observer derives.
const (
	// EventStart is the first sample: nothing before it is known.
	EventStart EventKind = "start"
	// EventBroker is a broker's state changing (State).
	EventBroker EventKind = "broker"
	// EventTopic is a topic appearing or going (State "appeared",
	// "gone"), or the topics listed at last after polls the cluster did
	// not answer (State "listed", no Topic).
	EventTopic EventKind = "topic"
	// EventPartition is a partition appearing in a topic seen before
	// (Leader, LeaderEpoch, ISR: as it appeared).
	EventPartition EventKind = "partition"
	// EventLeader is a partition's leader or leader epoch changing
	// (Leader, LeaderEpoch: the new ones).
	EventLeader EventKind = "leader"
	// EventISR is a partition's ISR shrinking or expanding (ISR: the new
	// one).
	EventISR EventKind = "isr"
	// EventGroup is a group appearing, going, changing state (State) or
	// members.
	EventGroup EventKind = "group"
	// EventQuorum is the metadata quorum's leader or epoch changing.
	EventQuorum EventKind = "quorum"
	// EventUnanswered is a poll leaving requests unanswered after one
	// that did not.
	EventUnanswered EventKind = "unanswered"
)

// Event is a change the observer saw between two samples. It happened at
// some moment between the two polls: At is the later one's.
type Event struct {
	// Seq is the sample that first showed it.
	Seq  uint64    `json:"seq"`
	At   time.Time `json:"at"`
	Kind EventKind `json:"kind"`
	// Broker, Topic and Partition, Group name what it concerns (-1, "",
	// -1, "" when nothing): the broker whose state changed, a partition's
	// new leader, the quorum's leader.
	Broker    int32  `json:"broker"`
	Topic     string `json:"topic,omitempty"`
	Partition int32  `json:"partition"`
	Group     string `json:"group,omitempty"`
	// Leader, LeaderEpoch and ISR are a partition's after the change
	// (EventPartition, EventLeader, EventISR; -1, -1, nil for the other
	// kinds); State a broker's or a group's (EventBroker, EventGroup).
	Leader      int32   `json:"leader"`
	LeaderEpoch int32   `json:"leader_epoch"`
	ISR         []int32 `json:"isr,omitempty"`
	State       string  `json:"state,omitempty"`
	Text        string  `json:"text"`
}

// basis is what a sample's events are derived against: the sample before
// it, and the newest that listed the topics, the groups and the quorum (a
// poll the cluster did not answer says nothing of them: its topics are not
// gone, they are not seen).
type basis struct {
	prev, topics, groups *Sample
	quorum               *Quorum
}

// events are the changes basis to next, after which basis moves to next.
func (b *basis) events(next *Sample) []Event {
	e := eventer{next: next}
	defer b.advance(next)
	if b.prev == nil {
		e.add(Event{Kind: EventStart, Text: fmt.Sprintf("observing: %d broker(s), %d topic(s), %d partition(s), %d group(s); nothing before this is known",
			len(next.Brokers), len(next.Topics), len(next.Partitions), len(next.Groups))})
		return e.out
	}
	e.brokers(b.prev, next)
	switch {
	case !next.TopicsListed:
	case b.topics == nil:
		e.add(Event{Kind: EventTopic, State: "listed", Text: fmt.Sprintf("the cluster answers: %d topic(s), %d partition(s)", len(next.Topics), len(next.Partitions))})
	default:
		e.topics(b.topics, next)
		e.partitions(b.topics, next)
	}
	if next.GroupsListed && b.groups != nil {
		e.groups(b.groups, next)
	}
	e.quorum(b.prev.Quorum, b.quorum, next.Quorum)
	if len(next.Unanswered) > 0 && len(b.prev.Unanswered) == 0 {
		e.add(Event{Kind: EventUnanswered, Text: fmt.Sprintf("%d request(s) unanswered: %s", len(next.Unanswered), next.Unanswered[0])})
	}
	return e.out
}

// advance makes next the basis of the sample after it.
func (b *basis) advance(next *Sample) {
	b.prev = next
	if next.TopicsListed {
		b.topics = next
	}
	if next.GroupsListed {
		b.groups = next
	}
	if next.Quorum != nil {
		b.quorum = next.Quorum
	}
}

type eventer struct {
	next *Sample
	out  []Event
}

func (e *eventer) add(ev Event) {
	ev.Seq, ev.At = e.next.Seq, e.next.At
	if ev.Topic == "" || ev.Kind == EventTopic {
		ev.Partition = -1
	}
	switch ev.Kind {
	case EventBroker, EventLeader, EventQuorum:
	default:
		ev.Broker = -1
	}
	switch ev.Kind {
	case EventPartition, EventLeader:
	default:
		ev.Leader, ev.LeaderEpoch = -1, -1
	}
	e.out = append(e.out, ev)
}

func (e *eventer) brokers(prev, next *Sample) {
	for _, b := range next.Brokers {
		old, ok := prev.Broker(b.ID)
		switch {
		case !ok:
			e.add(Event{Kind: EventBroker, Broker: b.ID, State: string(b.State), Text: fmt.Sprintf("broker %d appeared (%s)", b.ID, b.State)})
		case old.State != b.State:
			e.add(Event{Kind: EventBroker, Broker: b.ID, State: string(b.State), Text: fmt.Sprintf("broker %d is %s (was %s)%s", b.ID, b.State, old.State, brokerWhy(b.State))})
		}
	}
}

// brokerWhy says what a broker's state means.
func brokerWhy(s BrokerState) string {
	switch s {
	case BrokerDown:
		return ": the cluster no longer lists it"
	case BrokerUnreachable:
		return ": listed, but its requests failed"
	case BrokerFenced:
		return ": registered, fenced by the controller"
	}
	return ""
}

func (e *eventer) topics(prev, next *Sample) {
	names := func(ts []*Topic) []string {
		out := make([]string, len(ts))
		for i, t := range ts {
			out[i] = t.Name
		}
		return out
	}
	was, is := names(prev.Topics), names(next.Topics)
	for _, n := range is {
		if _, ok := slices.BinarySearch(was, n); !ok {
			e.add(Event{Kind: EventTopic, Topic: n, State: "appeared", Text: "topic " + n + " appeared"})
		}
	}
	for _, n := range was {
		if _, ok := slices.BinarySearch(is, n); !ok {
			e.add(Event{Kind: EventTopic, Topic: n, State: "gone", Text: "topic " + n + " is gone"})
		}
	}
}

func (e *eventer) partitions(prev, next *Sample) {
	for _, p := range next.Partitions {
		old := prev.Partition(p.Topic, p.Partition)
		name := fmt.Sprintf("%s-%d", p.Topic, p.Partition)
		switch {
		case old == nil && prev.Partition(p.Topic, 0) != nil:
			e.add(Event{Kind: EventPartition, Topic: p.Topic, Partition: p.Partition, Leader: p.Leader, LeaderEpoch: p.LeaderEpoch, ISR: p.ISR,
				Text: fmt.Sprintf("%s appeared: leader %d, replicas %s, ISR %s", name, p.Leader, ids(p.Replicas), ids(p.ISR))})
			continue
		case old == nil || old == p:
			continue
		}
		ev := Event{Topic: p.Topic, Partition: p.Partition, Kind: EventLeader, Leader: p.Leader, LeaderEpoch: p.LeaderEpoch}
		switch {
		case old.Leader != p.Leader && p.Leader < 0:
			ev.Broker = -1
			ev.Text = fmt.Sprintf("%s lost its leader %d (epoch %d): offline", name, old.Leader, p.LeaderEpoch)
		case old.Leader != p.Leader:
			ev.Broker = p.Leader
			ev.Text = fmt.Sprintf("%s: leader %d -> %d, epoch %d -> %d", name, old.Leader, p.Leader, old.LeaderEpoch, p.LeaderEpoch)
		case old.LeaderEpoch != p.LeaderEpoch:
			ev.Broker = p.Leader
			ev.Text = fmt.Sprintf("%s: leader %d stays, epoch %d -> %d", name, p.Leader, old.LeaderEpoch, p.LeaderEpoch)
		}
		if ev.Text != "" {
			e.add(ev)
		}
		out, in := minus(old.ISR, p.ISR), minus(p.ISR, old.ISR)
		if len(out) > 0 {
			e.add(Event{Kind: EventISR, Topic: p.Topic, Partition: p.Partition, ISR: p.ISR, Text: fmt.Sprintf("%s: ISR shrank %s -> %s (out: %s)", name, ids(old.ISR), ids(p.ISR), ids(out))})
		}
		if len(in) > 0 {
			e.add(Event{Kind: EventISR, Topic: p.Topic, Partition: p.Partition, ISR: p.ISR, Text: fmt.Sprintf("%s: ISR expanded %s -> %s (in: %s)", name, ids(old.ISR), ids(p.ISR), ids(in))})
		}
	}
}

func (e *eventer) groups(prev, next *Sample) {
	byName := func(gs []*Group) map[string]*Group {
		m := make(map[string]*Group, len(gs))
		for _, g := range gs {
			m[g.Name] = g
		}
		return m
	}
	was, is := byName(prev.Groups), byName(next.Groups)
	for _, g := range next.Groups {
		old := was[g.Name]
		switch {
		case old == nil:
			e.add(Event{Kind: EventGroup, Group: g.Name, State: g.State, Text: fmt.Sprintf("group %s appeared (%s, %d member(s))", g.Name, g.State, len(g.Members))})
			continue
		case old == g:
			continue
		case old.State != g.State:
			e.add(Event{Kind: EventGroup, Group: g.Name, State: g.State, Text: fmt.Sprintf("group %s: %s -> %s%s", g.Name, old.State, g.State, groupWhy(g.State))})
		}
		if joined, left := minus(memberIDs(g), memberIDs(old)), minus(memberIDs(old), memberIDs(g)); len(joined)+len(left) > 0 {
			e.add(Event{Kind: EventGroup, Group: g.Name, Text: fmt.Sprintf("group %s: members %d -> %d (joined %s, left %s)", g.Name, len(old.Members), len(g.Members), names(joined), names(left))})
		}
	}
	for _, g := range prev.Groups {
		if is[g.Name] == nil {
			e.add(Event{Kind: EventGroup, Group: g.Name, State: "gone", Text: "group " + g.Name + " is gone"})
		}
	}
}

// groupWhy says what a group's state means.
func groupWhy(state string) string {
	switch state {
	case "PreparingRebalance":
		return ": rebalancing, the members rejoin"
	case "CompletingRebalance":
		return ": rebalancing, the leader's assignment awaited"
	}
	return ""
}

// quorum derives the quorum's events from the last sample's quorum (was),
// the last one observed (known) and the new one (q), nil when not
// observed.
func (e *eventer) quorum(was, known, q *Quorum) {
	switch {
	case q == nil && was != nil:
		e.add(Event{Kind: EventQuorum, Broker: -1, Text: fmt.Sprintf("the metadata quorum no longer answers (leader was %d)", was.LeaderID)})
	case q == nil:
	case known == nil:
		e.add(Event{Kind: EventQuorum, Broker: q.LeaderID, Text: fmt.Sprintf("the metadata quorum answers: leader %d, epoch %d", q.LeaderID, q.LeaderEpoch)})
	case known.LeaderID != q.LeaderID || known.LeaderEpoch != q.LeaderEpoch:
		e.add(Event{Kind: EventQuorum, Broker: q.LeaderID, Text: fmt.Sprintf("the metadata quorum's leader: %d -> %d, epoch %d -> %d", known.LeaderID, q.LeaderID, known.LeaderEpoch, q.LeaderEpoch)})
	case was == nil:
		e.add(Event{Kind: EventQuorum, Broker: q.LeaderID, Text: fmt.Sprintf("the metadata quorum answers again: leader %d, epoch %d", q.LeaderID, q.LeaderEpoch)})
	}
}

// minus is the ids of a not in b.
func minus[T comparable](a, b []T) []T {
	var out []T
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func memberIDs(g *Group) []string {
	out := make([]string, len(g.Members))
	for i, m := range g.Members {
		out[i] = m.ID
	}
	return out
}

// ids prints broker ids as Kafka's tools print a replica list, [1,2,3].
func ids(xs []int32) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(s, ",") + "]"
}

func names(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}
