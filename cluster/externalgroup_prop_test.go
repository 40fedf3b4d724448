package cluster_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
)

var (
	xgroupSeeds = flag.Int("xgroup.n", 4, "sequences of TestExternalGroupsRandomized")
	xgroupSeed  = flag.Uint64("xgroup.seed", 0, "run only this sequence of TestExternalGroupsRandomized")
	xgroupOps   = flag.Int("xgroup.ops", 50, "operations per sequence of TestExternalGroupsRandomized")
)

// xmember is a small Kafka group client driven by the randomized test: one
// request at a time, the classic protocol's reactions to each answer, a
// heartbeat every second, and a leader that deals the partitions of g
// round robin.
type xmember struct {
	c      xclient
	alive  bool
	id     string
	gen    int32
	state  string // "idle" (must join), "joining", "syncing", "stable"
	coord  int32  // 0: unknown
	parts  []int32
	lastHB int64
	// the request in flight
	inflight uint64
	kind     string
	broker   int32
	sentAt   int64
	commit   map[int32]int64
}

// xrun is one randomized sequence.
type xrun struct {
	t       *testing.T
	w       *cluster.World
	rng     *rand.Rand
	members []*xmember
	answers map[uint64]kmsg.Response
	down    map[int32]bool
	// restarts counts each broker's process ends, so that a generation is
	// named by its coordinator's process.
	restarts map[int32]int
	// owners: (coordinator, process, generation) -> partition -> member id.
	owners map[string]map[int32]string
	// acked is each partition's last acknowledged commit; maybe the values
	// of commits whose answer was lost since (they may be stored), pending
	// those of commits not answered yet.
	acked   map[int32]int64
	maybe   map[int32][]int64
	pending map[int32][]int64
	log     []string
	// deleted counts the group's deletions: generations start again at 1
	// after one.
	deleted int
}

const xgroupID = "rand"

func (r *xrun) logf(format string, args ...any) {
	r.log = append(r.log, fmt.Sprintf("t=%d ", r.w.NowMs())+fmt.Sprintf(format, args...))
}

func (r *xrun) collect() {
	for _, a := range r.w.ExternalAnswers() {
		r.answers[a.ID] = a.Response
	}
}

func (r *xrun) send(m *xmember, broker int32, kind string, req kmsg.Request) {
	m.inflight = m.c.send(r.t, r.w, broker, req)
	m.kind, m.broker, m.sentAt = kind, broker, r.w.NowMs()
	if kind != "heartbeat" {
		r.logf("%s: %s to broker %d (request %d)", m.c.id, kind, broker, m.inflight)
	}
	r.collect()
}

// findCoordinator asks a running broker; the answer is immediate.
func (r *xrun) findCoordinator(m *xmember) bool {
	var up []int32
	for b := int32(1); b <= 3; b++ {
		if !r.down[b] {
			up = append(up, b)
		}
	}
	req := kmsg.NewPtrFindCoordinatorRequest()
	req.SetVersion(int16(r.rng.IntN(5)))
	req.CoordinatorKey, req.CoordinatorKeys = xgroupID, []string{xgroupID}
	id := m.c.send(r.t, r.w, up[r.rng.IntN(len(up))], req)
	r.collect()
	resp, ok := r.answers[id].(*kmsg.FindCoordinatorResponse)
	require.True(r.t, ok, "FindCoordinator is answered at once")
	node, code := resp.NodeID, resp.ErrorCode
	if req.Version >= 4 {
		node, code = resp.Coordinators[0].NodeID, resp.Coordinators[0].ErrorCode
	}
	require.Contains(r.t, []int16{0, 15}, code, "FindCoordinator error")
	if code == 0 {
		m.coord = node
	}
	return code == 0
}

var xmeta = map[string][]byte{"range": consumerMeta([]string{"g"}, nil, -1)}

// act sends m's next request if it has none in flight.
func (r *xrun) act(m *xmember) {
	if !m.alive || m.inflight != 0 {
		return
	}
	if m.coord == 0 && !r.findCoordinator(m) {
		return
	}
	switch m.state {
	case "idle":
		m.state = "joining"
		r.send(m, m.coord, "join", joinReq(xgroupID, m.id, "", "consumer", xmeta, "range"))
	case "stable":
		if r.w.NowMs()-m.lastHB >= 1000 {
			m.lastHB = r.w.NowMs()
			r.send(m, m.coord, "heartbeat", heartbeatReq(xgroupID, m.id, m.gen))
		}
	}
}

// rejoin: the member joins again, keeping its id unless told it is unknown.
func (m *xmember) rejoin(forget, rediscover bool) {
	m.state, m.parts = "idle", nil
	if forget {
		m.id, m.gen = "", -1
	}
	if rediscover {
		m.coord = 0
	}
}

func isCoordinatorError(code int16) bool { return code == 15 || code == 16 }

// handle takes the answer to m's request, or (resp nil) the loss of its
// connection.
func (r *xrun) handle(m *xmember, resp kmsg.Response) {
	kind := m.kind
	commit := m.commit
	m.inflight, m.kind, m.commit = 0, "", nil
	r.unpend(commit)
	if resp == nil {
		r.logf("%s: %s lost (broker %d)", m.c.id, kind, m.broker)
		if kind == "commit" {
			for p, o := range commit {
				r.maybe[p] = append(r.maybe[p], o)
			}
		}
		if kind == "join" || kind == "sync" {
			m.rejoin(false, true)
		} else {
			m.coord = 0
		}
		return
	}
	switch a := resp.(type) {
	case *kmsg.JoinGroupResponse:
		r.logf("%s: JoinGroup %d gen %d member %s leader %s", m.c.id, a.ErrorCode, a.Generation, a.MemberID, a.LeaderID)
		switch {
		case a.ErrorCode == 79:
			m.id = a.MemberID
			m.rejoin(false, false)
		case a.ErrorCode == 0:
			m.id, m.gen, m.state = a.MemberID, a.Generation, "syncing"
			var plan map[string][]byte
			if a.LeaderID == a.MemberID {
				plan = map[string][]byte{}
				var ids []string
				for _, mm := range a.Members {
					ids = append(ids, mm.MemberID)
				}
				slices.Sort(ids)
				deal := map[string][]int32{}
				for p := int32(0); p < 4; p++ {
					deal[ids[int(p)%len(ids)]] = append(deal[ids[int(p)%len(ids)]], p)
				}
				for _, id := range ids {
					plan[id] = assignmentBytes("g", deal[id]...)
				}
			}
			r.send(m, m.coord, "sync", syncReq(xgroupID, m.id, m.gen, "consumer", "range", plan))
		case a.ErrorCode == 25:
			m.rejoin(true, false)
		case isCoordinatorError(a.ErrorCode):
			m.rejoin(false, true)
		default:
			r.t.Fatalf("JoinGroup answered %d", a.ErrorCode)
		}
	case *kmsg.SyncGroupResponse:
		r.logf("%s: SyncGroup %d %v", m.c.id, a.ErrorCode, a.MemberAssignment)
		switch {
		case a.ErrorCode == 0:
			m.state, m.parts, m.lastHB = "stable", assigned(r.t, a.MemberAssignment)["g"], r.w.NowMs()
			key := fmt.Sprintf("b%d.%d del %d gen %d", m.coord, r.restarts[m.coord], r.deleted, m.gen)
			if r.owners[key] == nil {
				r.owners[key] = map[int32]string{}
			}
			for _, p := range m.parts {
				if o, ok := r.owners[key][p]; ok && o != m.id {
					r.t.Fatalf("partition %d assigned to %s and %s in %s", p, o, m.id, key)
				}
				r.owners[key][p] = m.id
			}
		case a.ErrorCode == 25:
			m.rejoin(true, false)
		case a.ErrorCode == 27 || a.ErrorCode == 22:
			m.rejoin(false, false)
		case isCoordinatorError(a.ErrorCode):
			m.rejoin(false, true)
		default:
			r.t.Fatalf("SyncGroup answered %d", a.ErrorCode)
		}
	case *kmsg.HeartbeatResponse:
		switch {
		case a.ErrorCode == 0:
		case a.ErrorCode == 25:
			r.logf("%s: Heartbeat UNKNOWN_MEMBER_ID", m.c.id)
			m.rejoin(true, false)
		case a.ErrorCode == 27 || a.ErrorCode == 22:
			r.logf("%s: Heartbeat %d", m.c.id, a.ErrorCode)
			m.rejoin(false, false)
		case isCoordinatorError(a.ErrorCode):
			m.coord = 0
		default:
			r.t.Fatalf("Heartbeat answered %d", a.ErrorCode)
		}
	case *kmsg.OffsetCommitResponse:
		codes := commitCodes(a)
		r.logf("%s: OffsetCommit %v -> %v", m.c.id, commit, codes)
		for p, code := range codes {
			switch {
			case code == 0:
				r.acked[p], r.maybe[p] = commit[p], nil
			case isCoordinatorError(code):
				r.maybe[p] = append(r.maybe[p], commit[p])
				m.coord = 0
			case code == 22 || code == 25 || code == 27:
			default:
				r.t.Fatalf("OffsetCommit answered %d", code)
			}
		}
	case *kmsg.LeaveGroupResponse:
		r.logf("%s: LeaveGroup %d", m.c.id, a.ErrorCode)
	case *kmsg.OffsetFetchResponse:
		r.checkFetch(a)
	}
}

// unpend removes a commit from the pending ones.
func (r *xrun) unpend(commit map[int32]int64) {
	for p, o := range commit {
		if i := slices.Index(r.pending[p], o); i >= 0 {
			r.pending[p] = slices.Delete(r.pending[p], i, i+1)
		}
	}
}

// abandon forgets m's request in flight: a commit may still be stored.
func (r *xrun) abandon(m *xmember) {
	r.unpend(m.commit)
	for p, o := range m.commit {
		r.maybe[p] = append(r.maybe[p], o)
	}
	m.commit = nil
}

// checkFetch: every partition's committed offset is the last acknowledged
// commit, or one whose answer was lost after it.
func (r *xrun) checkFetch(a *kmsg.OffsetFetchResponse) {
	if a.Groups[0].ErrorCode != 0 {
		require.Contains(r.t, []int16{15, 16}, a.Groups[0].ErrorCode)
		return
	}
	got := map[int32]int64{}
	for _, tp := range a.Groups[0].Topics {
		for _, p := range tp.Partitions {
			got[p.Partition] = p.Offset
		}
	}
	for p := int32(0); p < 4; p++ {
		want, ok := r.acked[p]
		g, has := got[p]
		switch {
		case has && slices.Contains(r.maybe[p], g):
			r.acked[p], r.maybe[p] = g, nil // it was stored after all
		case has && slices.Contains(r.pending[p], g):
			// stored, its answer on the way
		case !ok && !has:
		case ok && has && g == want:
		default:
			r.t.Fatalf("OffsetFetch of partition %d: %d (present %v), want the acknowledged %d (present %v) or one of %v or %v", p, g, has, want, ok, r.maybe[p], r.pending[p])
		}
	}
	r.logf("OffsetFetch %v", got)
}

// pump runs the world for ms in 20 ms slices, delivering answers,
// timing out requests at brokers that went down, and letting every
// member act.
func (r *xrun) pump(ms int64) {
	for done := int64(0); done < ms; done += 20 {
		require.NoError(r.t, r.w.RunFor(20))
		r.collect()
		for _, m := range r.members {
			if m.inflight == 0 {
				r.act(m)
				continue
			}
			if resp, ok := r.answers[m.inflight]; ok {
				delete(r.answers, m.inflight)
				if m.alive {
					r.handle(m, resp)
				} else {
					m.inflight = 0
				}
				r.act(m)
				continue
			}
			st, _ := r.w.BrokerState(m.broker)
			timeout := int64(10_000)
			if m.kind == "join" {
				timeout = 25_000
			}
			if st != cluster.BrokerRunning || r.w.NowMs()-m.sentAt > timeout {
				if m.alive {
					r.handle(m, nil)
				} else {
					m.inflight = 0
				}
			}
		}
		if done%200 == 0 {
			r.checkWorld()
		}
	}
}

// checkWorld: in the world's view, no partition has two owners in a Stable group.
func (r *xrun) checkWorld() {
	gi := groupInfo(r.w, xgroupID)
	if gi.State != "Stable" {
		return
	}
	seen := map[int32]string{}
	for _, m := range gi.Members {
		for _, p := range m.Assignment {
			if o, ok := seen[p.Partition]; ok {
				r.t.Fatalf("the world's group %s generation %d: partition %d owned by %s and %s", gi.Name, gi.Generation, p.Partition, o, m.ID)
			}
			seen[p.Partition] = m.ID
		}
	}
}

func (r *xrun) step() {
	m := r.members[r.rng.IntN(len(r.members))]
	switch op := r.rng.IntN(10); {
	case op < 3:
		r.pump(int64(100 + r.rng.IntN(3000)))
	case op == 3 && m.alive:
		r.logf("%s crashes", m.c.id)
		r.abandon(m)
		m.alive = false
	case op == 3:
		r.logf("%s starts again", m.c.id)
		r.abandon(m)
		*m = xmember{c: m.c, alive: true, state: "idle", gen: -1}
	case op == 4 && m.alive && m.state == "stable" && m.inflight == 0 && m.coord != 0:
		r.logf("%s leaves", m.c.id)
		lv := kmsg.NewPtrLeaveGroupRequest()
		lv.SetVersion(int16(r.rng.IntN(6)))
		lv.Group, lv.MemberID = xgroupID, m.id
		lm := kmsg.NewLeaveGroupRequestMember()
		lm.MemberID = m.id
		lv.Members = append(lv.Members, lm)
		r.send(m, m.coord, "leave", lv)
		m.alive = false
	case op == 5 && m.alive && m.state == "stable" && m.inflight == 0 && m.coord != 0 && len(m.parts) > 0:
		offs := map[int32]int64{}
		for _, p := range m.parts {
			offs[p] = int64(r.rng.IntN(1000))
		}
		r.send(m, m.coord, "commit", commitReq(xgroupID, m.id, m.gen, "g", offs))
		m.commit = offs
		for p, o := range offs {
			r.pending[p] = append(r.pending[p], o)
		}
	case op == 6 && r.rng.IntN(4) == 0:
		admin := xmember{c: xclient{9, "admin", "10.0.0.9:1"}}
		if r.findCoordinator(&admin) {
			id := admin.c.send(r.t, r.w, admin.coord, deleteGroupsReq(xgroupID))
			r.collect()
			resp, ok := r.answers[id].(*kmsg.DeleteGroupsResponse)
			require.True(r.t, ok, "DeleteGroups is answered at once")
			require.Len(r.t, resp.Groups, 1)
			code := resp.Groups[0].ErrorCode
			require.Contains(r.t, []int16{0, 15, 16, 68, 69}, code, "DeleteGroups")
			r.logf("DeleteGroups: %d", code)
			if code == 0 {
				// every offset stored is gone; an answer on its way may
				// still store one (pending)
				require.NotEqual(r.t, "Stable", groupInfo(r.w, xgroupID).State)
				r.acked, r.maybe, r.deleted = map[int32]int64{}, map[int32][]int64{}, r.deleted+1
			}
		}
	case op == 6:
		admin := xmember{c: xclient{9, "admin", "10.0.0.9:1"}}
		if r.findCoordinator(&admin) {
			req := kmsg.NewPtrOffsetFetchRequest()
			req.SetVersion(8)
			rg := kmsg.NewOffsetFetchRequestGroup()
			rg.Group = xgroupID
			req.Groups = append(req.Groups, rg)
			id := admin.c.send(r.t, r.w, admin.coord, req)
			r.collect()
			resp, ok := r.answers[id].(*kmsg.OffsetFetchResponse)
			require.True(r.t, ok, "OffsetFetch is answered at once")
			r.checkFetch(resp)
		}
	case op == 7:
		var downB int32
		for b, d := range r.down {
			if d {
				downB = b
			}
		}
		if downB != 0 {
			r.logf("broker %d starts", downB)
			require.NoError(r.t, r.w.Start(downB))
			r.down[downB] = false
			break
		}
		b := int32(1 + r.rng.IntN(3))
		if r.rng.IntN(2) == 0 {
			r.logf("broker %d is killed", b)
			require.NoError(r.t, r.w.Kill(b))
		} else {
			r.logf("broker %d is stopped", b)
			require.NoError(r.t, r.w.Stop(b))
		}
		r.down[b], r.restarts[b] = true, r.restarts[b]+1
	default:
		r.pump(int64(20 + r.rng.IntN(500)))
	}
}

// TestExternalGroupsRandomized: four external members of one group join,
// leave, crash (stop sending anything) and start again, commit and read
// offsets, in random order, while brokers are killed, stopped and
// started, and an admin now and then deletes the group (DeleteGroups:
// refused while it has members). Invariants: no partition is assigned to two members of one
// generation (of one coordinator process); once the faults end, every
// member that keeps heartbeating is Stable in one generation with
// partitions, the four partitions dealt among them; an acknowledged
// commit is what OffsetFetch returns (or a later one whose answer was
// lost); every answer is one Kafka's client expects, and the world
// records no internal error. -xgroup.n, -xgroup.ops, -xgroup.seed.
func TestExternalGroupsRandomized(t *testing.T) {
	seeds := []uint64{}
	for i := range *xgroupSeeds {
		seeds = append(seeds, uint64(i+1))
	}
	if *xgroupSeed != 0 {
		seeds = []uint64{*xgroupSeed}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			r := &xrun{t: t, rng: rand.New(rand.NewPCG(seed, 77)), answers: map[uint64]kmsg.Response{}, down: map[int32]bool{},
				restarts: map[int32]int{}, owners: map[string]map[int32]string{}, acked: map[int32]int64{}, maybe: map[int32][]int64{}, pending: map[int32][]int64{}}
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("replay: go test ./cluster -run 'TestExternalGroupsRandomized' -xgroup.seed=%d -xgroup.ops=%d\n%s", seed, *xgroupOps, strings.Join(r.log[max(0, len(r.log)-60):], "\n"))
				}
			})
			r.w = xgroupWorld(t, seed)
			for i := range 4 {
				r.members = append(r.members, &xmember{c: xclient{int32(i + 1), fmt.Sprint("m", i+1), fmt.Sprintf("10.0.0.%d:5000", i+1)}, alive: true, state: "idle", gen: -1})
			}
			for range *xgroupOps {
				r.step()
			}
			for b, d := range r.down {
				if d {
					require.NoError(t, r.w.Start(b))
					r.down[b] = false
				}
			}
			r.logf("faults end")
			r.pump(40_000)
			var alive []*xmember
			for _, m := range r.members {
				if m.alive {
					alive = append(alive, m)
				}
			}
			gi := groupInfo(r.w, xgroupID)
			if len(alive) == 0 {
				require.Contains(t, []string{"Empty", ""}, gi.State)
				return
			}
			require.Equal(t, "Stable", gi.State)
			require.Len(t, gi.Members, len(alive), "the group's members are those still heartbeating")
			dealt := map[int32]bool{}
			for _, m := range alive {
				require.Equal(t, "stable", m.state, "%s", m.c.id)
				require.Equal(t, gi.Generation, m.gen, "%s's generation", m.c.id)
				require.NotEmpty(t, m.parts, "%s has partitions", m.c.id)
				for _, p := range m.parts {
					require.False(t, dealt[p], "partition %d twice", p)
					dealt[p] = true
				}
			}
			require.Len(t, dealt, 4)
			require.Empty(t, r.w.InternalErrors())
		})
	}
}
