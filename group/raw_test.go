package group_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/group"
)

// raw sends one hand-written request to the coordinator and prints what
// comes back (see TestDataDriven for the syntax).
func (e *env) raw(t *testing.T, d *datadriven.TestData) {
	var from, groupID, member, instance string
	var gen int32
	d.ScanArgs(t, "from", &from)
	d.ScanArgs(t, "group", &groupID)
	d.MaybeScanArgs(t, "member", &member)
	d.MaybeScanArgs(t, "instance", &instance)
	d.MaybeScanArgs(t, "gen", &gen)
	var req group.Request
	switch d.Cmd {
	case "join":
		req = rawJoin(t, d, groupID, member, instance)
	case "sync":
		req = group.SyncGroup{GroupID: groupID, GenerationID: gen, MemberID: member, GroupInstanceID: instance, Assignments: rawAssignments(t, d)}
	case "heartbeat":
		req = group.Heartbeat{GroupID: groupID, GenerationID: gen, MemberID: member, GroupInstanceID: instance}
	case "leave":
		req = group.LeaveGroup{GroupID: groupID, MemberID: member, GroupInstanceID: instance}
	case "commit-raw":
		po := group.PartitionOffset{LeaderEpoch: -1}
		d.ScanArgs(t, "topic", &po.Topic)
		d.ScanArgs(t, "partition", &po.Partition)
		d.ScanArgs(t, "offset", &po.Offset)
		req = group.OffsetCommit{GroupID: groupID, GenerationID: gen, MemberID: member, GroupInstanceID: instance, Offsets: []group.PartitionOffset{po}}
	}
	e.logf("%s → %s", from, group.DescribeRequest(req))
	require.NoError(t, e.coord.Step(from, req))
	e.deliver()
	if e.out.Len() > 0 && strings.Count(e.out.String(), "\n") == 1 {
		e.logf("(no answer yet: parked)")
	}
}

func rawJoin(t *testing.T, d *datadriven.TestData, groupID, member, instance string) group.JoinGroup {
	session, assignors, topics := int32(45000), "range", "t"
	d.MaybeScanArgs(t, "session", &session)
	d.MaybeScanArgs(t, "assignors", &assignors)
	d.MaybeScanArgs(t, "topics", &topics)
	r := group.JoinGroup{GroupID: groupID, MemberID: member, GroupInstanceID: instance, ClientID: "x",
		SessionTimeoutMs: session, RebalanceTimeoutMs: 300000, ProtocolType: "consumer"}
	for _, a := range strings.Split(assignors, ",") {
		r.Protocols = append(r.Protocols, group.Protocol{Name: a, Subscription: group.Subscription{Topics: strings.Split(topics, ","), Generation: -1}})
	}
	return r
}

// rawAssignments reads "memberID topic p p ..." lines.
func rawAssignments(t *testing.T, d *datadriven.TestData) []group.MemberAssignment {
	var out []group.MemberAssignment
	for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		a := group.MemberAssignment{MemberID: fields[0], Partitions: []group.TopicPartition{}}
		for _, p := range fields[2:] {
			n, err := strconv.Atoi(p)
			if err != nil {
				d.Fatalf(t, "partition %q: %v", p, err)
			}
			a.Partitions = append(a.Partitions, group.TopicPartition{Topic: fields[1], Partition: int32(n)})
		}
		out = append(out, a)
	}
	return out
}
