package scenarios

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/stretchr/testify/require"
)

// a state like eager-vs-cooperative after step 2: E1 gave everything up,
// E2 still reads.
var groupState = cluster.State{
	Partitions: []cluster.PartitionInfo{{Topic: "users", Partition: 1, Leader: 2, Logs: []cluster.LogInfo{
		{Broker: 1, Role: "follower", LogEndOffset: 1, HighWatermark: 1, Records: []cluster.RecordInfo{{Offset: 0, Key: "dave", Value: "v1", Durable: true}}},
		{Broker: 2, Role: "leader", LogEndOffset: 2, HighWatermark: 2, Records: []cluster.RecordInfo{
			{Offset: 0, Key: "dave", Value: "v1", LeaderEpoch: -1, Durable: true}, {Offset: 1, Key: "alice", Value: "v4", LeaderEpoch: -1}}},
	}}},
	Consumers: []cluster.ConsumerInfo{{Name: "W2", ID: "W2", Group: "workers", Processed: 30, Duplicates: 10, MemberID: "W2-2", Status: "running"}},
	Groups: []cluster.GroupInfo{{
		Name: "eager-g", State: "PreparingRebalance", Generation: 1, Protocol: "eager",
		Members: []cluster.MemberInfo{
			{ID: "E1-1"},
			{ID: "E2-2", Partitions: []cluster.PartitionRef{{Topic: "orders", Partition: 5}, {Topic: "orders", Partition: 1}}},
		},
		Offsets: []cluster.OffsetInfo{
			{Topic: "orders", Partition: 0, Committed: 103, LogEndOffset: 109},
			{Topic: "orders", Partition: 1, Committed: -1, LogEndOffset: 83},
		},
	}},
}

func TestCheckGroupFacts(t *testing.T) {
	tests := []struct {
		fact      string
		wantGot   string
		wantMatch bool
	}{
		{"group eager-g state=PreparingRebalance generation=1 protocol=eager", "eager-g state=PreparingRebalance generation=1 protocol=eager", true},
		{"group eager-g state=Stable", "eager-g state=PreparingRebalance", false},
		{"group eager-g E1-1=[] E2-2=[orders-1, orders-5]", "eager-g E1-1=[] E2-2=[orders-1,orders-5]", true},
		{"group eager-g E2-2=[orders-5,orders-1]", "eager-g E2-2=[orders-1,orders-5]", true},
		{"group eager-g E1-1=[orders-0]", "eager-g E1-1=[]", false},
		{"group eager-g E3-3=[]", "eager-g E3-3=(not a member)", false},
		{"group eager-g offset=orders-0:103/109 offset=orders-1:-/83", "eager-g offset=orders-0:103/109 offset=orders-1:-/83", true},
		{"group eager-g offset=orders-1:10/83", "eager-g offset=orders-1:-/83", false},
		{"group eager-g offset=orders-4:1/1", "eager-g offset=orders-4:none", false},
		{"group coop-g state=Stable", "no group coop-g", false},
		{"W2 processed=30 duplicates=10 status=running member=W2-2", "processed=30 duplicates=10 status=running member=W2-2", true},
		{"W2 duplicates=0", "duplicates=10", false},
		{"W2 colour=red", "colour=(no colour)", false},
		{"users-1 [0 dave=v1, 1 alice=v4*] 2/2", "[0 dave=v1, 1 alice=v4*] 2/2", true},
		{"users-1 leader [0 dave=v1]", "leader [0 dave=v1, 1 alice=v4*]", false},
		{"users-7 [] 0/0", "no partition users-7", false},
		{"segments users-7 0:[]", "no partition users-7", false},
	}
	for _, tc := range tests {
		t.Run(tc.fact, func(t *testing.T) {
			f, err := parseFact(tc.fact, map[string]bool{"W2": true}, map[string]bool{"users": true})
			require.NoError(t, err)
			c := checker{sc: &Scenario{PageCacheMarks: true}, st: groupState}.check(f)
			if diff := cmp.Diff(tc.wantGot, c.Got); diff != "" {
				t.Errorf("got (-want +got):\n%s", diff)
			}
			require.Equal(t, tc.wantMatch, c.Match, "match")
		})
	}
}

// TestCheckSegmentsOnAWorld: the segments fact reads the leader's
// segments, and a wrong one fails.
func TestCheckSegmentsOnAWorld(t *testing.T) {
	text := `name s
group keys
title s
summary s
cluster brokers=1
step 0 a
do create-topic name=events partitions=1 rf=1 segment-bytes=210
do add-producer name=p topic=events linger-ms=0
do produce-many p count=4 prefix=r
do run ms=100
expect segments events-0 0:[0,1,2] 3:[3]
expect segments events-0 0:[0,1,2,3]
`
	sc, err := Parse("s.txt", text)
	require.NoError(t, err)
	r, err := NewRun(sc, 0)
	require.NoError(t, err)
	o, err := r.Next()
	require.NoError(t, err)
	require.True(t, o.Checks[0].Match, o.Checks[0].String())
	require.False(t, o.Checks[1].Match, o.Checks[1].String())
	require.Equal(t, "events-0 0:[0,1,2] 3:[3]", o.Checks[1].Got)
}

func TestStateTextGroupsView(t *testing.T) {
	st := cluster.State{
		Partitions: []cluster.PartitionInfo{
			{Topic: "__consumer_offsets", Partition: 0, Leader: 1},
			{Topic: "orders", Partition: 0, Leader: 1, Logs: []cluster.LogInfo{{Broker: 1, Role: "leader"}}},
		},
		Producers: []cluster.ProducerInfo{{Name: "p", Sent: 1, Results: []cluster.ResultInfo{{Value: "m1", Status: "pending"}}}},
	}
	want := "time 0 ms, rules \norders-0 leader=1 e=0 replicas={} isr={} start=0 hw=0 leo=0\nproducer p: sent 1 acked 0 failed 0:\n"
	if diff := cmp.Diff(want, (&Scenario{View: ViewGroups}).StateText(st)); diff != "" {
		t.Errorf("StateText (-want +got):\n%s", diff)
	}
	logs := (&Scenario{}).StateText(st)
	require.Contains(t, logs, "  b1 leader [] 0/0 EC []\n")
	require.Contains(t, logs, " m1=PENDING")
	require.NotContains(t, logs, "__consumer_offsets")
}
