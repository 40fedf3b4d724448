package replica_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/replica"
)

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("setup: %v", err)
	}
}

// leaderWithLog returns broker 1 leading epoch `epoch` over replicas 1-3 on a
// log holding one record per entry of epochs (the epoch each record was
// written in).
func leaderWithLog(t *testing.T, rules replica.RuleSet, epochs []int32, epoch int32) (*replica.Node, *replica.MemLog) {
	t.Helper()
	log := replica.NewMemLog()
	for i, e := range epochs {
		must(t, log.AppendAsFollower([]replica.Entry{{Offset: int64(i), LeaderEpoch: e, Value: []byte("r")}}))
	}
	n, err := replica.NewNode(replica.Config{ID: 1, Rules: rules}, log)
	must(t, err)
	must(t, n.BecomeLeader(replica.LeaderAndISR{Leader: 1, LeaderEpoch: epoch, ISR: []int32{1, 2, 3}, Replicas: []int32{1, 2, 3}}))
	n.Advance(n.Ready())
	return n, log
}

func TestNewNodeRefusesBadConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  replica.Config
	}{
		{"unknown rule set", replica.Config{Rules: replica.RuleSet(99)}},
		{"negative min.insync.replicas", replica.Config{MinInsyncReplicas: -1}},
		{"negative replica.lag.time.max.ms", replica.Config{ReplicaLagTimeMaxMs: -1}},
		{"negative HW checkpoint", replica.Config{InitialHighWatermark: -5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := replica.NewNode(tt.cfg, replica.NewMemLog()); !errors.Is(err, replica.ErrInvalidConfig) {
				t.Fatalf("NewNode(%+v) error = %v, want ErrInvalidConfig", tt.cfg, err)
			}
		})
	}
	if _, err := replica.NewNode(replica.Config{}, nil); !errors.Is(err, replica.ErrInvalidConfig) {
		t.Fatalf("NewNode with a nil log: error = %v, want ErrInvalidConfig", err)
	}
}

// On restart HW := min(checkpoint, LEO).
func TestNewNodeClampsCheckpointToLog(t *testing.T) {
	log := replica.NewMemLog()
	_, err := log.AppendAsLeader([]replica.Record{{Value: []byte("a")}, {Value: []byte("b")}}, 0)
	must(t, err)
	n, err := replica.NewNode(replica.Config{ID: 1, InitialHighWatermark: 7}, log)
	must(t, err)
	if got := n.Status().HighWatermark; got != 2 {
		t.Fatalf("HW after opening a 2-record log with checkpoint 7 = %d, want 2", got)
	}
}

func TestLeaderAndISRChecks(t *testing.T) {
	replicas := []int32{1, 2, 3}
	tests := []struct {
		name   string
		leader bool
		s      replica.LeaderAndISR
		want   error
	}{
		{"leader names another broker", true, replica.LeaderAndISR{Leader: 2, LeaderEpoch: 1, ISR: replicas, Replicas: replicas}, replica.ErrInvalidLeaderAndISR},
		{"follower names itself", false, replica.LeaderAndISR{Leader: 1, LeaderEpoch: 1, ISR: replicas, Replicas: replicas}, replica.ErrInvalidLeaderAndISR},
		{"leader outside the ISR", true, replica.LeaderAndISR{Leader: 1, LeaderEpoch: 1, ISR: []int32{2}, Replicas: replicas}, replica.ErrInvalidLeaderAndISR},
		{"ISR member not a replica", true, replica.LeaderAndISR{Leader: 1, LeaderEpoch: 1, ISR: []int32{1, 4}, Replicas: replicas}, replica.ErrInvalidLeaderAndISR},
		{"older epoch as leader", true, replica.LeaderAndISR{Leader: 1, LeaderEpoch: 4, ISR: replicas, Replicas: replicas}, replica.ErrStaleLeaderEpoch},
		{"older epoch as follower", false, replica.LeaderAndISR{Leader: 2, LeaderEpoch: 4, ISR: replicas, Replicas: replicas}, replica.ErrStaleLeaderEpoch},
		{"same epoch, other leader", false, replica.LeaderAndISR{Leader: 2, LeaderEpoch: 5, ISR: replicas, Replicas: replicas}, replica.ErrStaleLeaderEpoch},
		{"same epoch, same leader: ISR update", true, replica.LeaderAndISR{Leader: 1, LeaderEpoch: 5, PartitionEpoch: 1, ISR: []int32{1, 2}, Replicas: replicas}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, _ := leaderWithLog(t, replica.Modern, nil, 5)
			var err error
			if tt.leader {
				err = n.BecomeLeader(tt.s)
			} else {
				err = n.BecomeFollower(tt.s)
			}
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("error = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestStepRefusesMisaddressedAndUnknown(t *testing.T) {
	n, _ := leaderWithLog(t, replica.Modern, nil, 0)
	if err := n.Step(replica.Message{Type: replica.MsgFetch, From: 2, To: 3}); !errors.Is(err, replica.ErrWrongNode) {
		t.Errorf("fetch for broker 3 stepped into broker 1: error = %v, want ErrWrongNode", err)
	}
	if err := n.Step(replica.Message{Type: replica.MessageType(42), From: 2, To: 1}); !errors.Is(err, replica.ErrUnknownMessage) {
		t.Errorf("message type 42: error = %v, want ErrUnknownMessage", err)
	}
}

func TestProduceRefusals(t *testing.T) {
	tests := []struct {
		name     string
		follower bool
		minISR   int
		acks     int16
		want     []replica.ProduceResponse
	}{
		{"acks=2 is invalid", false, 1, 2, []replica.ProduceResponse{{To: 100, CorrelationID: 7, Error: replica.InvalidRequiredAcks, BaseOffset: -1}}},
		{"a follower refuses", true, 1, 1, []replica.ProduceResponse{{To: 100, CorrelationID: 7, Error: replica.NotLeaderOrFollower, BaseOffset: -1}}},
		{"acks=0 gets no answer even when refused", true, 1, 0, nil},
		{"acks=all below min ISR", false, 3, replica.AcksAll, []replica.ProduceResponse{{To: 100, CorrelationID: 7, Error: replica.NotEnoughReplicas, BaseOffset: -1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := replica.NewMemLog()
			n, err := replica.NewNode(replica.Config{ID: 1, Rules: replica.Modern, MinInsyncReplicas: tt.minISR}, log)
			must(t, err)
			s := replica.LeaderAndISR{Leader: 1, ISR: []int32{1, 2}, Replicas: []int32{1, 2, 3}}
			if tt.follower {
				s.Leader = 2
				must(t, n.BecomeFollower(s))
			} else {
				must(t, n.BecomeLeader(s))
			}
			n.Advance(n.Ready())
			must(t, n.Step(replica.Message{Type: replica.MsgProduce, From: 100, To: 1, CorrelationID: 7, Acks: tt.acks,
				Records: []replica.Record{{Value: []byte("x")}}}))
			if diff := cmp.Diff(tt.want, n.Ready().ProduceResponses); diff != "" {
				t.Errorf("produce answers (-want +got):\n%s", diff)
			}
			if leo := log.LogEndOffset(); leo != 0 {
				t.Errorf("a refused produce appended: LEO %d, want 0", leo)
			}
		})
	}
}

// KIP-320 fencing (2.1+) and the offset range, seen from the leader.
func TestFetchRefusals(t *testing.T) {
	tests := []struct {
		name  string
		rules replica.RuleSet
		fetch replica.Message
		want  replica.ErrorCode
	}{
		{"older epoch is fenced", replica.V2_1, replica.Message{From: 2, CurrentLeaderEpoch: 4}, replica.FencedLeaderEpoch},
		{"newer epoch is unknown", replica.Modern, replica.Message{From: 2, CurrentLeaderEpoch: 6}, replica.UnknownLeaderEpoch},
		{"no fencing before 2.1", replica.V2_0, replica.Message{From: 2, CurrentLeaderEpoch: 4}, replica.None},
		{"not a replica", replica.Modern, replica.Message{From: 9, CurrentLeaderEpoch: 5}, replica.NotLeaderOrFollower},
		{"beyond the LEO", replica.Modern, replica.Message{From: 2, CurrentLeaderEpoch: 5, FetchOffset: 3}, replica.OffsetOutOfRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, _ := leaderWithLog(t, tt.rules, []int32{5, 5}, 5)
			m := tt.fetch
			m.Type, m.To, m.LastFetchedEpoch, m.CorrelationID = replica.MsgFetch, 1, replica.NoEpoch, 3
			must(t, n.Step(m))
			msgs := n.Ready().Messages
			if len(msgs) != 1 {
				t.Fatalf("fetch %+v got %d answers, want 1", m, len(msgs))
			}
			if got := msgs[0].Error; got != tt.want {
				t.Fatalf("fetch answer error = %s, want %s", got, tt.want)
			}
			if tt.want == replica.OffsetOutOfRange && msgs[0].LogEndOffset != 2 {
				t.Fatalf("out-of-range answer carries LEO %d, want the leader's 2", msgs[0].LogEndOffset)
			}
		})
	}
}

// LeaderEpochFileCache.endOffsetFor by version: what a leader with epochs 1 (from 0) and 3 (from 5), LEO 8,
// leading epoch 4, answers for each requested epoch, per rule set.
func TestOffsetsForLeaderEpochAnswers(t *testing.T) {
	log := []int32{1, 1, 1, 1, 1, 3, 3, 3}
	undefined := replica.EpochEndOffset{Epoch: replica.NoEpoch, EndOffset: replica.UndefinedOffset}
	end := func(o int64) replica.EpochEndOffset {
		return replica.EpochEndOffset{Epoch: replica.NoEpoch, EndOffset: o}
	}
	pair := func(e int32, o int64) replica.EpochEndOffset { return replica.EpochEndOffset{Epoch: e, EndOffset: o} }
	tests := []struct {
		rules replica.RuleSet
		want  []replica.EpochEndOffset // for epochs 0..5
	}{
		// 0.11 answers the end offset only; epoch 3 is its latest cached epoch.
		{replica.V0_11, []replica.EpochEndOffset{undefined, end(5), end(5), end(8), undefined, undefined}},
		// 2.0 adds the epoch; an epoch below every entry is still undefined.
		{replica.V2_0, []replica.EpochEndOffset{undefined, pair(1, 5), pair(1, 5), pair(3, 8), undefined, undefined}},
		// 2.1+ caches epoch 4 at election (from 8) and answers epoch 0 with (0, 0).
		{replica.V2_1, []replica.EpochEndOffset{pair(0, 0), pair(1, 5), pair(1, 5), pair(3, 8), pair(4, 8), undefined}},
	}
	for _, tt := range tests {
		t.Run(tt.rules.String(), func(t *testing.T) {
			n, _ := leaderWithLog(t, tt.rules, log, 4)
			var got []replica.EpochEndOffset
			for e := int32(0); e <= 5; e++ {
				must(t, n.Step(replica.Message{Type: replica.MsgOffsetsForLeaderEpoch, From: 2, To: 1, Epoch: e,
					CurrentLeaderEpoch: replica.NoEpoch}))
				rd := n.Ready()
				got = append(got, replica.EpochEndOffset{Epoch: rd.Messages[0].Epoch, EndOffset: rd.Messages[0].EndOffset})
				n.Advance(rd)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answers for epochs 0..5 (-want +got):\n%s", diff)
			}
		})
	}
}

// A follower ignores answers it no longer waits for: another correlation id,
// or a fetch answer for an offset that is no longer its LEO.
func TestFollowerIgnoresStaleAnswers(t *testing.T) {
	n, err := replica.NewNode(replica.Config{ID: 2, Rules: replica.Modern}, replica.NewMemLog())
	must(t, err)
	must(t, n.BecomeFollower(replica.LeaderAndISR{Leader: 1, ISR: []int32{1, 2}, Replicas: []int32{1, 2}}))
	rd := n.Ready()
	n.Advance(rd)
	fetch := rd.Messages[0]
	stale := replica.Message{Type: replica.MsgFetchResponse, From: 1, To: 2, CorrelationID: fetch.CorrelationID + 1,
		Entries: []replica.Entry{{Offset: 0, LeaderEpoch: 0, Value: []byte("x")}}, HighWatermark: 1}
	must(t, n.Step(stale))
	if got := n.Status().LogEndOffset; got != 0 {
		t.Fatalf("a stale answer was appended: LEO %d", got)
	}
	if n.HasReady() {
		t.Fatalf("a stale answer caused output: %+v", n.Ready())
	}
	stale.CorrelationID = fetch.CorrelationID
	must(t, n.Step(stale))
	if got := n.Status(); got.LogEndOffset != 1 || got.HighWatermark != 1 {
		t.Fatalf("the awaited answer gave LEO %d HW %d, want 1 and 1", got.LogEndOffset, got.HighWatermark)
	}
}

// An error answer makes the follower wait replica.fetch.backoff.ms; a lost
// request is sent again after replica.socket.timeout.ms.
func TestFollowerBackoffAndResend(t *testing.T) {
	n, err := replica.NewNode(replica.Config{ID: 2, Rules: replica.Modern, ReplicaFetchBackoffMs: 1000, ReplicaSocketTimeoutMs: 30000}, replica.NewMemLog())
	must(t, err)
	must(t, n.BecomeFollower(replica.LeaderAndISR{Leader: 1, ISR: []int32{1, 2}, Replicas: []int32{1, 2}}))
	fetches := func() int {
		rd := n.Ready()
		n.Advance(rd)
		return len(rd.Messages)
	}
	first := n.Ready().Messages[0]
	fetches()
	must(t, n.Step(replica.Message{Type: replica.MsgFetchResponse, From: 1, To: 2, CorrelationID: first.CorrelationID,
		Error: replica.NotLeaderOrFollower}))
	steps := []struct {
		nowMs int64
		want  int
	}{{999, 0}, {1000, 1}, {30999, 0}, {31000, 1}}
	for _, s := range steps {
		n.Tick(s.nowMs)
		if got := fetches(); got != s.want {
			t.Fatalf("at %d ms the follower sent %d fetches, want %d", s.nowMs, got, s.want)
		}
	}
}

// AbstractFetcherThread.handleOutOfRangeError, second half: a follower below the leader's log start starts over at it.
func TestFollowerBelowLeaderLogStartStartsOver(t *testing.T) {
	log := replica.NewMemLog()
	must(t, log.AppendAsFollower([]replica.Entry{{Offset: 0, LeaderEpoch: 0}, {Offset: 1, LeaderEpoch: 0}}))
	n, err := replica.NewNode(replica.Config{ID: 2, Rules: replica.Modern}, log)
	must(t, err)
	must(t, n.BecomeFollower(replica.LeaderAndISR{Leader: 1, LeaderEpoch: 1, ISR: []int32{1}, Replicas: []int32{1, 2}}))
	rd := n.Ready()
	n.Advance(rd)
	must(t, n.Step(replica.Message{Type: replica.MsgFetchResponse, From: 1, To: 2, CorrelationID: rd.Messages[0].CorrelationID,
		FetchOffset: 2, Error: replica.OffsetOutOfRange, LogStartOffset: 5, LogEndOffset: 9}))
	s := n.Status()
	got := []int64{s.LogStartOffset, s.LogEndOffset, s.HighWatermark, n.Ready().Messages[0].FetchOffset}
	if diff := cmp.Diff([]int64{5, 5, 5, 5}, got); diff != "" {
		t.Errorf("log start, LEO, HW, next fetch offset (-want +got):\n%s", diff)
	}
}

// Which answers a producer retries.
func TestRetriableCodes(t *testing.T) {
	codes := []replica.ErrorCode{replica.None, replica.OffsetOutOfRange, replica.NotLeaderOrFollower, replica.RequestTimedOut,
		replica.NotEnoughReplicas, replica.NotEnoughReplicasAfterAppend, replica.InvalidRequiredAcks}
	var got []string
	for _, c := range codes {
		if c.Retriable() {
			got = append(got, c.String())
		}
	}
	want := []string{"NOT_LEADER_OR_FOLLOWER", "REQUEST_TIMED_OUT", "NOT_ENOUGH_REPLICAS", "NOT_ENOUGH_REPLICAS_AFTER_APPEND"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("retriable codes (-want +got):\n%s", diff)
	}
}

// An answer to an earlier AlterPartition is not taken for the pending one
// (Kafka ignores answers once the partition state moved on).
func TestStaleAlterPartitionAnswerIsIgnored(t *testing.T) {
	n, _ := leaderWithLog(t, replica.Modern, nil, 0)
	// Broker 3 never fetches: past replica.lag.time.max.ms it is proposed out.
	fetch := func(from int32) {
		must(t, n.Step(replica.Message{Type: replica.MsgFetch, From: from, To: 1, CurrentLeaderEpoch: 0, LastFetchedEpoch: replica.NoEpoch, MaxWaitMs: 500}))
	}
	fetch(2)
	n.Tick(40000)
	fetch(2)
	rd := n.Ready()
	n.Advance(rd)
	if len(rd.AlterPartitions) != 1 {
		t.Fatalf("expected one ISR proposal after 40 s, got %+v", rd.AlterPartitions)
	}
	proposal := rd.AlterPartitions[0]
	stale := replica.Message{Type: replica.MsgAlterPartitionResponse, To: 1, LeaderEpoch: 0,
		CorrelationID: proposal.CorrelationID + 7, Error: replica.InvalidUpdateVersion}
	must(t, n.Step(stale))
	if got := n.Status().PendingISR; !cmp.Equal(got, proposal.ISR) {
		t.Fatalf("a stale refusal dropped the pending proposal %v: pending is now %v", proposal.ISR, got)
	}
	ok := replica.Message{Type: replica.MsgAlterPartitionResponse, To: 1, LeaderEpoch: 0,
		CorrelationID: proposal.CorrelationID, ISR: proposal.ISR, PartitionEpoch: 1}
	must(t, n.Step(ok))
	if s := n.Status(); s.PendingISR != nil || !cmp.Equal(s.ISR, proposal.ISR) {
		t.Fatalf("after the matching answer: ISR %v pending %v, want ISR %v and nothing pending", s.ISR, s.PendingISR, proposal.ISR)
	}
}

// Which ISR members a leader proposes to drop after a quiet spell, per rule
// set (Partition.getOutOfSyncReplicas at each tag): followers 2 and 3
// fetched at the leader's LEO at 0 ms and then went quiet.
//   - "caught up, then quiet for 20 s": from 2.1 (KAFKA-7152) a follower at
//     the leader's LEO is never out of sync; 2.0 looks at the time alone.
//   - "behind for 12 s": a record arrives that nobody fetches; 12 s is past
//     the 10 s replica.lag.time.max.ms default before 2.5 and within the
//     30 s one from 2.5 (KIP-537).
func TestISRShrinkByRuleSet(t *testing.T) {
	tests := []struct {
		name   string
		rules  replica.RuleSet
		append bool
		nowMs  int64
		want   [][]int32 // ISR proposals
	}{
		{"caught up, then quiet for 20 s", replica.V0_11, false, 20000, [][]int32{{1}}},
		{"caught up, then quiet for 20 s", replica.V2_0, false, 20000, [][]int32{{1}}},
		{"caught up, then quiet for 20 s", replica.V2_1, false, 20000, nil},
		{"caught up, then quiet for 20 s", replica.Modern, false, 20000, nil},
		{"behind for 12 s", replica.V2_0, true, 12000, [][]int32{{1}}},
		{"behind for 12 s", replica.V2_1, true, 12000, [][]int32{{1}}},
		{"behind for 12 s", replica.Modern, true, 12000, nil},
		{"behind for 31 s", replica.Modern, true, 31000, [][]int32{{1}}},
	}
	for _, tt := range tests {
		t.Run(tt.rules.String()+"/"+tt.name, func(t *testing.T) {
			n, _ := leaderWithLog(t, tt.rules, nil, 0)
			for _, from := range []int32{2, 3} {
				must(t, n.Step(replica.Message{Type: replica.MsgFetch, From: from, To: 1, CorrelationID: 1,
					CurrentLeaderEpoch: replica.NoEpoch, LastFetchedEpoch: replica.NoEpoch, MaxWaitMs: 500}))
			}
			if tt.append {
				must(t, n.Step(replica.Message{Type: replica.MsgProduce, From: 100, To: 1, CorrelationID: 2, Acks: 1,
					Records: []replica.Record{{Value: []byte("x")}}}))
			}
			n.Advance(n.Ready())
			n.Tick(tt.nowMs)
			var got [][]int32
			for _, a := range n.Ready().AlterPartitions {
				got = append(got, a.ISR)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ISR proposals at %d ms (-want +got):\n%s", tt.nowMs, diff)
			}
		})
	}
}

// min.insync.replicas 3 on a partition of two replicas, both in the ISR:
// from 3.7 the effective min ISR is min(3, RF) = 2 (Partition.effectiveMinIsr)
// and acks=all succeeds; before 3.7 the setting applies as written and
// every acks=all produce is refused (Partition.appendRecordsToLeader).
func TestEffectiveMinISRByRuleSet(t *testing.T) {
	tests := []struct {
		rules replica.RuleSet
		want  replica.ErrorCode
	}{
		{replica.V0_11, replica.NotEnoughReplicas},
		{replica.V2_1, replica.NotEnoughReplicas},
		{replica.Modern, replica.None},
	}
	for _, tt := range tests {
		t.Run(tt.rules.String(), func(t *testing.T) {
			n, err := replica.NewNode(replica.Config{ID: 1, Rules: tt.rules, MinInsyncReplicas: 3}, replica.NewMemLog())
			must(t, err)
			must(t, n.BecomeLeader(replica.LeaderAndISR{Leader: 1, ISR: []int32{1, 2}, Replicas: []int32{1, 2}}))
			n.Advance(n.Ready())
			must(t, n.Step(replica.Message{Type: replica.MsgProduce, From: 100, To: 1, CorrelationID: 7, Acks: replica.AcksAll,
				Records: []replica.Record{{Value: []byte("x")}}}))
			// The answer comes once follower 2 has the record (Modern) or at once (refused).
			must(t, n.Step(replica.Message{Type: replica.MsgFetch, From: 2, To: 1, CorrelationID: 1, FetchOffset: 1,
				CurrentLeaderEpoch: replica.NoEpoch, LastFetchedEpoch: replica.NoEpoch, MaxWaitMs: 500}))
			var got []replica.ErrorCode
			for _, r := range n.Ready().ProduceResponses {
				got = append(got, r.Error)
			}
			if diff := cmp.Diff([]replica.ErrorCode{tt.want}, got); diff != "" {
				t.Errorf("acks=all answers with min.insync.replicas 3 and RF 2 (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDefaultReplicaLagTimeMaxMs(t *testing.T) {
	got := map[replica.RuleSet]int64{}
	for r := replica.V0_10; r <= replica.Modern; r++ {
		got[r] = r.DefaultReplicaLagTimeMaxMs()
	}
	want := map[replica.RuleSet]int64{replica.V0_10: 10000, replica.V0_11: 10000, replica.V2_0: 10000, replica.V2_1: 10000, replica.V3_7: 30000, replica.V4: 30000}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("replica.lag.time.max.ms defaults (-want +got):\n%s", diff)
	}
}

// stuckLog is a Log whose Read always answers with its first entry, as a
// faulty implementation of the interface might.
type stuckLog struct{ *replica.MemLog }

func (l stuckLog) Read(from int64, maxBytes int) ([]replica.Entry, error) {
	return l.MemLog.Read(l.LogStartOffset(), maxBytes)
}

// TestLeaderRefusesLogThatDoesNotAdvance: a new leader reads its whole log
// for its producers' sequences; a Log whose Read returns entries before the
// offset asked ends that with an ErrLog error, not a read without end.
func TestLeaderRefusesLogThatDoesNotAdvance(t *testing.T) {
	log := replica.NewMemLog()
	for i := range 3 {
		must(t, log.AppendAsFollower([]replica.Entry{{Offset: int64(i), LeaderEpoch: 0, Value: []byte("r")}}))
	}
	n, err := replica.NewNode(replica.Config{ID: 1, Rules: replica.Modern, ReplicaFetchMaxBytes: 1}, stuckLog{log})
	must(t, err)
	done := make(chan error, 1)
	go func() {
		done <- n.BecomeLeader(replica.LeaderAndISR{Leader: 1, LeaderEpoch: 1, ISR: []int32{1, 2, 3}, Replicas: []int32{1, 2, 3}})
	}()
	select {
	case err := <-done:
		if !errors.Is(err, replica.ErrLog) {
			t.Fatalf("BecomeLeader over a log whose reads do not advance: %v, want ErrLog", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("BecomeLeader over a log whose reads do not advance has not returned in 10 s")
	}
}

// TestSetMinInsyncReplicas: min.insync.replicas changed while the node
// leads (a topic config altered) holds the next acks=all produce; below
// one it is refused and nothing changes.
func TestSetMinInsyncReplicas(t *testing.T) {
	log := replica.NewMemLog()
	n, err := replica.NewNode(replica.Config{ID: 1, Rules: replica.Modern, MinInsyncReplicas: 2}, log)
	must(t, err)
	must(t, n.BecomeLeader(replica.LeaderAndISR{Leader: 1, ISR: []int32{1, 2}, Replicas: []int32{1, 2, 3}}))
	n.Advance(n.Ready())
	produce := func(corr int64) []replica.ProduceResponse {
		must(t, n.Step(replica.Message{Type: replica.MsgProduce, From: 100, To: 1, CorrelationID: corr, Acks: replica.AcksAll,
			Records: []replica.Record{{Value: []byte("x")}}}))
		rd := n.Ready()
		n.Advance(rd)
		return rd.ProduceResponses
	}
	if !errors.Is(n.SetMinInsyncReplicas(0), replica.ErrInvalidConfig) {
		t.Errorf("min.insync.replicas 0 was taken")
	}
	must(t, n.SetMinInsyncReplicas(3))
	if diff := cmp.Diff([]replica.ProduceResponse{{To: 100, CorrelationID: 7, Error: replica.NotEnoughReplicas, BaseOffset: -1}}, produce(7)); diff != "" {
		t.Errorf("with min.insync.replicas 3 and an ISR of 2 (-want +got):\n%s", diff)
	}
	must(t, n.SetMinInsyncReplicas(2))
	if got := produce(8); len(got) != 0 || log.LogEndOffset() != 1 {
		t.Errorf("with min.insync.replicas 2: answers %v, LEO %d; want the record appended and its answer parked for the follower", got, log.LogEndOffset())
	}
}

// refusingLog is a MemLog whose leader appends its producer state refuses
// with code, as a log that keeps Kafka's ProducerStateManager does.
type refusingLog struct {
	*replica.MemLog
	code replica.ErrorCode
}

func (l refusingLog) AppendAsLeader([]replica.Record, int32) (int64, error) {
	return 0, &replica.RefusedError{Code: l.code, Err: errors.New("refused")}
}

// A log that refuses a leader's append with a code of its own (an old
// producer epoch, a plain batch inside a transaction, a fenced
// coordinator's marker) has the leader answer the produce with that code,
// and nothing is appended.
func TestProduceRefusedByTheLog(t *testing.T) {
	for _, code := range []replica.ErrorCode{replica.InvalidProducerEpoch, replica.InvalidTxnState, replica.TransactionCoordinatorFenced} {
		t.Run(code.String(), func(t *testing.T) {
			log := refusingLog{MemLog: replica.NewMemLog(), code: code}
			n, err := replica.NewNode(replica.Config{ID: 1, Rules: replica.Modern}, log)
			must(t, err)
			must(t, n.BecomeLeader(replica.LeaderAndISR{Leader: 1, ISR: []int32{1}, Replicas: []int32{1}}))
			n.Advance(n.Ready())
			must(t, n.Step(replica.Message{Type: replica.MsgProduce, From: 100, To: 1, CorrelationID: 7, Acks: 1,
				Records: []replica.Record{{Value: []byte("x")}}}))
			want := []replica.ProduceResponse{{To: 100, CorrelationID: 7, Error: code, BaseOffset: -1}}
			if diff := cmp.Diff(want, n.Ready().ProduceResponses); diff != "" {
				t.Errorf("produce answers (-want +got):\n%s", diff)
			}
			if code.Retriable() {
				t.Errorf("%s is retriable; a producer does not retry it", code)
			}
		})
	}
}
