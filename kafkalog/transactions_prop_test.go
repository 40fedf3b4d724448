package kafkalog

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/vfs"
)

// txnBatch is one batch of the model log: what a producer state reads of it.
type txnBatch struct {
	base, last int64
	pid        int64
	epoch      int16
	ts         int64
	txn        bool
	marker     ControlRecordType // ControlAbort or ControlCommit for a marker, else -1
	coordEpoch int32
}

// txnModel replays the batches of the log, in order, as Kafka's
// ProducerStateManager does, written plainly: no shared state, no clones.
type txnModel struct {
	producers map[int64]ProducerSnapshotEntry
	open      []OngoingTxn
	done      []CompletedTxn // completed, in marker order
	aborted   []AbortedTxn
}

func replay(batches []txnBatch) *txnModel {
	m := &txnModel{producers: map[int64]ProducerSnapshotEntry{}}
	for _, b := range batches {
		if b.pid < 0 {
			continue
		}
		e, ok := m.producers[b.pid]
		if !ok {
			e = ProducerSnapshotEntry{ProducerID: b.pid, ProducerEpoch: -1, LastSequence: -1, LastOffset: -1, Timestamp: -1, CoordinatorEpoch: -1, CurrentTxnFirstOffset: -1}
		}
		if b.epoch != e.ProducerEpoch {
			e.ProducerEpoch, e.LastSequence, e.LastOffset, e.OffsetDelta = b.epoch, -1, -1, 0
		}
		if b.marker >= 0 {
			if e.CurrentTxnFirstOffset >= 0 {
				c := CompletedTxn{ProducerID: b.pid, FirstOffset: e.CurrentTxnFirstOffset, LastOffset: b.base, Aborted: b.marker == ControlAbort}
				if c.Aborted {
					lso := b.base + 1
					for _, o := range m.open {
						if o.ProducerID != b.pid {
							lso = min(lso, o.FirstOffset)
						}
					}
					m.aborted = append(m.aborted, AbortedTxn{ProducerID: b.pid, FirstOffset: c.FirstOffset, LastOffset: b.base, LastStableOffset: lso})
				}
				m.done = append(m.done, c)
				for i, o := range m.open {
					if o.ProducerID == b.pid {
						m.open = append(m.open[:i:i], m.open[i+1:]...)
						break
					}
				}
			}
			e.CoordinatorEpoch, e.Timestamp, e.CurrentTxnFirstOffset = b.coordEpoch, b.ts, -1
		} else {
			e.LastSequence, e.LastOffset, e.OffsetDelta, e.Timestamp = int32(b.last-b.base), b.last, int32(b.last-b.base), b.ts
			if b.txn && e.CurrentTxnFirstOffset < 0 {
				e.CurrentTxnFirstOffset = b.base
				m.open = append(m.open, OngoingTxn{ProducerID: b.pid, FirstOffset: b.base})
			}
		}
		m.producers[b.pid] = e
	}
	return m
}

// lso is the model's last stable offset at high watermark hw: the first
// offset of a transaction open, or ended by a marker at or above hw, if
// below hw.
func (m *txnModel) lso(hw int64) int64 {
	out := hw
	for _, o := range m.open {
		out = min(out, o.FirstOffset)
	}
	for _, c := range m.done {
		if c.LastOffset >= hw {
			out = min(out, c.FirstOffset)
		}
	}
	return out
}

// txnMachine drives a Log's appends of transactional batches and markers,
// truncations, high watermark moves and reopenings against txnModel.
type txnMachine struct {
	fsys    *vfs.MemFS
	cfg     Config
	log     *Log
	batches []txnBatch
	hw      int64
	now     int64
}

func (m *txnMachine) open(t *rapid.T, opts ...Option) {
	l, err := Open(m.fsys, testDir, m.cfg, m.now, opts...)
	if err != nil {
		t.Fatalf("the log does not open: %v", err)
	}
	m.log = l
}

func (m *txnMachine) model() *txnModel { return replay(m.batches) }

// expected is the refusal a leader's checks give b, or nil.
func (m *txnMachine) expected(b txnBatch) error {
	e, ok := m.model().producers[b.pid]
	if b.pid < 0 || !ok {
		return nil
	}
	switch {
	case b.epoch < e.ProducerEpoch:
		return ErrInvalidProducerEpoch
	case b.marker >= 0 && b.coordEpoch < e.CoordinatorEpoch:
		return ErrCoordinatorFenced
	case b.marker < 0 && !b.txn && e.CurrentTxnFirstOffset >= 0:
		return ErrInvalidTxnState
	}
	return nil
}

func (m *txnMachine) appendBatch(t *rapid.T, b txnBatch, raw []byte) {
	want := m.expected(b)
	info, err := m.log.AppendAsLeader(raw, 0, m.now)
	if want != nil {
		if !errors.Is(err, want) {
			t.Fatalf("appending %+v: got %v, want %v", b, err, want)
		}
		return
	}
	if err != nil {
		t.Fatalf("appending %+v: %v", b, err)
	}
	b.base, b.last = info.FirstOffset, info.LastOffset
	m.batches = append(m.batches, b)
}

func (m *txnMachine) drawProducer(t *rapid.T) (int64, int16) {
	pid := int64(rapid.IntRange(1, 3).Draw(t, "producer id"))
	epoch := int16(0)
	if e, ok := m.model().producers[pid]; ok {
		epoch = e.ProducerEpoch
	}
	epoch += int16(rapid.SampledFrom([]int{0, 0, 0, 0, 1, -1}).Draw(t, "epoch change"))
	return pid, max(epoch, 0)
}

func (m *txnMachine) Data(t *rapid.T) {
	pid, epoch := m.drawProducer(t)
	txn := rapid.IntRange(0, 4).Draw(t, "transactional") > 0
	n := rapid.IntRange(1, 3).Draw(t, "records")
	m.now += int64(rapid.IntRange(0, 10).Draw(t, "ms passing"))
	recs := make([]kv, n)
	for i := range recs {
		recs[i] = kv{key: "k", value: fmt.Sprint("v", i)}
	}
	rb, _, err := ReadBatch(encodeBatch(0, m.now, recs...))
	require.NoError(t, err)
	rb.ProducerID, rb.ProducerEpoch, rb.BaseSequence = pid, epoch, 0
	rb.Attributes = NewAttributes(CompressionNone, CreateTime, txn, false)
	m.appendBatch(t, txnBatch{pid: pid, epoch: epoch, ts: m.now, txn: txn, marker: -1}, rb.AppendTo(nil))
}

func (m *txnMachine) Marker(t *rapid.T) {
	pid, epoch := m.drawProducer(t)
	typ := rapid.SampledFrom([]ControlRecordType{ControlAbort, ControlCommit}).Draw(t, "marker")
	ce := int32(rapid.IntRange(0, 2).Draw(t, "coordinator epoch"))
	m.now += int64(rapid.IntRange(0, 10).Draw(t, "ms passing"))
	b := NewEndTxnMarkerBatch(0, m.now, pid, epoch, typ, ce)
	m.appendBatch(t, txnBatch{pid: pid, epoch: epoch, ts: m.now, txn: true, marker: typ, coordEpoch: ce}, b.AppendTo(nil))
}

func (m *txnMachine) Plain(t *rapid.T) {
	m.now += int64(rapid.IntRange(0, 10).Draw(t, "ms passing"))
	info, err := m.log.AppendAsLeader(encodeBatch(0, m.now, kv{key: "k", value: "plain"}), 0, m.now)
	require.NoError(t, err)
	m.batches = append(m.batches, txnBatch{base: info.FirstOffset, last: info.LastOffset, pid: -1, marker: -1})
}

func (m *txnMachine) HighWatermark(t *rapid.T) {
	m.hw = rapid.Int64Range(m.hw, m.log.LogEndOffset()).Draw(t, "high watermark")
	m.log.OnHighWatermarkUpdated(m.hw)
}

func (m *txnMachine) Truncate(t *rapid.T) {
	// a replica cuts at batch boundaries, never below its high watermark
	var cuts []int64
	for _, b := range m.batches {
		if b.base >= m.hw {
			cuts = append(cuts, b.base)
		}
	}
	if len(cuts) == 0 {
		t.Skip("nothing above the high watermark")
	}
	to := rapid.SampledFrom(cuts).Draw(t, "truncate to")
	require.NoError(t, m.log.TruncateTo(to, m.now))
	for len(m.batches) > 0 && m.batches[len(m.batches)-1].base >= to {
		m.batches = m.batches[:len(m.batches)-1]
	}
}

func (m *txnMachine) Reopen(t *rapid.T) {
	switch rapid.IntRange(0, 2).Draw(t, "how") {
	case 0: // clean shutdown
		require.NoError(t, m.log.Close())
		m.open(t, WithCleanShutdown(), WithRecoveryPoint(m.log.LogEndOffset()))
	case 1: // process crash, recovering from a random recovery point
		m.fsys.Crash()
		m.open(t, WithRecoveryPoint(rapid.Int64Range(0, m.log.LogEndOffset()).Draw(t, "recovery point")))
	default: // power cut after the OS wrote every page back
		m.fsys.Writeback()
		m.fsys.PowerCut(func(string, int64, int64) int64 { return 0 })
		m.open(t, WithRecoveryPoint(rapid.Int64Range(0, m.log.LogEndOffset()).Draw(t, "recovery point")))
	}
	m.log.OnHighWatermarkUpdated(m.hw)
}

func (m *txnMachine) Collect(t *rapid.T) {
	leo := m.log.LogEndOffset()
	from := rapid.Int64Range(0, leo).Draw(t, "fetch offset")
	upper := rapid.Int64Range(from, leo+1).Draw(t, "upper bound")
	var want []AbortedTxn
	for _, a := range m.model().aborted {
		if a.LastOffset >= from && a.FirstOffset < upper {
			want = append(want, a)
		}
	}
	if diff := cmp.Diff(want, m.log.CollectAbortedTxns(from, upper)); diff != "" {
		t.Fatalf("aborted transactions of a fetch of [%d, %d) (-want +got):\n%s", from, upper, diff)
	}
}

func (m *txnMachine) Check(t *rapid.T) {
	md := m.model()
	if diff := cmp.Diff(md.aborted, m.log.AllAbortedTxns()); diff != "" {
		t.Fatalf("the .txnindex files differ from the aborted transactions of the log (-want +got):\n%s", diff)
	}
	if want, got := md.lso(m.hw), m.log.LastStableOffset(m.hw); want != got {
		t.Fatalf("last stable offset at high watermark %d: got %d, want %d", m.hw, got, want)
	}
	want := make([]ProducerSnapshotEntry, 0, len(md.producers))
	for pid := int64(0); pid <= 3; pid++ {
		if e, ok := md.producers[pid]; ok {
			want = append(want, e)
		}
	}
	if diff := cmp.Diff(want, m.log.Producers()); diff != "" {
		t.Fatalf("producer state (-want +got):\n%s", diff)
	}
}

// The producer state of a log follows its batches through appends, high
// watermark moves, truncations, rolls and reopenings (clean, after a crash
// from any recovery point, after a power cut): the .txnindex files hold
// every aborted transaction with the last stable offset Kafka records, the
// last stable offset is Kafka's, a leader refuses exactly what Kafka 3.7's
// ProducerAppendInfo refuses, and a fetch collects the aborted transactions
// it must.
func TestTransactionStateMachine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := testConfig()
		cfg.SegmentBytes = int64(rapid.IntRange(150, 600).Draw(t, "segment.bytes"))
		m := &txnMachine{fsys: vfs.NewMem(), cfg: cfg}
		m.open(t)
		t.Repeat(rapid.StateMachineActions(m))
	})
}

// A clone keeps the producer state and transaction index of the moment it
// was taken while the original goes on.
func TestTransactionStateClone(t *testing.T) {
	fsys := vfs.NewMem()
	l := openTestLog(t, fsys, testConfig())
	appendLeader(t, l, producerBatch(1, 7, 0, true, kv{key: "a", value: "1"}), 1)
	appendLeader(t, l, markerBatch(2, 7, ControlAbort), 2)
	c := l.Clone(fsys.Clone(), nil)
	appendLeader(t, l, producerBatch(3, 7, 1, true, kv{key: "a", value: "2"}), 3)
	appendLeader(t, l, markerBatch(4, 7, ControlAbort), 4)
	require.Len(t, l.AllAbortedTxns(), 2)
	require.Equal(t, []AbortedTxn{{ProducerID: 7, FirstOffset: 0, LastOffset: 1, LastStableOffset: 2}}, c.AllAbortedTxns())
	require.Empty(t, c.OngoingTxns())
	appendLeader(t, c, producerBatch(5, 7, 1, true, kv{key: "a", value: "3"}), 5)
	require.Equal(t, []OngoingTxn{{ProducerID: 7, FirstOffset: 2}}, c.OngoingTxns())
	require.Empty(t, l.OngoingTxns())
	require.Equal(t, int64(2), c.LastStableOffset(3))
	require.Equal(t, int64(4), l.LastStableOffset(4))
}
