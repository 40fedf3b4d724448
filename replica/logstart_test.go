package replica_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/replica"
)

// raisingLog is a MemLog whose start a follower can raise: it notes each
// raise and reports the raised start.
type raisingLog struct {
	*replica.MemLog
	start  int64
	raises [][2]int64
}

func (l *raisingLog) LogStartOffset() int64 { return max(l.start, l.MemLog.LogStartOffset()) }

func (l *raisingLog) RaiseLogStartOffset(offset, highWatermark int64) error {
	l.raises = append(l.raises, [2]int64{offset, highWatermark})
	l.start = max(l.start, offset)
	return nil
}

// ReplicaFetcherThread.processPartitionData: after each fetch a follower
// whose log can move its start takes its leader's log start, when it is
// above its own and not above the HW the fetch gave it; a log that cannot,
// or a follower under 0.10's rules (before KIP-107), keeps its own.
func TestFollowerTakesLeaderLogStart(t *testing.T) {
	for _, tc := range []struct {
		name        string
		rules       replica.RuleSet
		raising     bool
		leaderStart int64
		leaderHW    int64
		wantRaises  [][2]int64
		wantStart   int64
		wantEvent   bool
	}{
		{"the leader's retention moved its start", replica.Modern, true, 3, 5, [][2]int64{{3, 5}}, 3, true},
		{"the leader's start is the follower's HW", replica.Modern, true, 5, 5, [][2]int64{{5, 5}}, 5, true},
		{"the leader's start is the follower's own", replica.Modern, true, 0, 5, nil, 0, false},
		{"the leader's start is above the HW the follower has", replica.Modern, true, 5, 4, nil, 0, false},
		{"a log that cannot move its start", replica.Modern, false, 3, 5, nil, 0, false},
		{"under Kafka 0.10's rules, before KIP-107", replica.V0_10, true, 3, 5, nil, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := replica.NewMemLog()
			entries := make([]replica.Entry, 6)
			for i := range entries {
				entries[i] = replica.Entry{Offset: int64(i)}
			}
			must(t, mem.AppendAsFollower(entries))
			rl := &raisingLog{MemLog: mem}
			var log replica.Log = mem
			if tc.raising {
				log = rl
			}
			n, err := replica.NewNode(replica.Config{ID: 2, Rules: tc.rules}, log)
			must(t, err)
			must(t, n.BecomeFollower(replica.LeaderAndISR{Leader: 1, LeaderEpoch: 1, ISR: []int32{1, 2}, Replicas: []int32{1, 2}}))
			rd := n.Ready()
			n.Advance(rd)
			must(t, n.Step(replica.Message{Type: replica.MsgFetchResponse, From: 1, To: 2, CorrelationID: rd.Messages[0].CorrelationID,
				FetchOffset: 6, HighWatermark: tc.leaderHW, LogStartOffset: tc.leaderStart, LogEndOffset: 6}))
			if diff := cmp.Diff(tc.wantRaises, rl.raises); diff != "" {
				t.Errorf("raises (offset, HW) (-want +got):\n%s", diff)
			}
			if got := n.Status().LogStartOffset; got != tc.wantStart {
				t.Errorf("log start %d, want %d", got, tc.wantStart)
			}
			var raised []string
			for _, e := range n.Ready().Events {
				if e.Kind == replica.EventLogStartRaised {
					raised = append(raised, e.String())
				}
			}
			var want []string
			if tc.wantEvent {
				want = []string{replica.Event{Kind: replica.EventLogStartRaised, Old: 0, New: tc.wantStart}.String()}
			}
			if diff := cmp.Diff(want, raised); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}
