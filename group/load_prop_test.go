package group_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/group"
)

// loadClient is one consumer process as the property drives it: it keeps
// what the coordinator last told it and builds well-formed requests from
// it, or, now and then, stale ones.
type loadClient struct {
	name, instance, assignor string
	memberID                 string
	generation               int32
	members                  []string // the leader's last JoinGroup answer
	// next is what a well-behaved consumer sends next (a kind of
	// loadAction: join, sync or heartbeat), learnt from the answers.
	next int
}

// loadWorld is a coordinator, its store, and the clients talking to it.
type loadWorld struct {
	c      *group.Coordinator
	store  *group.MemoryOffsetStore
	groups *group.MemoryGroupStore
}

// deliver takes the coordinator's output until it has none: offsets and
// group records stored (successfully), and everything said returned in a
// form two coordinators can be compared by (store ids and state
// timestamps, which differ between a writer and a loaded one by design,
// left out), with the answers.
func (w *loadWorld) deliver(t *rapid.T) ([]string, []group.Outgoing) {
	var out []string
	var answers []group.Outgoing
	for w.c.HasReady() {
		rd := w.c.Ready()
		for _, rec := range rd.Commits {
			if err := w.store.Commit(rec); err != nil {
				t.Fatalf("storing %+v: %v", rec, err)
			}
			out = append(out, fmt.Sprintf("commit %+v", rec))
		}
		for _, rec := range rd.Groups {
			w.groups.Store(rec)
			id := rec.StoreID
			rec.StoreID, rec.CurrentStateTimestampMs = 0, 0
			out = append(out, fmt.Sprintf("store %+v", rec))
			w.c.GroupStored(id, group.None)
		}
		for _, o := range rd.Responses {
			out = append(out, fmt.Sprintf("%s <- %#v", o.To, o.Response))
		}
		answers = append(answers, rd.Responses...)
	}
	return out, answers
}

// loadAction is one thing that happens: a client's request, or time.
type loadAction struct {
	client int
	kind   int
	ms     int64
	stale  bool
}

func drawLoadAction(t *rapid.T, clients int) loadAction {
	return loadAction{
		client: rapid.IntRange(0, clients-1).Draw(t, "client"),
		kind:   rapid.IntRange(0, 11).Draw(t, "kind"),
		ms:     rapid.Int64Range(0, 20000).Draw(t, "ms"),
		stale:  rapid.IntRange(0, 9).Draw(t, "stale") == 0,
	}
}

// request builds client cl's request for kind: join, sync, heartbeat (two
// kinds in three), commit, leave, fetch; kind 7 is time passing (nil),
// kinds 8 to 11 what the client would send next.
func (a loadAction) request(cl *loadClient) group.Request {
	gen := cl.generation
	if a.stale {
		gen--
	}
	kind := a.kind
	if kind >= 8 {
		kind = cl.next
	}
	switch kind {
	case 0:
		return group.JoinGroup{GroupID: "g", MemberID: cl.memberID, GroupInstanceID: cl.instance, ClientID: cl.name, SessionTimeoutMs: 10000,
			RebalanceTimeoutMs: 15000, ProtocolType: "consumer", Protocols: []group.Protocol{{Name: cl.assignor,
				Subscription: group.Subscription{Topics: []string{"t"}, Generation: -1}}}}
	case 1:
		s := group.SyncGroup{GroupID: "g", GenerationID: gen, MemberID: cl.memberID, GroupInstanceID: cl.instance}
		for i, m := range cl.members {
			s.Assignments = append(s.Assignments, group.MemberAssignment{MemberID: m,
				Partitions: []group.TopicPartition{{Topic: "t", Partition: int32(i)}}})
		}
		return s
	case 2, 3:
		return group.Heartbeat{GroupID: "g", GenerationID: gen, MemberID: cl.memberID, GroupInstanceID: cl.instance}
	case 4:
		return group.OffsetCommit{GroupID: "g", GenerationID: gen, MemberID: cl.memberID, GroupInstanceID: cl.instance,
			Offsets: []group.PartitionOffset{{TopicPartition: group.TopicPartition{Topic: "t"}, Offset: a.ms % 100, LeaderEpoch: -1}}}
	case 5:
		if a.stale {
			cl.memberID, cl.generation, cl.members = "", -1, nil // the process restarts
			return nil
		}
		return group.LeaveGroup{GroupID: "g", MemberID: cl.memberID}
	case 6:
		return group.OffsetFetch{GroupID: "g"}
	}
	return nil
}

// learn updates client cl from an answer meant for it.
func (cl *loadClient) learn(r group.Response) {
	switch r := r.(type) {
	case group.JoinGroupResponse:
		switch r.Error {
		case group.MemberIDRequired:
			cl.memberID = r.MemberID
		case group.None:
			cl.memberID, cl.generation, cl.members, cl.next = r.MemberID, r.GenerationID, nil, 1
			for _, m := range r.Members {
				cl.members = append(cl.members, m.MemberID)
			}
			slices.Sort(cl.members)
		case group.UnknownMemberID, group.FencedInstanceID:
			cl.memberID = ""
		}
	case group.SyncGroupResponse:
		cl.next = 2
		if r.Error != group.None {
			cl.next = 0
		}
	case group.HeartbeatResponse:
		switch r.Error {
		case group.UnknownMemberID:
			cl.memberID, cl.next = "", 0
		case group.RebalanceInProgress, group.IllegalGeneration:
			cl.next = 0
		}
	}
}

// step hands req (nil: time passes by ms) to world w and returns what it
// said.
func (w *loadWorld) step(t *rapid.T, from string, req group.Request, ms int64) ([]string, []group.Outgoing) {
	if req == nil {
		w.c.Tick(w.c.NowMs() + ms)
	} else if err := w.c.Step(from, req); err != nil {
		t.Fatalf("Step(%#v): %v", req, err)
	}
	return w.deliver(t)
}

// TestLoadedCoordinatorAnswersTheSame: a coordinator that loads a group
// from the records another coordinator stored answers every request as
// the one that stored them would. Random clients join, sync, heartbeat,
// commit, leave, restart and send stale generations; at a moment when
// the writer holds nothing its records do not (the group Stable or Empty,
// no member mid-join or mid-sync, no member id handed out and unused) and
// every member has just heartbeated (a loaded member's session starts at
// the load), a second coordinator loads the records; from then on both
// get the same requests and must give the same answers, store the same
// records and show the same group after each one. What no record holds is
// copied: the member id counters (Kafka's ids are random UUIDs).
func TestLoadedCoordinatorAnswersTheSame(t *testing.T) {
	compared, withMembers := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		switch members := loadedAnswersTheSame(t); {
		case members > 0:
			withMembers++
			fallthrough
		case members == 0:
			compared++
		}
	})
	t.Logf("%d runs compared a loaded coordinator with its writer, %d of them loading members", compared, withMembers)
	if withMembers == 0 {
		t.Fatal("no run loaded a group with members: the property was never put to the test")
	}
}

// loadedAnswersTheSame runs one case and returns how many members the
// loaded group had, -1 if no moment to load at came.
func loadedAnswersTheSame(t *rapid.T) int {
	assignor := rapid.SampledFrom([]string{"range", "cooperative-sticky"}).Draw(t, "assignor")
	var clients []*loadClient
	for i, name := range []string{"a", "b", "c"} {
		cl := &loadClient{name: name, assignor: assignor, generation: -1}
		if rapid.Bool().Draw(t, fmt.Sprintf("static %d", i)) {
			cl.instance = "i-" + name
		}
		clients = append(clients, cl)
	}
	store := &group.MemoryOffsetStore{}
	c, err := group.NewCoordinator(group.DefaultConfig(), store, 0)
	if err != nil {
		t.Fatal(err)
	}
	writer := &loadWorld{c: c, store: store, groups: &group.MemoryGroupStore{}}
	var loaded *loadWorld
	loadedMembers := -1
	n := rapid.IntRange(1, 80).Draw(t, "actions")
	forkAfter := rapid.IntRange(0, n).Draw(t, "load after")
	for i := 0; i < n; i++ {
		if loaded == nil && i >= forkAfter {
			settle(t, writer, clients)
			if loaded = fork(t, writer); loaded != nil {
				g, _ := loaded.c.Group("g")
				loadedMembers = len(g.Members)
			}
		}
		a := drawLoadAction(t, len(clients))
		cl := clients[a.client]
		req := a.request(cl)
		got, answers := writer.step(t, cl.name, req, a.ms)
		for _, o := range answers {
			for _, c := range clients {
				if c.name == o.To {
					c.learn(o.Response)
				}
			}
		}
		if loaded == nil {
			continue
		}
		again, _ := loaded.step(t, cl.name, req, a.ms)
		if diff := cmp.Diff(got, again); diff != "" {
			t.Fatalf("action %d (%+v): the loaded coordinator answered otherwise (-writer +loaded):\n%s", i, a, diff)
		}
		gw, _ := writer.c.Group("g")
		gl, _ := loaded.c.Group("g")
		if diff := cmp.Diff(gw, gl); diff != "" {
			t.Fatalf("action %d (%+v): the groups differ (-writer +loaded):\n%s", i, a, diff)
		}
	}
	return loadedMembers
}

// settle lets every client behave well for a while (what it would send
// next, a second at a time), so that the group gets to a moment to load
// at, Stable with members, more often than random requests bring it to.
func settle(t *rapid.T, writer *loadWorld, clients []*loadClient) {
	for range 20 {
		if group.QuietForLoad(writer.c, "g") {
			return
		}
		for _, cl := range clients {
			_, answers := writer.step(t, cl.name, loadAction{kind: 8}.request(cl), 0)
			for _, o := range answers {
				for _, c := range clients {
					if c.name == o.To {
						c.learn(o.Response)
					}
				}
			}
		}
		writer.step(t, "", nil, 1000)
	}
}

// fork returns a coordinator loaded from writer's records, or nil when
// the writer is not at a moment to load at. Every member heartbeats the
// writer first, so that its sessions restart as the loaded ones do.
func fork(t *rapid.T, writer *loadWorld) *loadWorld {
	g, ok := writer.c.Group("g")
	stored := slices.ContainsFunc(writer.groups.Records(), func(r group.GroupRecord) bool { return r.Group == "g" })
	if !ok || !stored || !group.QuietForLoad(writer.c, "g") {
		return nil // a group never stored (its first join never completed) is not loaded either
	}
	for _, m := range g.Members {
		if err := writer.c.Step("hb", group.Heartbeat{GroupID: "g", GenerationID: g.Generation, MemberID: m.MemberID, GroupInstanceID: m.GroupInstanceID}); err != nil {
			t.Fatal(err)
		}
	}
	writer.deliver(t)
	store := writer.store.Clone()
	c, err := group.NewCoordinator(group.DefaultConfig(), store, writer.c.NowMs())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range writer.groups.Records() {
		c.LoadGroup(r)
	}
	group.CopyMemberIDCounters(c, writer.c)
	gl, _ := c.Group("g")
	if diff := cmp.Diff(g, gl, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".SessionDeadlineMs" }, cmp.Ignore())); diff != "" {
		t.Fatalf("loaded at %dms, the group differs from the writer's (-writer +loaded):\n%s", c.NowMs(), diff)
	}
	return &loadWorld{c: c, store: store, groups: writer.groups.Clone()}
}

// TestLoadedGroupNumbersNewMembersAfterItsOwn: the member ids a loaded
// group hands out never repeat one of its loaded members' (the previous
// coordinator's counter is not stored).
func TestLoadedGroupNumbersNewMembersAfterItsOwn(t *testing.T) {
	c, err := group.NewCoordinator(group.DefaultConfig(), &group.MemoryOffsetStore{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	member := func(id string) group.StoredMember {
		return group.StoredMember{MemberID: id, ClientID: "c", SessionTimeoutMs: 10000, RebalanceTimeoutMs: 10000, Protocol: group.Protocol{Name: "range"}}
	}
	if !c.LoadGroup(group.GroupRecord{Group: "g", Generation: 4, ProtocolType: "consumer", Protocol: "range", Leader: "c-7",
		Members: []group.StoredMember{member("c-7"), member("c-3"), member("other")}}) {
		t.Fatal("LoadGroup refused a new group")
	}
	if c.LoadGroup(group.GroupRecord{Group: "g", Generation: 1}) {
		t.Error("LoadGroup replaced a group the coordinator hosts")
	}
	if err := c.Step("x", group.JoinGroup{GroupID: "g", ClientID: "c", SessionTimeoutMs: 10000, RebalanceTimeoutMs: 10000, ProtocolType: "consumer",
		Protocols: []group.Protocol{{Name: "range"}}}); err != nil {
		t.Fatal(err)
	}
	rd := c.Ready()
	want := group.JoinGroupResponse{Error: group.MemberIDRequired, MemberID: "c-8", Members: []group.MemberSubscription{}}
	if diff := cmp.Diff([]group.Outgoing{{To: "x", Response: want}}, rd.Responses); diff != "" {
		t.Errorf("JoinGroup of a new member (-want +got):\n%s", diff)
	}
	g, _ := c.Group("g")
	if g.State != group.Stable || g.Generation != 4 || len(g.Members) != 3 {
		t.Errorf("loaded group: %s generation %d, %d members; want Stable generation 4, 3 members", g.State, g.Generation, len(g.Members))
	}
}
