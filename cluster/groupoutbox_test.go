package cluster_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
)

// A consumer process that starts while no broker can be its group's
// coordinator waits for one with a single JoinGroup, however long the
// wait (past the JoinGroup's timeout, max.poll.interval.ms + 5 s, after
// which the member gives up on it and joins again): when the coordinator
// appears, the process becomes one member, not one per JoinGroup it
// sent meanwhile. (The user explorer's seed 7000852 at 20 operations: a
// restarted billing-2 joined as two members, one holding orders-2 until
// its session expired, and nothing committed orders-2's lag.) The member
// of the crashed billing-2 process, which the coordinator loads from the
// log when the brokers come back, stays until its session expires, as in
// Kafka: it is not counted.
func TestConsumerWaitingForCoordinatorJoinsOnce(t *testing.T) {
	w, err := defaultworld.New(1)
	if err != nil {
		t.Fatal(err)
	}
	do := func(a cluster.Action) {
		t.Helper()
		if err := w.Do(a); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	do(cluster.Action{Kind: cluster.ActRun, Ms: 10_000})
	crashed := memberOf(w.State(), "billing", "billing-2")
	if crashed == "" {
		t.Fatalf("billing-2 is no member of billing before the crash\n%s", w.State().Text())
	}
	for id := int32(1); id <= 3; id++ {
		do(cluster.Action{Kind: cluster.ActStop, Broker: id})
	}
	do(cluster.Action{Kind: cluster.ActCrashConsumer, Name: "billing-2"})
	do(cluster.Action{Kind: cluster.ActRestartConsumer, Name: "billing-2"})
	do(cluster.Action{Kind: cluster.ActRun, Ms: 400_000})
	for id := int32(1); id <= 3; id++ {
		do(cluster.Action{Kind: cluster.ActStart, Broker: id})
	}
	// Within session.timeout.ms (45 s), which would end a second member.
	do(cluster.Action{Kind: cluster.ActRun, Ms: 15_000})
	var clients []string
	for _, g := range w.State().Groups {
		if g.Name != "billing" {
			continue
		}
		for _, m := range g.Members {
			if m.ID != crashed {
				clients = append(clients, m.ClientID)
			}
		}
	}
	slices.Sort(clients)
	if diff := cmp.Diff([]string{"billing-1", "billing-2"}, clients); diff != "" {
		t.Fatalf("the clients of group billing's members (-want +got):\n%s\n%s", diff, w.State().Text())
	}
}

// memberOf is the member id of client's member in group name, "" if none.
func memberOf(st cluster.State, name, client string) string {
	for _, g := range st.Groups {
		for _, m := range g.Members {
			if g.Name == name && m.ClientID == client {
				return m.ID
			}
		}
	}
	return ""
}
