package group_test

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/group"
)

// TestConsumerGroupDataDriven runs the files of testdata/consumer/: scripted
// ConsumerGroupHeartbeats, commits and fetches to a
// ConsumerGroupCoordinator, with the answers and the group's state. Rewrite
// the expected output with -rewrite and review the diff.
//
// Commands (times in ms):
//
//	coordinator [session=45000] [heartbeat=5000] [max-size=0] [assignors=uniform,range]
//	topic name=orders partitions=6             a topic (its id derived from its name)
//	heartbeat group=g member=A epoch=0 [instance=I] [topics=orders,...] [regex=R] [assignor=range]
//	          [rebalance-timeout=300000] [owned=orders-0,orders-1|none]
//	                                           owned absent: not sent; none: an empty list
//	commit group=g member=A epoch=1 [version=9] topic=orders partition=0 offset=5
//	fetch group=g [member=A epoch=1]
//	tick ms=1000                               advance the clock
//	describe [group=g]                         the group(s) as ConsumerGroupDescribe sees them
//	delete group=g
//	expire-offsets retention=60000             the offsets expiry (offsets.retention.minutes in ms)
func TestConsumerGroupDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata/consumer", func(t *testing.T, path string) {
		e := newConsumerEnv(t, group.DefaultConsumerGroupConfig())
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			e.out.Reset()
			e.handle(t, d)
			if e.out.Len() == 0 {
				return "ok\n"
			}
			return e.out.String()
		})
	})
}

// consumerEnv is one coordinator, an offset store, topics and a clock.
type consumerEnv struct {
	t      *testing.T
	nowMs  int64
	store  *group.MemoryOffsetStore
	coord  *group.ConsumerGroupCoordinator
	topics []group.TopicMetadata
	out    strings.Builder
	// commitMs is the time of each stored offset's latest commit, by
	// group (for expire-offsets).
	commitMs map[string]map[group.TopicPartition]int64
}

func newConsumerEnv(t *testing.T, cfg group.ConsumerGroupConfig) *consumerEnv {
	e := &consumerEnv{t: t, store: &group.MemoryOffsetStore{}}
	c, err := group.NewConsumerGroupCoordinator(cfg, e.store, 0)
	require.NoError(t, err)
	e.coord = c
	return e
}

// topicID derives a topic's id from its name, so files read the same.
func topicID(name string) [16]byte {
	sum := sha256.Sum256([]byte(name))
	var id [16]byte
	copy(id[:], sum[:16])
	return id
}

func (e *consumerEnv) handle(t *testing.T, d *datadriven.TestData) {
	switch d.Cmd {
	case "coordinator":
		cfg := group.DefaultConsumerGroupConfig()
		scanInt32(t, d, "session", &cfg.SessionTimeoutMs)
		scanInt32(t, d, "heartbeat", &cfg.HeartbeatIntervalMs)
		if d.HasArg("max-size") {
			d.ScanArgs(t, "max-size", &cfg.MaxSize)
		}
		if d.HasArg("assignors") {
			var s string
			d.ScanArgs(t, "assignors", &s)
			cfg.Assignors = strings.Split(s, ",")
		}
		*e = *newConsumerEnv(t, cfg)
	case "topic":
		var name string
		var n int32
		d.ScanArgs(t, "name", &name)
		d.ScanArgs(t, "partitions", &n)
		e.topics = slices.DeleteFunc(e.topics, func(tm group.TopicMetadata) bool { return tm.Topic == name })
		e.topics = append(e.topics, group.TopicMetadata{Topic: name, Partitions: n, ID: topicID(name)})
		e.coord.SetTopics(e.topics)
	case "heartbeat":
		e.heartbeat(t, d)
	case "commit":
		e.commit(t, d)
	case "fetch":
		f := group.OffsetFetch{MemberEpoch: -1}
		d.ScanArgs(t, "group", &f.GroupID)
		if d.HasArg("member") {
			d.ScanArgs(t, "member", &f.MemberID)
		}
		scanInt32(t, d, "epoch", &f.MemberEpoch)
		e.step(t, f)
	case "tick":
		var ms int64
		d.ScanArgs(t, "ms", &ms)
		before := e.coord.Groups()
		e.nowMs += ms
		e.coord.Tick(e.nowMs)
		e.printFenced(before)
	case "describe":
		var id string
		if d.HasArg("group") {
			d.ScanArgs(t, "group", &id)
		}
		for _, g := range e.coord.Groups() {
			if id == "" || g.GroupID == id {
				e.describe(g)
			}
		}
	case "delete":
		var id string
		d.ScanArgs(t, "group", &id)
		fmt.Fprintf(&e.out, "%s\n", e.coord.DeleteGroup(id))
		e.drain()
	case "expire-offsets":
		e.expireOffsets(t, d)
	default:
		d.Fatalf(t, "unknown command %q", d.Cmd)
	}
}

func scanInt32(t *testing.T, d *datadriven.TestData, key string, v *int32) {
	if d.HasArg(key) {
		d.ScanArgs(t, key, v)
	}
}

func (e *consumerEnv) heartbeat(t *testing.T, d *datadriven.TestData) {
	r := group.ConsumerGroupHeartbeat{RebalanceTimeoutMs: -1, ClientID: "client", ClientHost: "/127.0.0.1"}
	d.ScanArgs(t, "group", &r.GroupID)
	if d.HasArg("member") {
		d.ScanArgs(t, "member", &r.MemberID)
	}
	d.ScanArgs(t, "epoch", &r.MemberEpoch)
	for key, field := range map[string]*string{"instance": &r.InstanceID, "assignor": &r.ServerAssignor} {
		if d.HasArg(key) {
			d.ScanArgs(t, key, field)
		}
	}
	scanInt32(t, d, "rebalance-timeout", &r.RebalanceTimeoutMs)
	if d.HasArg("topics") {
		var s string
		d.ScanArgs(t, "topics", &s)
		r.SubscribedTopicNames = strings.Split(s, ",")
	}
	if d.HasArg("regex") {
		var s string
		d.ScanArgs(t, "regex", &s)
		r.SubscribedTopicRegex = &s
	}
	if d.HasArg("owned") {
		var s string
		d.ScanArgs(t, "owned", &s)
		r.Owned = parsePartitions(t, s)
	}
	e.step(t, r)
}

// parsePartitions reads "orders-0,orders-1" ("none": an empty list).
func parsePartitions(t *testing.T, s string) []group.TopicPartition {
	out := []group.TopicPartition{}
	if s == "none" {
		return out
	}
	for _, p := range strings.Split(s, ",") {
		i := strings.LastIndex(p, "-")
		n, err := strconv.Atoi(p[i+1:])
		require.NoError(t, err, "partition %q", p)
		out = append(out, group.TopicPartition{Topic: p[:i], Partition: int32(n)})
	}
	return out
}

func (e *consumerEnv) commit(t *testing.T, d *datadriven.TestData) {
	c := group.OffsetCommit{Version: 9}
	d.ScanArgs(t, "group", &c.GroupID)
	if d.HasArg("member") {
		d.ScanArgs(t, "member", &c.MemberID)
	}
	d.ScanArgs(t, "epoch", &c.GenerationID)
	if d.HasArg("version") {
		d.ScanArgs(t, "version", &c.Version)
	}
	po := group.PartitionOffset{LeaderEpoch: -1}
	d.ScanArgs(t, "topic", &po.Topic)
	d.ScanArgs(t, "partition", &po.Partition)
	d.ScanArgs(t, "offset", &po.Offset)
	c.Offsets = []group.PartitionOffset{po}
	e.step(t, c)
}

// step hands r to the coordinator, stores what it commits and prints the
// answer.
func (e *consumerEnv) step(t *testing.T, r group.Request) {
	e.coord.Tick(e.nowMs)
	require.NoError(t, e.coord.Step("x", r))
	e.drain()
}

func (e *consumerEnv) drain() {
	rd := e.coord.Ready()
	for _, c := range rd.Commits {
		require.NoError(e.t, e.store.Commit(c))
		e.commitMs = noteCommitTime(e.commitMs, c)
	}
	for _, o := range rd.Responses {
		fmt.Fprintln(&e.out, describeConsumerResponse(o.Response))
	}
}

func describeConsumerResponse(r group.Response) string {
	switch r := r.(type) {
	case group.ConsumerGroupHeartbeatResponse:
		if r.Error != group.None {
			return fmt.Sprintf("%s: %s", r.Error.String(), r.Message)
		}
		s := fmt.Sprintf("member=%s epoch=%d interval=%d", r.MemberID, r.MemberEpoch, r.HeartbeatIntervalMs)
		if r.Assignment != nil {
			s += " assignment=" + group.FormatPartitions(r.Assignment)
		}
		return s
	case group.OffsetCommitResponse:
		return "OffsetCommit " + r.Error.String()
	default:
		return group.DescribeResponse(r)
	}
}

func (e *consumerEnv) describe(g group.ConsumerGroupStatus) {
	fmt.Fprintf(&e.out, "group %s %s epoch=%d assignment-epoch=%d assignor=%s\n", g.GroupID, g.State, g.GroupEpoch, g.AssignmentEpoch, g.AssignorName)
	for _, m := range g.Members {
		fmt.Fprintf(&e.out, "  %s epoch=%d %s topics=%v", m.MemberID, m.MemberEpoch, m.State, m.SubscribedTopics)
		if m.SubscribedTopicRegex != "" {
			fmt.Fprintf(&e.out, " regex=%s", m.SubscribedTopicRegex)
		}
		fmt.Fprintf(&e.out, " assigned=%s", group.FormatPartitions(m.Assigned))
		if len(m.Revoking) > 0 {
			fmt.Fprintf(&e.out, " revoking=%s", group.FormatPartitions(m.Revoking))
		}
		if len(m.Pending) > 0 {
			fmt.Fprintf(&e.out, " pending=%s", group.FormatPartitions(m.Pending))
		}
		fmt.Fprintf(&e.out, " target=%s session=%d", group.FormatPartitions(m.Target), m.SessionDeadlineMs)
		if m.InstanceID != "" {
			fmt.Fprintf(&e.out, " instance=%s", m.InstanceID)
		}
		if m.RebalanceDeadlineMs != 0 {
			fmt.Fprintf(&e.out, " rebalance-deadline=%d", m.RebalanceDeadlineMs)
		}
		fmt.Fprintln(&e.out)
	}
	for _, tp := range e.store.CommittedPartitions(g.GroupID) {
		po, _ := e.store.Committed(g.GroupID, tp)
		fmt.Fprintf(&e.out, "  committed %s=%d\n", tp, po.Offset)
	}
}

// printFenced prints the members a tick removed.
func (e *consumerEnv) printFenced(before []group.ConsumerGroupStatus) {
	for _, g := range before {
		after, _ := e.coord.Group(g.GroupID)
		for _, m := range g.Members {
			if !slices.ContainsFunc(after.Members, func(a group.ConsumerMemberStatus) bool { return a.MemberID == m.MemberID }) {
				fmt.Fprintf(&e.out, "%s: %s fenced, group epoch %d\n", g.GroupID, m.MemberID, after.GroupEpoch)
			}
		}
	}
}
