package group_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/group"
)

// consumerWorld is a consumer-protocol group and its members over a FIFO
// network (one queue each way per member), driven by rapid. Its model is
// what the group must converge to: the members whose processes run and did
// not leave own every partition of their topics, each exactly once,
// balanced, and each process owns what the coordinator says it does.
type consumerWorld struct {
	t       *rapid.T
	nowMs   int64
	store   *group.MemoryOffsetStore
	coord   *group.ConsumerGroupCoordinator
	topics  []group.TopicMetadata
	procs   map[string]*consumerProc
	inc     map[string]int
	toCoord map[string][]group.Request
	toProc  map[string][]group.Response
	// model: the processes that run and did not close.
	live map[string]bool
	// cfg is the coordinator's config; log the consumer group records it
	// wrote, as key and value bytes, in order (a coordinator that takes
	// over loads them).
	cfg group.ConsumerGroupConfig
	log [][2][]byte
}

// consumerProc is one member process.
type consumerProc struct {
	m      *group.ConsumerMember
	topics []string
	// position is what it processed of each partition it fetches.
	position map[group.TopicPartition]int64
}

var consumerNames = []string{"A", "B", "C", "D"}

func newConsumerWorld(t *rapid.T, assignor string) *consumerWorld {
	w := &consumerWorld{t: t, store: &group.MemoryOffsetStore{}, procs: map[string]*consumerProc{}, inc: map[string]int{},
		toCoord: map[string][]group.Request{}, toProc: map[string][]group.Response{}, live: map[string]bool{}}
	cfg := group.DefaultConsumerGroupConfig()
	cfg.Assignors = []string{assignor}
	c, err := group.NewConsumerGroupCoordinator(cfg, w.store, 0)
	if err != nil {
		t.Fatalf("NewConsumerGroupCoordinator: %v", err)
	}
	w.coord, w.cfg = c, cfg
	w.topics = []group.TopicMetadata{{Topic: "orders", Partitions: 6, ID: topicID("orders")}, {Topic: "audit", Partitions: 3, ID: topicID("audit")}}
	c.SetTopics(w.topics)
	return w
}

// addr is a process's network address: its name and incarnation, so that
// answers meant for a dead process are not taken by its successor.
func (w *consumerWorld) addr(name string) string { return fmt.Sprintf("%s#%d", name, w.inc[name]) }

func (w *consumerWorld) start(name string, topics []string) {
	w.inc[name]++
	id := fmt.Sprintf("%s-uuid-%d", name, w.inc[name])
	m, err := group.NewConsumerMember(group.DefaultConsumerMemberConfig("g", name, id, topics), w.nowMs)
	if err != nil {
		w.t.Fatalf("NewConsumerMember: %v", err)
	}
	w.procs[name] = &consumerProc{m: m, topics: topics, position: map[group.TopicPartition]int64{}}
	w.live[name] = true
	w.toProc[name] = nil
	w.poll(name)
}

// handle acts on a process's Ready as a consumer does: requests onto the
// network, revocation with a commit of what it processed, positions for
// what it is given.
func (w *consumerWorld) handle(name string) {
	p := w.procs[name]
	for i := 0; p.m.HasReady() && i < 8; i++ {
		rd := p.m.Ready()
		for _, r := range rd.Requests {
			w.toCoord[w.addr(name)] = append(w.toCoord[w.addr(name)], r)
		}
		for _, tp := range rd.Lost {
			delete(p.position, tp)
		}
		for _, tp := range rd.Assigned {
			p.position[tp] = 0
		}
		if len(rd.Revoke) > 0 {
			var commits []group.PartitionOffset
			for _, tp := range rd.Revoke {
				commits = append(commits, group.PartitionOffset{TopicPartition: tp, Offset: p.position[tp], LeaderEpoch: -1})
				delete(p.position, tp)
			}
			p.m.Revoked(commits)
		}
	}
}

func (w *consumerWorld) poll(name string) {
	if p := w.procs[name]; p != nil {
		p.m.Poll(w.nowMs)
		w.handle(name)
	}
}

// deliverTo hands the coordinator the next request from addr and puts the
// answer on the way back.
func (w *consumerWorld) deliverTo(addr string) {
	q := w.toCoord[addr]
	if len(q) == 0 {
		return
	}
	r := q[0]
	w.toCoord[addr] = q[1:]
	w.coord.Tick(w.nowMs)
	if err := w.coord.Step(addr, r); err != nil {
		w.t.Fatalf("Step(%T): %v", r, err)
	}
	w.take()
}

// take stores what the coordinator's Ready holds (commits, then its
// group records as bytes) and puts the answers on their way.
func (w *consumerWorld) take() {
	rd := w.coord.Ready()
	for _, c := range rd.Commits {
		if err := w.store.Commit(c); err != nil {
			w.t.Fatalf("commit: %v", err)
		}
	}
	for _, r := range rd.ConsumerGroups {
		var value []byte
		if !r.Tombstone {
			value = group.AppendConsumerGroupRecordValue(nil, r)
		}
		w.log = append(w.log, [2][]byte{group.AppendConsumerGroupRecordKey(nil, r), value})
	}
	for _, o := range rd.Responses {
		name, _, _ := strings.Cut(o.To, "#")
		if o.To == w.addr(name) && w.procs[name] != nil {
			w.toProc[name] = append(w.toProc[name], o.Response)
		}
	}
}

func (w *consumerWorld) deliverFrom(name string) {
	q := w.toProc[name]
	p := w.procs[name]
	if len(q) == 0 || p == nil {
		return
	}
	w.toProc[name] = q[1:]
	if err := p.m.Step(q[0]); err != nil {
		w.t.Fatalf("member %s: %v", name, err)
	}
	w.handle(name)
}

func (w *consumerWorld) tick(ms int64) {
	w.nowMs += ms
	w.coord.Tick(w.nowMs)
	for _, name := range slices.Sorted(maps.Keys(w.procs)) {
		w.procs[name].m.Tick(w.nowMs)
		w.handle(name)
	}
}

// checkSafety holds at every moment: the coordinator never has a
// partition owned (assigned or pending revocation) by two members, a
// member's epoch is never past the group's, and a target assignment at
// the group epoch gives each subscribed partition to one member.
func (w *consumerWorld) checkSafety() {
	g, ok := w.coord.Group("g")
	if !ok {
		return
	}
	owner := map[group.TopicPartition]string{}
	target := map[group.TopicPartition]string{}
	for _, m := range g.Members {
		for _, tp := range append(slices.Clone(m.Assigned), m.Revoking...) {
			if o, dup := owner[tp]; dup {
				w.t.Fatalf("%s is owned by %s and %s at once: %+v", tp, o, m.MemberID, g)
			}
			owner[tp] = m.MemberID
		}
		for _, tp := range m.Target {
			if o, dup := target[tp]; dup {
				w.t.Fatalf("%s is in the targets of %s and %s: %+v", tp, o, m.MemberID, g)
			}
			target[tp] = m.MemberID
		}
		if m.MemberEpoch > g.GroupEpoch {
			w.t.Fatalf("member %s at epoch %d, past the group's %d", m.MemberID, m.MemberEpoch, g.GroupEpoch)
		}
	}
	if g.AssignmentEpoch > g.GroupEpoch {
		w.t.Fatalf("assignment epoch %d past the group epoch %d", g.AssignmentEpoch, g.GroupEpoch)
	}
}

// settle lets the world run with nothing failing: every message is
// delivered, every process polls, and time moves in small steps, until
// the group is Stable and nothing is in flight (or it gives up).
func (w *consumerWorld) settle() {
	for round := 0; round < 200; round++ {
		for _, name := range slices.Sorted(maps.Keys(w.procs)) {
			w.poll(name)
			for len(w.toCoord[w.addr(name)]) > 0 || len(w.toProc[name]) > 0 {
				w.deliverTo(w.addr(name))
				w.deliverFrom(name)
			}
		}
		w.tick(1000)
		w.checkSafety()
		if g, ok := w.coord.Group("g"); ok && g.State == group.ConsumerGroupStable && w.quiet() && len(g.Members) == len(w.live) && w.reconciled(g) {
			return
		}
	}
}

// reconciled reports whether every live process owns what the
// coordinator has it own.
func (w *consumerWorld) reconciled(g group.ConsumerGroupStatus) bool {
	for name := range w.live {
		p := w.procs[name]
		for _, m := range g.Members {
			if m.MemberID == p.m.MemberID() && !slices.Equal(m.Assigned, p.m.Owned()) {
				return false
			}
		}
	}
	return true
}

func (w *consumerWorld) quiet() bool {
	for addr, q := range w.toCoord {
		if name, _, _ := strings.Cut(addr, "#"); len(q) > 0 && w.procs[name] != nil && addr == w.addr(name) {
			return false
		}
	}
	for _, q := range w.toProc {
		if len(q) > 0 {
			return false
		}
	}
	return true
}

// checkConverged compares the settled group with the model.
func (w *consumerWorld) checkConverged() {
	g, ok := w.coord.Group("g")
	if len(w.live) == 0 {
		if ok && len(g.Members) > 0 {
			w.t.Fatalf("no process runs, yet the group has members %+v", g.Members)
		}
		return
	}
	if !ok || g.State != group.ConsumerGroupStable {
		w.t.Fatalf("the group did not settle: %+v", g)
	}
	wantMembers := map[string]bool{}
	for name := range w.live {
		wantMembers[w.procs[name].m.MemberID()] = true
	}
	subscribed := map[string]int{}
	for _, m := range g.Members {
		if !wantMembers[m.MemberID] {
			w.t.Fatalf("member %s is in the group but no live process is it (%v)", m.MemberID, wantMembers)
		}
		for _, t := range m.SubscribedTopics {
			subscribed[t]++
		}
	}
	if len(g.Members) != len(wantMembers) {
		w.t.Fatalf("the group has %d members, %d processes run", len(g.Members), len(wantMembers))
	}
	owned := map[group.TopicPartition]bool{}
	for name := range w.live {
		p := w.procs[name]
		for _, m := range g.Members {
			if m.MemberID == p.m.MemberID() && !slices.Equal(m.Assigned, p.m.Owned()) {
				w.t.Fatalf("%s owns %s, the coordinator says %s", name, group.FormatPartitions(p.m.Owned()), group.FormatPartitions(m.Assigned))
			}
		}
		for _, tp := range p.m.Owned() {
			if owned[tp] {
				w.t.Fatalf("%s is owned by two processes", tp)
			}
			owned[tp] = true
		}
	}
	for _, tm := range w.topics {
		if subscribed[tm.Topic] == 0 {
			continue
		}
		for p := range tm.Partitions {
			if tp := (group.TopicPartition{Topic: tm.Topic, Partition: p}); !owned[tp] {
				w.t.Fatalf("%s is subscribed but owned by nobody: %+v", tp, g)
			}
		}
	}
}

// actions are what members and the network do, for t.Repeat: processes
// start, crash, close and poll, messages are delivered, time moves; the
// safety checks run after each.
func (w *consumerWorld) actions() map[string]func(*rapid.T) {
	return map[string]func(*rapid.T){
		"start": func(t *rapid.T) {
			name := rapid.SampledFrom(consumerNames).Draw(t, "name")
			if w.procs[name] != nil {
				t.Skip("running")
			}
			topics := rapid.SampledFrom([][]string{{"orders"}, {"orders"}, {"orders", "audit"}, {"audit"}}).Draw(t, "topics")
			w.start(name, topics)
		},
		"crash": func(t *rapid.T) {
			name := rapid.SampledFrom(consumerNames).Draw(t, "name")
			if w.procs[name] == nil {
				t.Skip("not running")
			}
			delete(w.procs, name)
			delete(w.live, name)
		},
		"close": func(t *rapid.T) {
			name := rapid.SampledFrom(consumerNames).Draw(t, "name")
			p := w.procs[name]
			if p == nil {
				t.Skip("not running")
			}
			p.m.Close()
			w.handle(name)
			delete(w.live, name)
		},
		"poll": func(t *rapid.T) {
			w.poll(rapid.SampledFrom(consumerNames).Draw(t, "name"))
		},
		"deliver-request": func(t *rapid.T) {
			name := rapid.SampledFrom(consumerNames).Draw(t, "name")
			w.deliverTo(w.addr(name))
		},
		"deliver-answer": func(t *rapid.T) {
			w.deliverFrom(rapid.SampledFrom(consumerNames).Draw(t, "name"))
		},
		"tick": func(t *rapid.T) {
			w.tick(rapid.SampledFrom([]int64{100, 1000, 5000, 20000, 50000}).Draw(t, "ms"))
		},
		"": func(t *rapid.T) { w.checkSafety() },
	}
}

// TestConsumerGroupConverges: whatever members start, crash, close, stall
// and poll, with messages delayed and time jumping, a consumer-protocol
// group never has a partition owned twice at the coordinator, and once the
// world runs without failures it settles: the live processes own every
// subscribed partition exactly once, as the coordinator says.
func TestConsumerGroupConverges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := newConsumerWorld(t, rapid.SampledFrom([]string{"uniform", "range"}).Draw(t, "assignor"))
		t.Repeat(w.actions())
		w.settle()
		w.checkConverged()
	})
}
