package client

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/group"
)

// partAssignor is the cooperative-sticky assignor of
// [Settings.CooperativeSticky], with the reference answering a round it
// declines or gives an assignment [CheckAssignment] refuses.
type partAssignor struct {
	ref   group.Assignor
	part  func(members []group.MemberSubscription, topics []group.TopicMetadata) (group.Assignment, bool)
	notes *assignNotes
}

// assignNotes is where a consumer's part assignor records what it decided:
// the Env of the call that steps the consumer's member (the member assigns
// only when a JoinGroup answer makes it the leader), nil between calls.
type assignNotes struct {
	rec event.Recorder
}

// Name implements [group.Assignor].
func (a partAssignor) Name() string { return a.ref.Name() }

// Protocol implements [group.Assignor].
func (a partAssignor) Protocol() group.RebalanceProtocol { return a.ref.Protocol() }

// Assign implements [group.Assignor].
func (a partAssignor) Assign(members []group.MemberSubscription, topics []group.TopicMetadata) group.Assignment {
	got, ok := a.part(members, topics)
	if ok {
		rec := a.notes.rec
		err := CheckAssignment(got, members, topics)
		if err == nil {
			rec.Record(event.Group, 0, nil, "cooperative-sticky assignment by the part given: %s", assignmentText(got))
			rec.MarkLast(event.PartAssignor)
			return got
		}
		rec.Record(event.Group, 0, nil, "cooperative-sticky assignment refused: %v", err)
		rec.MarkLast(event.PartAssignor)
	}
	return a.ref.Assign(members, topics)
}

// partAssignors replaces cooperative-sticky in as with part.
func partAssignors(as []group.Assignor, part func([]group.MemberSubscription, []group.TopicMetadata) (group.Assignment, bool), notes *assignNotes) []group.Assignor {
	out := make([]group.Assignor, len(as))
	for i, a := range as {
		out[i] = a
		if a.Name() == (group.CooperativeStickyAssignor{}).Name() {
			out[i] = partAssignor{ref: a, part: part, notes: notes}
		}
	}
	return out
}

var errAssignment = errors.New("cluster: invalid assignment")

// CheckAssignment refuses an assignment the group could not run: a partition that
// does not exist or is given twice, a member left out or unknown.
func CheckAssignment(got group.Assignment, members []group.MemberSubscription, topics []group.TopicMetadata) error {
	count := map[string]int32{}
	for _, t := range topics {
		count[t.Topic] = t.Partitions
	}
	known := map[string]bool{}
	for _, m := range members {
		known[m.MemberID] = true
		if _, ok := got[m.MemberID]; !ok {
			return fmt.Errorf("%w: member %s has no entry", errAssignment, m.MemberID)
		}
	}
	owner := map[group.TopicPartition]string{}
	for _, id := range slices.Sorted(maps.Keys(got)) { // by member id: the same answer every run
		tps := got[id]
		if !known[id] {
			return fmt.Errorf("%w: member %s is not in the group", errAssignment, id)
		}
		for _, tp := range tps {
			if n, ok := count[tp.Topic]; !ok || tp.Partition < 0 || tp.Partition >= n {
				return fmt.Errorf("%w: %s-%d does not exist", errAssignment, tp.Topic, tp.Partition)
			}
			if o, ok := owner[tp]; ok {
				return fmt.Errorf("%w: %s-%d given to %s and %s", errAssignment, tp.Topic, tp.Partition, o, id)
			}
			owner[tp] = id
		}
	}
	return nil
}

func assignmentText(a group.Assignment) string {
	ids := make([]string, 0, len(a))
	for id := range a {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %v", id, group.SortedPartitions(a[id]))
	}
	return b.String()
}
