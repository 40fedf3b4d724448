package client

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// partFunc is a Settings.ReadCommitted.
type partFunc = func(int64, []kafkalog.RecordBatch, []kafkalog.AbortedTxn) ([]int64, bool)

// abortedLog is a partition whose producer 7 wrote a1 and a2 (one batch)
// in a transaction it aborted (marker at 2), then b1 (3) it committed (marker
// at 4): the entries as a leader's log hands them to a consumer, each
// batch's bytes on its first entry.
func abortedLog() *fakeLog {
	txn := kafkalog.NewAttributes(kafkalog.CompressionNone, kafkalog.CreateTime, true, false)
	var a kafkalog.RecordBatch
	a.AppendRecord(0, 0, []byte("k"), []byte("a1"))
	a.AppendRecord(1, 0, []byte("k"), []byte("a2"))
	a.ProducerID, a.ProducerEpoch, a.BaseSequence, a.Attributes = 7, 0, 0, txn
	batches := []kafkalog.RecordBatch{a, kafkalog.NewEndTxnMarkerBatch(2, 0, 7, 0, kafkalog.ControlAbort, 0)}
	var b1 kafkalog.RecordBatch
	b1.AppendRecord(0, 0, []byte("k"), []byte("b1"))
	b1.BaseOffset, b1.ProducerID, b1.ProducerEpoch, b1.BaseSequence, b1.Attributes = 3, 7, 0, 2, txn
	batches = append(batches, b1, kafkalog.NewEndTxnMarkerBatch(4, 0, 7, 0, kafkalog.ControlCommit, 0))
	l := &fakeLog{hw: 5, aborted: []kafkalog.AbortedTxn{{ProducerID: 7, FirstOffset: 0, LastOffset: 2}}}
	for _, b := range batches {
		raw := b.AppendTo(nil)
		for j, r := range b.Records {
			e := replica.Entry{Offset: b.BaseOffset + int64(r.OffsetDelta), Key: r.Key, Value: r.Value}
			if j == 0 {
				e.Batch = raw
			}
			l.entries = append(l.entries, e)
		}
	}
	return l
}

// pollOnce makes a simple consumer of ledger-0 with settings s and
// isolation level iso, polls once from pos, and returns the offsets it
// handed out, its position, and what the env recorded.
func pollOnce(t *testing.T, s Settings, iso string, log *fakeLog, pos int64) ([]int64, int64, string) {
	t.Helper()
	env := newFakeEnv(1)
	env.topics = []metadata.Topic{{Name: "ledger", Assignment: [][]int32{{1}}}}
	tp := kafkalog.TopicPartition{Topic: "ledger", Partition: 0}
	env.leaders[tp], env.logs[tp] = 1, log
	c, err := NewConsumer(env, s, ConsumerConfig{Name: "rc", Topic: "ledger", IsolationLevel: iso})
	if err != nil {
		t.Fatal(err)
	}
	c.position = pos
	c.Poll(env)
	var got []int64
	for _, r := range c.Records() {
		got = append(got, r.Offset)
	}
	return got, c.Position(), env.out.String()
}

func TestReadCommittedPart(t *testing.T) {
	everything := func(_ int64, bs []kafkalog.RecordBatch, _ []kafkalog.AbortedTxn) ([]int64, bool) {
		var out []int64
		for _, b := range bs {
			for _, r := range b.Records {
				out = append(out, b.BaseOffset+int64(r.OffsetDelta))
			}
		}
		return out, true
	}
	var calls int
	var given []kafkalog.AbortedTxn
	spy := func(pos int64, bs []kafkalog.RecordBatch, a []kafkalog.AbortedTxn) ([]int64, bool) {
		calls++
		given = a
		return []int64{3}, true
	}
	declines := func(int64, []kafkalog.RecordBatch, []kafkalog.AbortedTxn) ([]int64, bool) { return nil, false }
	for _, c := range []struct {
		name     string
		part     partFunc
		iso      string
		pos      int64
		want     []int64
		wantPos  int64
		byPart   bool
		wantCall int
	}{
		{"no part: the reference skips a1, a2 and the markers", nil, ReadCommitted, 0, []int64{3}, 5, false, 0},
		{"a part that delivers everything hands out the aborted records and the markers", everything, ReadCommitted, 0, []int64{0, 1, 2, 3, 4}, 5, true, 0},
		{"a part that declines: the reference filters the fetch", declines, ReadCommitted, 0, []int64{3}, 5, false, 0},
		{"read_uncommitted never asks the part", spy, ReadUncommitted, 0, []int64{0, 1, 3}, 5, false, 0},
		{"the part decides read_committed, and is told the leader's aborted transactions", spy, ReadCommitted, 0, []int64{3}, 5, true, 1},
		// What the reference does there is its own affair (it cannot see
		// the batch's header): the part is not asked.
		{"a fetch that begins inside a batch, its bytes not fetched: the reference", everything, ReadCommitted, 1, nil, 5, false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.want == nil {
				c.want, _, _ = pollOnce(t, Settings{}, c.iso, abortedLog(), c.pos)
			}
			calls, given = 0, nil
			got, pos, out := pollOnce(t, Settings{ReadCommitted: c.part}, c.iso, abortedLog(), c.pos)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("handed out (-want +got):\n%s", diff)
			}
			if pos != c.wantPos {
				t.Errorf("position %d, want %d (every record passed or handed out)", pos, c.wantPos)
			}
			if marked := strings.Contains(out, "decided by the read-committed part"); marked != c.byPart {
				t.Errorf("events marked as the part's: %v, want %v:\n%s", marked, c.byPart, out)
			}
			if calls != c.wantCall {
				t.Errorf("the part was called %d times, want %d", calls, c.wantCall)
			}
			if c.wantCall > 0 && !slices.Equal(given, []kafkalog.AbortedTxn{{ProducerID: 7, FirstOffset: 0, LastOffset: 2}}) {
				t.Errorf("the part was told %v", given)
			}
		})
	}
}
