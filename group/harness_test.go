package group_test

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/group"
)

// env is a tiny world for the datadriven files: one coordinator, named
// consumers, a FIFO network that delivers at once, and a clock in ms.
type env struct {
	t      tb
	cfg    group.Config
	nowMs  int64
	store  *group.MemoryOffsetStore
	groups *group.MemoryGroupStore
	// storeError, if not None, fails every group metadata append with it.
	storeError group.ErrorCode
	// holdStores keeps group metadata appends in held, unanswered, until
	// released (an append waiting for in-sync replicas that do not come).
	holdStores bool
	held       []group.GroupRecord
	coord      *group.Coordinator
	members    map[string]*simMember
	metadata   []group.TopicMetadata
	lastSeen   map[string]string // group → "State gen N", to print transitions
	out        strings.Builder
	// checkEachDelivery, if set, runs after every message handled, so
	// invariants see the world between messages, not only between commands.
	checkEachDelivery func()
	// lose, if set, decides whether a request or response is lost on the way.
	lose func() bool
	// commitOnRevoke makes consumers commit the partitions they revoke
	// (auto-commit), so that they wait for the commit's answer.
	commitOnRevoke bool
	// sent counts the messages the network carried, for a lose that
	// decides by it.
	sent int
	// commitMs is the time of each stored offset's latest commit, by
	// group (for expire-offsets).
	commitMs map[string]map[group.TopicPartition]int64
	// onTransition, if set, sees each group whose state or generation
	// changed, when it is noticed (at the clock's time of the change).
	onTransition func(g group.GroupStatus, before string)
}

// tb is what the harness needs from *testing.T or *rapid.T.
type tb interface {
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	FailNow()
}

// simMember is one simulated consumer process.
type simMember struct {
	cfg     group.MemberConfig
	m       *group.Member
	crashed bool
	stuck   bool
}

func newEnv(t tb, cfg group.Config) *env {
	e := &env{t: t, cfg: cfg, store: &group.MemoryOffsetStore{}, groups: &group.MemoryGroupStore{}, members: map[string]*simMember{}, lastSeen: map[string]string{}}
	c, err := group.NewCoordinator(cfg, e.store, 0)
	require.NoError(t, err)
	e.coord = c
	return e
}

func (e *env) logf(format string, args ...any) {
	fmt.Fprintf(&e.out, "%6.1fs ", float64(e.nowMs)/1000)
	fmt.Fprintf(&e.out, format, args...)
	e.out.WriteByte('\n')
}

func (e *env) names() []string {
	out := make([]string, 0, len(e.members))
	for n := range e.members {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// deliver runs the network until nobody has anything to say.
func (e *env) deliver() {
	for round := 0; ; round++ {
		if round > 1000 {
			e.t.Fatalf("network did not quiesce after 1000 rounds at t=%dms:\n%s", e.nowMs, e.out.String())
		}
		moved := false
		for _, name := range e.names() {
			if sm := e.members[name]; !sm.crashed && sm.m.HasReady() {
				moved = true
				e.handleMemberReady(name, sm)
			}
		}
		if e.coord.HasReady() {
			moved = true
			e.handleCoordinatorReady()
		}
		e.noteTransitions()
		if !moved {
			return
		}
	}
}

func (e *env) handleMemberReady(name string, sm *simMember) {
	rd := sm.m.Ready()
	for _, err := range rd.Errors {
		e.logf("%s error: %v", name, err)
	}
	if len(rd.Lost) > 0 {
		e.logf("%s lost %s", name, group.FormatPartitions(rd.Lost))
	}
	if len(rd.Assigned) > 0 {
		e.logf("%s assigned %s", name, group.FormatPartitions(rd.Assigned))
	}
	for _, req := range rd.Requests {
		if e.lose != nil && e.lose() {
			e.logf("%s → %s (lost)", name, group.DescribeRequest(req))
			continue
		}
		if _, ok := req.(group.Heartbeat); !ok {
			e.logf("%s → %s", name, group.DescribeRequest(req))
		}
		require.NoError(e.t, e.coord.Step(name, req))
	}
	if len(rd.Revoke) > 0 {
		e.logf("%s revokes %s", name, group.FormatPartitions(rd.Revoke))
		var commits []group.PartitionOffset
		if e.commitOnRevoke {
			commits = commitsOf(rd.Revoke, int(e.nowMs))
		}
		sm.m.Revoked(commits)
	}
	if e.checkEachDelivery != nil {
		e.checkEachDelivery()
	}
}

func (e *env) handleCoordinatorReady() {
	rd := e.coord.Ready()
	for _, c := range rd.Commits {
		require.NoError(e.t, e.store.Commit(c))
		e.noteCommit(c)
		e.logf("coordinator stores %s %s=%d", c.Group, c.TopicPartition, c.Offset)
	}
	for _, g := range rd.Groups {
		if e.holdStores {
			e.logf("coordinator's append of group %s gen %d waits", g.Group, g.Generation)
			e.held = append(e.held, g)
			continue
		}
		e.storeGroup(g)
	}
	for _, o := range rd.Responses {
		sm := e.members[o.To]
		if e.lose != nil && e.lose() {
			e.logf("%s ← %s (lost)", o.To, group.DescribeResponse(o.Response))
			continue
		}
		if hb, ok := o.Response.(group.HeartbeatResponse); !ok || hb.Error != group.None || sm == nil {
			suffix := ""
			if sm != nil && sm.crashed {
				suffix = " (nobody listens)"
			}
			e.logf("%s ← %s%s", o.To, group.DescribeResponse(o.Response), suffix)
		}
		if sm != nil && !sm.crashed {
			require.NoError(e.t, sm.m.Step(o.Response))
		}
		if e.checkEachDelivery != nil {
			e.checkEachDelivery()
		}
	}
}

// storeGroup ends the append of group record g: it fails with storeError
// if one is set, else the record is stored.
func (e *env) storeGroup(g group.GroupRecord) {
	if e.storeError != group.None {
		e.logf("coordinator fails to store group %s gen %d: %s", g.Group, g.Generation, e.storeError)
		e.coord.GroupStored(g.StoreID, e.storeError)
		return
	}
	e.groups.Store(g)
	e.coord.GroupStored(g.StoreID, group.None)
}

// releaseStores ends the held appends, oldest first, and delivers what
// follows.
func (e *env) releaseStores() {
	held := e.held
	e.held, e.holdStores = nil, false
	for _, g := range held {
		e.logf("coordinator's append of group %s gen %d ends", g.Group, g.Generation)
		e.storeGroup(g)
		e.deliver()
	}
}

// noteTransitions prints every group whose state or generation changed.
func (e *env) noteTransitions() {
	for _, g := range e.coord.Groups() {
		now := fmt.Sprintf("%s gen %d", g.State, g.Generation)
		if before := e.lastSeen[g.GroupID]; before != now {
			e.logf("group %s: %s", g.GroupID, now)
			e.lastSeen[g.GroupID] = now
			if e.onTransition != nil {
				e.onTransition(g, before)
			}
		}
	}
}

// advance moves the clock by ms in steps: each step ticks the coordinator
// and every live member, and live members that are not stuck poll.
func (e *env) advance(ms, step int64) {
	for end := e.nowMs + ms; e.nowMs < end; {
		e.nowMs = min(e.nowMs+step, end)
		e.coord.Tick(e.nowMs)
		e.deliver()
		for _, name := range e.names() {
			sm := e.members[name]
			if sm.crashed {
				continue
			}
			sm.m.Tick(e.nowMs)
			if !sm.stuck {
				sm.m.Poll(e.nowMs)
			}
		}
		e.deliver()
	}
}
