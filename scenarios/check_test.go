package scenarios

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/stretchr/testify/require"
)

// a state like KIP-101 part 3 after step 7: offset 1 differs.
var part3State = cluster.State{Partitions: []cluster.PartitionInfo{{
	Topic: "kip101", Partition: 0, Leader: 2, LeaderEpoch: 1, Replicas: []int32{1, 2}, ISR: []int32{1, 2},
	HighWatermark: 2, LogEndOffset: 2,
	Logs: []cluster.LogInfo{
		{Broker: 1, Role: "follower", LogEndOffset: 2, HighWatermark: 2, Records: []cluster.RecordInfo{
			{Offset: 0, Value: "m1", LeaderEpoch: -1, Durable: true},
			{Offset: 1, Value: "m2", LeaderEpoch: -1, Durable: true, DiffersFromLeader: true},
		}},
		{Broker: 2, Role: "leader", LogEndOffset: 2, HighWatermark: 2,
			Epochs: []cluster.EpochInfo{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 1}},
			Records: []cluster.RecordInfo{
				{Offset: 0, Value: "m1", LeaderEpoch: 0, Durable: true},
				{Offset: 1, Key: "k", Value: "m3", LeaderEpoch: 1},
			}},
	},
}}}

func TestCheckFacts(t *testing.T) {
	tests := []struct {
		fact      string
		pageCache bool
		wantGot   string
		wantMatch bool
	}{
		{"b1 follower [0 m1, 1 m2] 2/2", true, "follower [0 m1, 1 m2] 2/2", true},
		{"b1 [0 m1, 1 m2!]", true, "[0 m1, 1 m2!]", true},
		{"b1 [0 m1, 1 m3]", true, "[0 m1, 1 m2]", false},
		{"b1 2/1", true, "2/2", false},
		{"b2 [0 m1·e0, 1 k=m3·e1*] EC [(0,0),(1,1)]", true, "[0 m1·e0, 1 k=m3·e1*] EC [(0,0),(1,1)]", true},
		{"b2 [0 m1·e0, 1 k=m3·e1]", true, "[0 m1·e0, 1 k=m3·e1*]", false},
		{"b2 ~[0 m1·e0, 1 k=m3·e1]", true, "~[0 m1·e0, 1 k=m3·e1]", true},
		{"b2 [0 m1·e0, 1 k=m3·e1]", false, "[0 m1·e0, 1 k=m3·e1]", true},
		{"b2 [0 m1, 1 k=m3]", false, "[0 m1·e0, 1 k=m3·e1]", false},
		{"b2 EC [(0,0), (1,1)]", true, "EC [(0,0),(1,1)]", true},
		{"b2: [0 m1·e0, 1 k=m3·e1*] 2/2 EC[(0,0),(1,1)]", true, "[0 m1·e0, 1 k=m3·e1*] 2/2 EC [(0,0),(1,1)]", true},
		{"ctl: leader=2", true, "leader=2", true},
		{"b2 down", true, "leader", false},
		{"b3 [] 0/0", true, "no replica on b3", false},
		{"ctl leader=2 e=1 isr={1,2}", true, "leader=2 e=1 isr={1,2}", true},
		{"ctl isr={2}", true, "isr={1,2}", false},
		{"ctl hw=2 leo=2 replicas={1,2}", true, "hw=2 leo=2 replicas={1,2}", true},
	}
	for _, tc := range tests {
		t.Run(tc.fact, func(t *testing.T) {
			f, err := parseFact(tc.fact, nil, nil)
			require.NoError(t, err)
			sc := &Scenario{Topic: "kip101", PageCacheMarks: tc.pageCache}
			c := checker{sc: sc, st: part3State}.check(f)
			if diff := cmp.Diff(tc.wantGot, c.Got); diff != "" {
				t.Errorf("got (-want +got):\n%s", diff)
			}
			require.Equal(t, tc.wantMatch, c.Match, "match")
		})
	}
}

func TestCheckLeaderNone(t *testing.T) {
	st := cluster.State{Partitions: []cluster.PartitionInfo{{Topic: "t", Leader: -1, LeaderEpoch: 1, ISR: []int32{1}}}}
	f, err := parseFact("ctl leader=none e=1 isr={1}", nil, nil)
	require.NoError(t, err)
	c := checker{sc: &Scenario{Topic: "t"}, st: st}.check(f)
	require.True(t, c.Match, c.Got)
}

func TestCheckFailedHonoursKnown(t *testing.T) {
	tests := []struct {
		match  bool
		known  string
		failed bool
	}{
		{true, "", false},
		{false, "", true},
		{false, "a known divergence", false},
		{true, "a known divergence that no longer happens", true},
	}
	for _, tc := range tests {
		c := Check{Fact: Fact{Known: tc.known}, Match: tc.match}
		require.Equal(t, tc.failed, c.Failed(), "match %v known %q", tc.match, tc.known)
	}
}

// TestRunFindsDivergence: a scenario whose expectation the simulation does
// not reach fails its check, and a known note turns that into a pass.
func TestRunFindsDivergence(t *testing.T) {
	text := `name d
group basics
title d
summary d
cluster brokers=2
partition t-0
step 0 a
do create-topic name=t replicas=1,2
do add-producer name=p topic=t acks=all
do deliver
do produce p value=m1
do run ms=600
expect b2 [0 m1·e0] 1/1
expect p m1=ACK(1)
`
	for _, known := range []string{"", "known the offset is 0\n"} {
		sc, err := Parse("d.txt", text+known)
		require.NoError(t, err)
		r, err := NewRun(sc, 0)
		require.NoError(t, err)
		o, err := r.Next()
		require.NoError(t, err)
		require.Len(t, o.Checks, 2)
		require.True(t, o.Checks[0].Match, o.Checks[0].String())
		require.Equal(t, "m1=ACK(0)", o.Checks[1].Got)
		require.Equal(t, known == "", len(o.Failed()) == 1, "known %q", known)
		_, err = r.Next()
		require.ErrorIs(t, err, ErrDone)
	}
}
