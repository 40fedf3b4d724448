package group_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/group"
)

// TestDataDriven runs the scenario files in testdata/scenarios/. Rewrite the expected
// output with -rewrite and review the diff.
//
// Commands (times in ms):
//
//	coordinator initial-delay=3000          reset the world with this config
//	metadata topic=orders partitions=6      topic partition counts, told to every member
//	member name=E1 group=g topics=orders assignors=sticky [instance=w1] [session=45000] [heartbeat=3000] [max-poll=300000]
//	tick ms=3000 [step=1000]                advance the clock; members tick and poll each step
//	crash name=E1                           kill -9: no more requests, no LeaveGroup
//	restart name=E1                         a new process with the same config
//	close name=E1                           clean shutdown: revoke, LeaveGroup (dynamic)
//	stuck name=E1 / unstick name=E1         stop / resume calling poll()
//	commit name=E1 topic=t partition=0 offset=10
//	status                                  every group as the coordinator and the members see it
//	expire-offsets retention=MS             the coordinator's offsets expiry (offsets.retention.minutes in ms)
//	stored                                  the latest group metadata record of each group
//	store-error code=COORDINATOR_NOT_AVAILABLE  fail every group metadata append with it (NONE: succeed)
//	store-hold                              group metadata appends wait (no answer) until store-release
//	store-release                           the waiting appends end, oldest first (with store-error's code)
//	delete-group group=g                    the DeleteGroups API
//	move-coordinator                        a new coordinator, loaded from the stored records
//
// Raw requests from an address that is not a simulated consumer, to show
// the coordinator's answers one by one:
//
//	join from=x group=g [member=ID] [instance=I] [session=45000] [assignors=range] [topics=t]
//	sync from=x group=g member=ID gen=1 [instance=I]   (input lines: "memberID topic p p ...")
//	heartbeat from=x group=g member=ID gen=1 [instance=I]
//	leave from=x group=g member=ID [instance=I]
//	commit-raw from=x group=g member=ID gen=1 topic=t partition=0 offset=5
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata/scenarios", func(t *testing.T, path string) {
		e := newEnv(t, group.DefaultConfig())
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			e.t = t
			e.out.Reset()
			if d.Cmd == "coordinator" {
				cfg := group.DefaultConfig()
				if d.HasArg("initial-delay") {
					d.ScanArgs(t, "initial-delay", &cfg.GroupInitialRebalanceDelayMs)
				}
				e = newEnv(t, cfg)
				return "ok\n"
			}
			e.handle(t, d)
			if e.out.Len() == 0 {
				return "ok\n"
			}
			return e.out.String()
		})
	})
}

func (e *env) handle(t *testing.T, d *datadriven.TestData) {
	switch d.Cmd {
	case "metadata":
		var topic string
		var n int32
		d.ScanArgs(t, "topic", &topic)
		d.ScanArgs(t, "partitions", &n)
		e.metadata = slices.DeleteFunc(e.metadata, func(tm group.TopicMetadata) bool { return tm.Topic == topic })
		e.metadata = append(e.metadata, group.TopicMetadata{Topic: topic, Partitions: n})
		for _, name := range e.names() {
			e.members[name].m.SetMetadata(e.metadata)
		}
	case "member":
		e.addMember(t, d)
	case "tick":
		var ms, step int64 = 0, 1000
		d.ScanArgs(t, "ms", &ms)
		if d.HasArg("step") {
			d.ScanArgs(t, "step", &step)
		}
		e.advance(ms, step)
	case "crash":
		name, sm := e.member(t, d)
		sm.crashed = true
		e.logf("%s crashed", name)
	case "restart":
		name, sm := e.member(t, d)
		e.start(name, sm.cfg)
	case "close":
		_, sm := e.member(t, d)
		sm.m.Close()
		e.deliver()
	case "stuck", "unstick":
		_, sm := e.member(t, d)
		sm.stuck = d.Cmd == "stuck"
	case "commit":
		_, sm := e.member(t, d)
		var po group.PartitionOffset
		d.ScanArgs(t, "topic", &po.Topic)
		d.ScanArgs(t, "partition", &po.Partition)
		d.ScanArgs(t, "offset", &po.Offset)
		po.LeaderEpoch = -1
		sm.m.Commit([]group.PartitionOffset{po})
		e.deliver()
	case "status":
		e.status()
	case "expire-offsets":
		e.expireOffsets(t, d)
	case "join", "sync", "heartbeat", "leave", "commit-raw":
		e.raw(t, d)
	case "store-error":
		e.setStoreError(t, d)
	case "store-hold":
		e.holdStores = true
	case "store-release":
		e.releaseStores()
	case "delete-group":
		var id string
		d.ScanArgs(t, "group", &id)
		e.logf("delete group %s: %s", id, e.coord.DeleteGroup(id).String())
		e.deliver()
	case "stored":
		e.printStored()
	case "move-coordinator":
		e.moveCoordinator()
	default:
		d.Fatalf(t, "unknown command %q", d.Cmd)
	}
}

func (e *env) addMember(t *testing.T, d *datadriven.TestData) {
	var name, groupID, topics, assignors string
	d.ScanArgs(t, "name", &name)
	d.ScanArgs(t, "group", &groupID)
	d.ScanArgs(t, "topics", &topics)
	d.ScanArgs(t, "assignors", &assignors)
	var as []group.Assignor
	for _, a := range strings.Split(assignors, ",") {
		as = append(as, group.Assignors()[a])
		if as[len(as)-1] == nil {
			d.Fatalf(t, "unknown assignor %q", a)
		}
	}
	cfg := group.DefaultMemberConfig(groupID, name, strings.Split(topics, ","), as...)
	if d.HasArg("instance") {
		d.ScanArgs(t, "instance", &cfg.GroupInstanceID)
	}
	for key, field := range map[string]*int32{"session": &cfg.SessionTimeoutMs, "heartbeat": &cfg.HeartbeatIntervalMs, "max-poll": &cfg.MaxPollIntervalMs} {
		if d.HasArg(key) {
			d.ScanArgs(t, key, field)
		}
	}
	e.start(name, cfg)
}

// start runs a fresh consumer process for name and lets it poll once.
func (e *env) start(name string, cfg group.MemberConfig) {
	m, err := group.NewMember(cfg, e.nowMs)
	if err != nil {
		e.t.Fatalf("NewMember(%s): %v", name, err)
	}
	m.SetMetadata(e.metadata)
	e.members[name] = &simMember{cfg: cfg, m: m}
	e.logf("%s starts", name)
	m.Poll(e.nowMs)
	e.deliver()
}

func (e *env) status() {
	for _, g := range e.coord.Groups() {
		fmt.Fprintf(&e.out, "group %s: %s generation %d protocol %q leader %q\n", g.GroupID, g.State, g.Generation, g.Protocol, g.Leader)
		for _, m := range g.Members {
			fmt.Fprintf(&e.out, "  member %s client %s assignment %s\n", m.MemberID, m.ClientID, group.FormatPartitions(m.Assignment))
		}
		for _, tp := range e.store.CommittedPartitions(g.GroupID) {
			po, _ := e.store.Committed(g.GroupID, tp)
			fmt.Fprintf(&e.out, "  committed %s=%d\n", tp, po.Offset)
		}
	}
	for _, name := range e.names() {
		sm := e.members[name]
		state := sm.m.State().String()
		if sm.crashed {
			state = "crashed"
		}
		st := sm.m.Status()
		fmt.Fprintf(&e.out, "consumer %s (%s, %s): member %q gen %d owns %s fetching %s\n", name, st.Protocol, state,
			st.MemberID, st.Generation, group.FormatPartitions(st.Owned), group.FormatPartitions(st.Fetchable))
		if st.Idle != "" && !sm.crashed {
			fmt.Fprintf(&e.out, "  no partitions: %s\n", st.Idle)
		}
	}
}

func (e *env) member(t *testing.T, d *datadriven.TestData) (string, *simMember) {
	var name string
	d.ScanArgs(t, "name", &name)
	sm, ok := e.members[name]
	if !ok {
		d.Fatalf(t, "no member %q", name)
	}
	return name, sm
}

// setStoreError makes every group metadata append fail with code (a
// Kafka error name), or succeed again with code=NONE.
func (e *env) setStoreError(t *testing.T, d *datadriven.TestData) {
	var name string
	d.ScanArgs(t, "code", &name)
	for _, c := range []group.ErrorCode{group.None, group.CoordinatorNotAvailable, group.NotCoordinator, group.RebalanceInProgress, group.UnknownServerError} {
		if c.String() == name {
			e.storeError = c
			return
		}
	}
	d.Fatalf(t, "unknown error %q", name)
}

// printStored prints the latest metadata record of each group.
func (e *env) printStored() {
	for _, r := range e.groups.Records() {
		fmt.Fprintf(&e.out, "group %s: generation %d protocol %q leader %q state since %.1fs\n", r.Group, r.Generation, r.Protocol, r.Leader, float64(r.CurrentStateTimestampMs)/1000)
		for _, m := range r.Members {
			fmt.Fprintf(&e.out, "  member %s client %s session %dms rebalance %dms assignment %s\n", m.MemberID, m.ClientID, m.SessionTimeoutMs, m.RebalanceTimeoutMs, group.FormatPartitions(m.Assignment))
		}
	}
}

// moveCoordinator replaces the coordinator by a new one that loads every
// group from its latest stored record, as a broker taking the offsets
// partition over does. Requests the old one held are lost with it.
func (e *env) moveCoordinator() {
	c, err := group.NewCoordinator(e.cfg, e.store, e.nowMs)
	require.NoError(e.t, err)
	e.coord = c
	e.logf("the coordinator moves")
	for _, r := range e.groups.Records() {
		if c.LoadGroup(r) {
			g, _ := c.Group(r.Group)
			e.logf("new coordinator loaded group %s: %s gen %d, %d members", g.GroupID, g.State, g.Generation, len(g.Members))
		}
	}
	e.noteTransitions()
}
