package notes

import (
	"fmt"
	"strings"

	"github.com/kafkalive/kafkalive/group"
)

// The generator of the groups chapter's section on a coordinator that
// moves.
func init() {
	generators["group-metadata-failover"] = groupMetadataFailover
}

// groupMetadataFailover runs two members of group workers to generation 1
// at one coordinator, prints the group record it stores, loads that record
// into a second coordinator and prints how the second answers the
// members' heartbeats.
func groupMetadataFailover() string {
	store, groups := &group.MemoryOffsetStore{}, &group.MemoryGroupStore{}
	a, err := group.NewCoordinator(group.DefaultConfig(), store, 0)
	if err != nil {
		panic(err)
	}
	var sb strings.Builder
	answers := map[string]group.Response{}
	step := func(c *group.Coordinator, from string, req group.Request) {
		if err := c.Step(from, req); err != nil {
			panic(err)
		}
		for c.HasReady() {
			rd := c.Ready()
			for _, r := range rd.Groups {
				groups.Store(r)
				fmt.Fprintf(&sb, "stored: group %s generation %d, protocol %s, leader %s\n", r.Group, r.Generation, r.Protocol, r.Leader)
				for _, m := range r.Members {
					fmt.Fprintf(&sb, "  member %s: session %d ms, rebalance %d ms, assigned %s\n",
						m.MemberID, m.SessionTimeoutMs, m.RebalanceTimeoutMs, group.FormatPartitions(m.Assignment))
				}
				c.GroupStored(r.StoreID, group.None)
			}
			for _, o := range rd.Responses {
				answers[o.To] = o.Response
			}
		}
	}
	join := func(name, id string) group.JoinGroup {
		return group.JoinGroup{GroupID: "workers", MemberID: id, ClientID: name, SessionTimeoutMs: 45000, RebalanceTimeoutMs: 300000,
			ProtocolType: "consumer", Protocols: []group.Protocol{{Name: "range", Subscription: group.Subscription{Topics: []string{"tasks"}, Generation: -1}}}}
	}
	ids := map[string]string{}
	for _, n := range []string{"w1", "w2"} {
		step(a, n, join(n, ""))
		ids[n] = answers[n].(group.JoinGroupResponse).MemberID
		step(a, n, join(n, ids[n]))
	}
	a.Tick(3000) // group.initial.rebalance.delay.ms, extended once for w2
	a.Tick(6000)
	step(a, "w2", group.SyncGroup{GroupID: "workers", GenerationID: 1, MemberID: ids["w2"]})
	step(a, "w1", group.SyncGroup{GroupID: "workers", GenerationID: 1, MemberID: ids["w1"], Assignments: []group.MemberAssignment{
		{MemberID: ids["w1"], Partitions: []group.TopicPartition{{Topic: "tasks", Partition: 0}}},
		{MemberID: ids["w2"], Partitions: []group.TopicPartition{{Topic: "tasks", Partition: 1}}}}})

	b, err := group.NewCoordinator(group.DefaultConfig(), store, 20000)
	if err != nil {
		panic(err)
	}
	for _, r := range groups.Records() {
		b.LoadGroup(r)
	}
	st, _ := b.Group("workers")
	fmt.Fprintf(&sb, "loaded by the new coordinator at 20 s: %s generation %d\n", st.State, st.Generation)
	for _, hb := range []group.Heartbeat{
		{GroupID: "workers", GenerationID: 1, MemberID: ids["w1"]},
		{GroupID: "workers", GenerationID: 1, MemberID: ids["w2"]},
		{GroupID: "workers", GenerationID: 2, MemberID: ids["w2"]},
	} {
		step(b, "hb", hb)
		fmt.Fprintf(&sb, "Heartbeat %s generation %d: %s\n", hb.MemberID, hb.GenerationID, answers["hb"].(group.HeartbeatResponse).Error)
	}
	return strings.TrimRight(sb.String(), "\n")
}
