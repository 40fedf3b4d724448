package replica_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/replica"
)

// truncation is one follower truncation under V2_1 between a leader and a
// follower on MemLogs, with Config.Truncate set to part (nil: the
// reference's rounds).
type truncation struct {
	leader, follower *replica.Node
	followerLog      *replica.MemLog
	// requests are the epochs of the OffsetsForLeaderEpoch requests the
	// follower sent; calls counts the calls of part.
	requests []int32
	calls    int
	// cuts are the follower's EventTruncated, "old->new", * when ByPart.
	cuts []string
}

// memLogOf returns a MemLog holding one record per entry of epochs, the
// epoch it was written in, with value prefix and its offset.
func memLogOf(t *testing.T, prefix string, epochs []int32) *replica.MemLog {
	t.Helper()
	log := replica.NewMemLog()
	for i, e := range epochs {
		must(t, log.AppendAsFollower([]replica.Entry{{Offset: int64(i), LeaderEpoch: e, Value: []byte(fmt.Sprintf("%s%d", prefix, i))}}))
	}
	return log
}

// newTruncation is kip279_two_rounds.txt's step 6 under 2.1's rules: the
// leader's log [a·e0, c·e1, d·e1, e·e1, g·e3, h·e3] leads epoch 4, the
// follower's [a·e0, b·e0, f·e2] with HW 3 follows it. Only a and the
// records from c on can end up on the follower.
func newTruncation(t *testing.T, part func(replica.FollowerState, func(int32) replica.EpochEndOffset) (replica.FollowerState, bool)) *truncation {
	t.Helper()
	tr := &truncation{}
	leaderLog := memLogOf(t, "l", []int32{0, 1, 1, 1, 3, 3})
	var err error
	tr.leader, err = replica.NewNode(replica.Config{ID: 1, Rules: replica.V2_1}, leaderLog)
	must(t, err)
	state := replica.LeaderAndISR{Leader: 1, LeaderEpoch: 4, ISR: []int32{1}, Replicas: []int32{1, 2}}
	must(t, tr.leader.BecomeLeader(state))
	tr.leader.Advance(tr.leader.Ready())
	tr.followerLog = memLogOf(t, "f", []int32{0, 0, 2})
	cfg := replica.Config{ID: 2, Rules: replica.V2_1, InitialHighWatermark: 3}
	if part != nil {
		cfg.Truncate = func(f replica.FollowerState, ask func(int32) replica.EpochEndOffset) (replica.FollowerState, bool) {
			tr.calls++
			return part(f, ask)
		}
	}
	tr.follower, err = replica.NewNode(cfg, tr.followerLog)
	must(t, err)
	must(t, tr.follower.BecomeFollower(state))
	return tr
}

// untilFetch delivers the two nodes' messages until the follower sends its
// first Fetch, which it keeps: the truncation is over.
func (tr *truncation) untilFetch(t *testing.T) {
	t.Helper()
	for range 100 {
		rd := tr.follower.Ready()
		tr.follower.Advance(rd)
		for _, e := range rd.Events {
			if e.Kind == replica.EventTruncated {
				mark := ""
				if e.ByPart {
					mark = "*"
				}
				tr.cuts = append(tr.cuts, fmt.Sprintf("%d->%d%s", e.Old, e.New, mark))
			}
		}
		for _, m := range rd.Messages {
			switch m.Type {
			case replica.MsgFetch:
				return
			case replica.MsgOffsetsForLeaderEpoch:
				tr.requests = append(tr.requests, m.Epoch)
			}
			must(t, tr.leader.Step(m))
		}
		rd = tr.leader.Ready()
		tr.leader.Advance(rd)
		for _, m := range rd.Messages {
			must(t, tr.follower.Step(m))
		}
	}
	t.Fatalf("no fetch after 100 exchanges: the truncation asked %v", tr.requests)
}

// after is the follower's log when its truncation is over.
type after struct {
	Requests     []int32
	Cuts         []string
	LogEnd, HW   int64
	Epochs       []replica.EpochEntry
	Values       []string
	Calls        int
	FetchStateOK bool
}

func (tr *truncation) after() after {
	st := tr.follower.Status()
	a := after{Requests: tr.requests, Cuts: tr.cuts, LogEnd: st.LogEndOffset, HW: st.HighWatermark, Epochs: st.Epochs, Calls: tr.calls,
		FetchStateOK: st.FetchState == replica.FetchFetching}
	for _, e := range tr.followerLog.Entries() {
		a.Values = append(a.Values, string(e.Value))
	}
	return a
}

// A Truncate given in Config runs the follower's whole truncation under
// V2_1: each of its questions is an OffsetsForLeaderEpoch request, it is
// called again with every answer, and the log, epoch cache and HW it returns
// are what the follower keeps, right or wrong, cut after each answer as the
// reference's rounds cut.
func TestConfigTruncate(t *testing.T) {
	reference := func(f replica.FollowerState, ask func(int32) replica.EpochEndOffset) (replica.FollowerState, bool) {
		return replica.Truncate(replica.V2_1, f, ask), true
	}
	// asksOnce cuts where the first round says and stops.
	asksOnce := func(f replica.FollowerState, ask func(int32) replica.EpochEndOffset) (replica.FollowerState, bool) {
		latest := f.Epochs[len(f.Epochs)-1].Epoch
		offset, _ := replica.TruncationPoint(replica.V2_1, f.Epochs, f.LogEndOffset, f.HighWatermark, ask(latest))
		f.LogEndOffset = offset
		f.Epochs = slices.DeleteFunc(f.Epochs, func(e replica.EpochEntry) bool { return e.StartOffset >= offset })
		f.HighWatermark = min(f.HighWatermark, offset)
		return f, true
	}
	keepsHW := func(f replica.FollowerState, ask func(int32) replica.EpochEndOffset) (replica.FollowerState, bool) {
		got := replica.Truncate(replica.V2_1, f, ask)
		got.HighWatermark = f.HighWatermark
		return got, true
	}
	keepsEpochs := func(f replica.FollowerState, ask func(int32) replica.EpochEndOffset) (replica.FollowerState, bool) {
		got := replica.Truncate(replica.V2_1, f, ask)
		got.Epochs = f.Epochs
		return got, true
	}
	declines := func(f replica.FollowerState, ask func(int32) replica.EpochEndOffset) (replica.FollowerState, bool) {
		ask(2)
		return replica.FollowerState{}, false
	}
	calls := 0
	declinesSecond := func(f replica.FollowerState, ask func(int32) replica.EpochEndOffset) (replica.FollowerState, bool) {
		if calls++; calls == 2 {
			return replica.FollowerState{}, false
		}
		return replica.Truncate(replica.V2_1, f, ask), true
	}
	invents := func(f replica.FollowerState, ask func(int32) replica.EpochEndOffset) (replica.FollowerState, bool) {
		got := replica.Truncate(replica.V2_1, f, ask)
		got.Epochs = append(got.Epochs, replica.EpochEntry{Epoch: 9, StartOffset: 0})
		return got, true
	}
	asksAgain := func(f replica.FollowerState, ask func(int32) replica.EpochEndOffset) (replica.FollowerState, bool) {
		for range 10 {
			ask(2)
		}
		return f, true
	}
	// The reference's rounds: epoch 2 ends where epoch 1 starts on the
	// leader (1, 4); the follower never had epoch 1 and cuts at the end of its
	// epoch 0, 2; asked again, epoch 0 ends at 1 on the leader.
	right := after{Requests: []int32{2, 0}, Cuts: []string{"3->2", "2->1"}, LogEnd: 1, HW: 1, Epochs: []replica.EpochEntry{{Epoch: 0, StartOffset: 0}},
		Values: []string{"f0"}, FetchStateOK: true}
	// withCalls is a with calls calls of the part, whose cuts are marked.
	withCalls := func(a after, calls int, cuts ...string) after {
		a.Calls = calls
		if cuts != nil {
			a.Cuts = cuts
		}
		return a
	}
	tests := []struct {
		name string
		part func(replica.FollowerState, func(int32) replica.EpochEndOffset) (replica.FollowerState, bool)
		want after
	}{
		{"no part: the reference's rounds", nil, right},
		{"the reference as a part: called at each answer, the same questions and log", reference, withCalls(right, 2, "3->2*", "2->1*")},
		{"one round where two were needed: f0, f1 kept, the follower's b parts from the leader's c", asksOnce,
			after{Requests: []int32{2}, Cuts: []string{"3->2*"}, LogEnd: 2, HW: 2, Epochs: []replica.EpochEntry{{Epoch: 0, StartOffset: 0}}, Values: []string{"f0", "f1"}, Calls: 1, FetchStateOK: true}},
		{"an HW left above the cut is kept until the next fetch answer", keepsHW,
			after{Requests: []int32{2, 0}, Cuts: []string{"3->2*", "2->1*"}, LogEnd: 1, HW: 3, Epochs: []replica.EpochEntry{{Epoch: 0, StartOffset: 0}}, Values: []string{"f0"}, Calls: 2, FetchStateOK: true}},
		{"epochs the cut would drop are put back", keepsEpochs,
			after{Requests: []int32{2, 0}, Cuts: []string{"3->2*", "2->1*"}, LogEnd: 1, HW: 1, Epochs: []replica.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 2, StartOffset: 2}}, Values: []string{"f0"}, Calls: 2, FetchStateOK: true}},
		{"declined after a question: the reference's rounds start over", declines, withCalls(after{Requests: []int32{2, 2, 0}, Cuts: []string{"3->2", "2->1"}, LogEnd: 1, HW: 1,
			Epochs: []replica.EpochEntry{{Epoch: 0, StartOffset: 0}}, Values: []string{"f0"}, FetchStateOK: true}, 1)},
		{"an epoch the follower never had is refused: the reference's rounds start over", invents,
			withCalls(after{Requests: []int32{2, 2, 0}, Cuts: []string{"3->2", "2->1"}, LogEnd: 1, HW: 1, Epochs: []replica.EpochEntry{{Epoch: 0, StartOffset: 0}}, Values: []string{"f0"}, FetchStateOK: true}, 1)},
		{"declined after the first round was cut: the reference's rounds go on from the cut", declinesSecond,
			withCalls(after{Requests: []int32{2, 0, 0}, Cuts: []string{"3->2*", "2->1"}, LogEnd: 1, HW: 1, Epochs: []replica.EpochEntry{{Epoch: 0, StartOffset: 0}}, Values: []string{"f0"}, FetchStateOK: true}, 2)},
		{"more questions than epochs plus one: the reference's rounds go on", asksAgain,
			withCalls(after{Requests: []int32{2, 2, 2, 2, 0}, Cuts: []string{"3->2", "2->1"}, LogEnd: 1, HW: 1, Epochs: []replica.EpochEntry{{Epoch: 0, StartOffset: 0}}, Values: []string{"f0"}, FetchStateOK: true}, 3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := newTruncation(t, tt.part)
			tr.untilFetch(t)
			if diff := cmp.Diff(tt.want, tr.after()); diff != "" {
				t.Errorf("the follower after its truncation (-want +got):\n%s", diff)
			}
		})
	}
}

// Kafka 2.1 to 2.7 cut an undefined first answer at the HW, where the
// exercise's 2.8+ rule keeps the log: such a truncation goes to the
// reference, and the part is not called.
func TestConfigTruncateLeavesAnUndefinedFirstAnswerToTheReference(t *testing.T) {
	called := false
	part := func(f replica.FollowerState, ask func(int32) replica.EpochEndOffset) (replica.FollowerState, bool) {
		called = true
		return f, true
	}
	n, err := replica.NewNode(replica.Config{ID: 2, Rules: replica.V2_1, InitialHighWatermark: 1, Truncate: part}, memLogOf(t, "f", []int32{0, 0, 2}))
	must(t, err)
	must(t, n.BecomeFollower(replica.LeaderAndISR{Leader: 1, LeaderEpoch: 4, ISR: []int32{1}, Replicas: []int32{1, 2}}))
	rd := n.Ready()
	n.Advance(rd)
	must(t, n.Step(replica.Message{Type: replica.MsgOffsetsForLeaderEpochResponse, From: 1, To: 2, CorrelationID: rd.Messages[0].CorrelationID,
		Epoch: replica.NoEpoch, EndOffset: replica.UndefinedOffset}))
	st := n.Status()
	if diff := cmp.Diff([]any{false, int64(1), replica.FetchFetching}, []any{called, st.LogEndOffset, st.FetchState}); diff != "" {
		t.Errorf("part called, LEO, fetch state (-want +got):\n%s", diff)
	}
}

// replica.Truncate is the rounds of TruncationPoint, each cut trimming the
// cache and the HW, against a leader's answers.
func TestTruncate(t *testing.T) {
	leader, err := replica.NewEpochCache([]replica.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 1}, {Epoch: 3, StartOffset: 4}, {Epoch: 4, StartOffset: 6}})
	must(t, err)
	answer := func(epoch int32) replica.EpochEndOffset {
		e, end, ok := leader.EndOffsetFor(epoch, 6)
		if !ok {
			return replica.EpochEndOffset{Epoch: replica.NoEpoch, EndOffset: replica.UndefinedOffset}
		}
		return replica.EpochEndOffset{Epoch: e, EndOffset: end}
	}
	x := replica.FollowerState{Epochs: []replica.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 2, StartOffset: 2}}, LogEndOffset: 3, HighWatermark: 3}
	tests := []struct {
		rules replica.RuleSet
		want  replica.FollowerState
	}{
		{replica.V2_1, replica.FollowerState{Epochs: []replica.EpochEntry{{Epoch: 0, StartOffset: 0}}, LogEndOffset: 1, HighWatermark: 1}},
		{replica.Modern, replica.FollowerState{Epochs: []replica.EpochEntry{{Epoch: 0, StartOffset: 0}}, LogEndOffset: 1, HighWatermark: 1}},
		// 0.11 has one round: epoch 2's answer, the start of epoch 3, is past the log end.
		{replica.V0_11, x},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, replica.Truncate(tt.rules, x, answer)); diff != "" {
			t.Errorf("%s: Truncate (-want +got):\n%s", tt.rules, diff)
		}
	}
}
