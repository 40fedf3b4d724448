package kafkalog

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kafkalive/kafkalive/vfs"
	"pgregory.net/rapid"
)

// modelRec is a record of the model log.
type modelRec struct {
	key, value string
	tombstone  bool
	gap        bool // an offset the leader skipped (compacted away before the fetch)
}

// logMachine drives a Log on a MemFS against a model: the log as a slice of records by
// offset, plus what the caller has been promised (high watermark, flushed offset, how
// far compaction went).
type logMachine struct {
	fsys *vfs.MemFS
	cfg  Config
	log  *Log
	now  int64

	recs         []modelRec // by offset, [0, LEO)
	starts       []int64    // base offsets of the appended batches
	hw           int64      // offsets below it are committed: never truncated, may be cleaned
	durable      int64      // offsets below it were flushed: they survive a power cut
	cleanedUpTo  int64      // compaction may have removed superseded records below it
	cleanerPoint int64      // the cleaner-offset checkpoint
	crashes      int
	// kept are the buffers handed over to NoCopy appends, keptWas what
	// they held then: the log must never write into them.
	kept, keptWas [][]byte
}

// appendAs appends b as leader (or follower), handing it over (NoCopy) or
// not at random.
func (m *logMachine) appendAs(t *rapid.T, leader bool, b []byte) (AppendInfo, error) {
	noCopy := rapid.Bool().Draw(t, "no copy")
	var info AppendInfo
	var err error
	switch {
	case leader && noCopy:
		info, err = m.log.AppendAsLeaderNoCopy(b, 0, m.now)
	case leader:
		info, err = m.log.AppendAsLeader(b, 0, m.now)
	case noCopy:
		info, err = m.log.AppendAsFollowerNoCopy(b, m.now)
	default:
		info, err = m.log.AppendAsFollower(b, m.now)
	}
	if noCopy {
		m.kept, m.keptWas = append(m.kept, b), append(m.keptWas, bytes.Clone(b))
	}
	return info, err
}

const modelRoot = "logs"

var modelTP = TopicPartition{Topic: "topic", Partition: 0}

func newLogMachine(t *rapid.T) *logMachine {
	cfg := DefaultConfig()
	cfg.SegmentBytes = int64(rapid.IntRange(200, 1200).Draw(t, "segment.bytes"))
	cfg.SegmentIndexBytes = int64(rapid.IntRange(24, 200).Draw(t, "segment.index.bytes"))
	cfg.IndexIntervalBytes = int64(rapid.IntRange(0, 300).Draw(t, "index.interval.bytes"))
	cfg.RetentionMs = -1
	cfg.RetentionBytes = int64(rapid.SampledFrom([]int{-1, 600, 2000}).Draw(t, "retention.bytes"))
	cfg.CleanupPolicy = "compact,delete"
	cfg.DeleteRetentionMs = 50
	m := &logMachine{fsys: vfs.NewMem(), cfg: cfg}
	m.open(t, false)
	return m
}

func (m *logMachine) open(t *rapid.T, clean bool) {
	rps, err := ReadOffsetCheckpoint(m.fsys, modelRoot+"/"+RecoveryPointCheckpointFile)
	if err != nil {
		t.Fatalf("the recovery point checkpoint is unreadable after a crash: %v", err)
	}
	lsos, err := ReadOffsetCheckpoint(m.fsys, modelRoot+"/"+LogStartOffsetCheckpointFile)
	if err != nil {
		t.Fatalf("the log start offset checkpoint is unreadable after a crash: %v", err)
	}
	opts := []Option{WithRecoveryPoint(rps[modelTP]), WithLogStartOffset(lsos[modelTP])}
	if clean {
		opts = append(opts, WithCleanShutdown())
	}
	l, err := Open(m.fsys, testDir, m.cfg, m.now, opts...)
	if err != nil {
		t.Fatalf("the log does not open (clean=%v): %v", clean, err)
	}
	m.log = l
	m.checkpoint(t) // as OpenDataDir does, so that no stale recovery point outlives the open
}

// checkpoint persists the recovery point and log start offset, as a data dir does.
func (m *logMachine) checkpoint(t *rapid.T) {
	for name, off := range map[string]int64{RecoveryPointCheckpointFile: m.log.RecoveryPoint(), LogStartOffsetCheckpointFile: m.log.LogStartOffset()} {
		if err := WriteOffsetCheckpoint(m.fsys, modelRoot+"/"+name, map[TopicPartition]int64{modelTP: off}); err != nil {
			t.Fatalf("write %s: %v", name, err)
		}
	}
}

func (m *logMachine) Append(t *rapid.T) {
	n := rapid.IntRange(1, 3).Draw(t, "records")
	var kvs []kv
	for i := 0; i < n; i++ {
		r := kv{key: fmt.Sprint("k", rapid.IntRange(0, 5).Draw(t, "key")), value: fmt.Sprint("v", len(m.recs)+i)}
		r.tombstone = rapid.IntRange(0, 9).Draw(t, "tombstone") == 0
		kvs = append(kvs, r)
	}
	m.now += int64(rapid.IntRange(0, 20).Draw(t, "ms passing"))
	info, err := m.appendAs(t, true, encodeBatch(0, m.now, kvs...))
	if err != nil {
		t.Fatalf("append of %d records at LEO %d failed: %v", n, len(m.recs), err)
	}
	if info.FirstOffset != int64(len(m.recs)) {
		t.Fatalf("append got offset %d, LEO was %d", info.FirstOffset, len(m.recs))
	}
	m.starts = append(m.starts, int64(len(m.recs)))
	for _, r := range kvs {
		m.recs = append(m.recs, modelRec{key: r.key, value: r.value, tombstone: r.tombstone})
	}
}

// AppendAsFollower appends a batch fetched from a leader whose log has a gap of 0–3
// offsets before it (the leader compacted them away).
func (m *logMachine) AppendAsFollower(t *rapid.T) {
	gap := rapid.IntRange(0, 3).Draw(t, "offsets skipped")
	base := int64(len(m.recs) + gap)
	r := kv{key: fmt.Sprint("k", rapid.IntRange(0, 5).Draw(t, "key")), value: fmt.Sprint("v", base)}
	b := encodeBatch(base, m.now, r)
	binaryPutEpoch(b, int32(rapid.IntRange(0, 2).Draw(t, "leader epoch")))
	if _, err := m.appendAs(t, false, b); err != nil {
		t.Fatalf("follower append at %d (LEO %d): %v", base, len(m.recs), err)
	}
	for i := 0; i < gap; i++ {
		m.recs = append(m.recs, modelRec{gap: true})
	}
	m.starts = append(m.starts, base)
	m.recs = append(m.recs, modelRec{key: r.key, value: r.value})
}

// boundaries returns the batch boundaries (and the LEO) in [from, LEO]: where a high
// watermark or a truncation can be.
func (m *logMachine) boundaries(from int64) []int64 {
	var out []int64
	for _, s := range m.starts {
		if s >= from {
			out = append(out, s)
		}
	}
	return append(out, int64(len(m.recs)))
}

func (m *logMachine) AdvanceHighWatermark(t *rapid.T) {
	m.hw = rapid.SampledFrom(m.boundaries(m.hw)).Draw(t, "high watermark")
}

func (m *logMachine) Read(t *rapid.T) {
	if m.log.LogEndOffset() == m.log.LogStartOffset() {
		t.Skip("empty log")
	}
	off := rapid.Int64Range(m.log.LogStartOffset(), m.log.LogEndOffset()-1).Draw(t, "read offset")
	data, err := m.log.Read(off, rapid.IntRange(1, 500).Draw(t, "max bytes"))
	if err != nil {
		t.Fatalf("read at %d in [%d, %d): %v", off, m.log.LogStartOffset(), m.log.LogEndOffset(), err)
	}
	if len(data) == 0 {
		for o := off; o < int64(len(m.recs)); o++ {
			if !m.recs[o].gap {
				t.Fatalf("read at %d below the LEO %d returned nothing, but offset %d exists", off, m.log.LogEndOffset(), o)
			}
		}
		return
	}
	b, _, err := ReadBatch(data)
	if err != nil {
		t.Fatalf("read at %d returned a bad batch: %v", off, err)
	}
	if b.LastOffset() < off {
		t.Fatalf("read at %d returned a batch ending at %d", off, b.LastOffset())
	}
}

func (m *logMachine) Roll(t *rapid.T) {
	if err := m.log.Roll(m.now); err != nil {
		t.Fatalf("roll: %v", err)
	}
}

func (m *logMachine) ApplyRetention(t *rapid.T) {
	if _, err := m.log.DeleteOldSegments(m.hw, m.now); err != nil {
		t.Fatalf("retention with HW %d: %v", m.hw, err)
	}
	m.now += int64(rapid.IntRange(0, 100).Draw(t, "ms passing"))
	if _, err := m.log.DeleteExpiredFiles(m.now); err != nil {
		t.Fatalf("removing .deleted files: %v", err)
	}
}

func (m *logMachine) DeleteRecords(t *rapid.T) {
	if m.hw <= m.log.LogStartOffset() {
		t.Skip("nothing committed above the log start offset")
	}
	to := rapid.Int64Range(m.log.LogStartOffset(), m.hw).Draw(t, "delete records before")
	if _, err := m.log.DeleteRecords(to, m.hw); err != nil {
		t.Fatalf("delete records before %d (HW %d): %v", to, m.hw, err)
	}
}

func (m *logMachine) Compact(t *rapid.T) {
	res, err := m.log.Clean(m.cleanerPoint, m.hw, m.now, CleanerOptions{MaxMapEntries: rapid.IntRange(1, 10).Draw(t, "offset map entries")})
	if err != nil {
		t.Fatalf("clean from %d with HW %d: %v", m.cleanerPoint, m.hw, err)
	}
	m.cleanerPoint = res.EndOffset
	if res.EndOffset == res.FirstDirtyOffset {
		return // nothing cleanable: the checkpoint is returned as it was
	}
	if res.EndOffset > m.hw {
		t.Fatalf("the cleaner cleaned [%d, %d), past the high watermark %d", res.FirstDirtyOffset, res.EndOffset, m.hw)
	}
	m.cleanedUpTo = max(m.cleanedUpTo, res.EndOffset)
}

func (m *logMachine) TruncateTo(t *rapid.T) {
	to := rapid.SampledFrom(m.boundaries(max(m.hw, m.log.LogStartOffset()))).Draw(t, "truncate to")
	if err := m.log.TruncateTo(to, m.now); err != nil {
		t.Fatalf("truncate to %d: %v", to, err)
	}
	m.cut(to)
	m.durable = min(m.durable, to)
	m.checkpoint(t) // Kafka checkpoints the recovery point after a truncation
}

func (m *logMachine) Flush(t *rapid.T) {
	if err := m.log.Flush(m.log.LogEndOffset()); err != nil {
		t.Fatalf("flush: %v", err)
	}
	m.durable = int64(len(m.recs))
	m.checkpoint(t)
}

func (m *logMachine) ProcessCrash(t *rapid.T) {
	m.fsys.Crash()
	m.reopenAfterCrash(t, false)
}

func (m *logMachine) PowerCut(t *rapid.T) {
	m.fsys.PowerCutRand(rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "power cut seed"), 7)))
	m.reopenAfterCrash(t, true)
}

func (m *logMachine) reopenAfterCrash(t *rapid.T, power bool) {
	m.crashes++
	m.open(t, false)
	leo := m.log.LogEndOffset()
	switch {
	case leo > int64(len(m.recs)):
		t.Fatalf("after a crash the LEO is %d, beyond the %d records appended", leo, len(m.recs))
	case leo < m.durableData():
		t.Fatalf("after a crash (power cut %v) the LEO is %d, but offsets below %d were flushed", power, leo, m.durable)
	case !power && leo != int64(len(m.recs)) && !m.onlyGapsFrom(leo):
		t.Fatalf("a process crash lost data: LEO %d, %d records appended (the page cache survives)", leo, len(m.recs))
	}
	m.cut(leo)
	m.hw = min(m.hw, leo)
}

// cut drops the model's records from offset on.
func (m *logMachine) cut(offset int64) {
	m.recs = m.recs[:offset]
	m.durable = min(m.durable, offset)
	for len(m.starts) > 0 && m.starts[len(m.starts)-1] >= offset {
		m.starts = m.starts[:len(m.starts)-1]
	}
}

func (m *logMachine) Reopen(t *rapid.T) {
	if err := m.log.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	m.durable = int64(len(m.recs))
	m.checkpoint(t)
	m.open(t, true)
	if r := m.log.RecoveryReport(); r.SegmentsRecovered != len(r.IndexesRebuilt) {
		t.Fatalf("a clean reopen recovered %d segments (%+v)", r.SegmentsRecovered, r)
	}
	// A log that ends in a gap (a truncation past its last batch) reopens at the end
	// of its last batch, as Kafka's does: the gap has nothing to keep.
	if leo := m.log.LogEndOffset(); leo < int64(len(m.recs)) && m.onlyGapsFrom(leo) {
		m.cut(leo)
		m.hw = min(m.hw, leo)
	}
}

// durableData is the end of the flushed records: one past the last record (not gap)
// below the flushed offset.
func (m *logMachine) durableData() int64 {
	for o := min(m.durable, int64(len(m.recs))) - 1; o >= 0; o-- {
		if !m.recs[o].gap {
			return o + 1
		}
	}
	return 0
}

// onlyGapsFrom reports whether every model offset from o on is a gap.
func (m *logMachine) onlyGapsFrom(o int64) bool {
	for ; o < int64(len(m.recs)); o++ {
		if !m.recs[o].gap {
			return false
		}
	}
	return true
}

// Check compares the log with the model after every action.
func (m *logMachine) Check(t *rapid.T) {
	for i := range m.kept {
		if !bytes.Equal(m.kept[i], m.keptWas[i]) {
			t.Fatalf("the log wrote into the buffer of NoCopy append %d", i)
		}
	}
	if got := m.log.LogEndOffset(); got != int64(len(m.recs)) {
		t.Fatalf("LEO %d, model has %d records", got, len(m.recs))
	}
	if lso := m.log.LogStartOffset(); lso > max(m.hw, 0) && lso > m.log.segments[0].baseOffset {
		t.Fatalf("log start offset %d is above the high watermark %d", lso, m.hw)
	}
	recs, err := readAllErr(m.log)
	if err != nil {
		t.Fatalf("reading the whole log: %v", err)
	}
	seen := map[int64]bool{}
	for _, r := range recs {
		if r.Offset >= int64(len(m.recs)) {
			t.Fatalf("offset %d readable beyond the LEO %d", r.Offset, len(m.recs))
		}
		want := m.recs[r.Offset]
		if want.gap {
			t.Fatalf("offset %d is readable, but the leader skipped it", r.Offset)
		}
		if r.Key != want.key || r.Null != want.tombstone || (!r.Null && r.Value != want.value) {
			t.Fatalf("offset %d holds %s=%q (tombstone %v), the model has %s=%q (tombstone %v)", r.Offset, r.Key, r.Value, r.Null, want.key, want.value, want.tombstone)
		}
		seen[r.Offset] = true
	}
	latest := map[string]int64{}
	for o, r := range m.recs {
		if !r.gap {
			latest[r.key] = int64(o)
		}
	}
	for o := m.log.LogStartOffset(); o < int64(len(m.recs)); o++ {
		r := m.recs[o]
		if r.gap {
			continue
		}
		mayBeGone := o < m.cleanedUpTo && (latest[r.key] != o || r.tombstone)
		if !seen[o] && !mayBeGone {
			t.Fatalf("offset %d (%s=%q) is missing; log start %d, cleaned up to %d", o, r.key, r.value, m.log.LogStartOffset(), m.cleanedUpTo)
		}
	}
	if err := indexesAgree(m.log); err != nil {
		t.Fatalf("indexes disagree with the log: %v", err)
	}
}

// TestLogStateMachine runs random action scripts against the model; a failure shrinks
// to the shortest script. Run with -rapid.checks=N for more (10,000 pass).
func TestLogStateMachine(t *testing.T) {
	runs, crashes := 0, 0
	rounds := 4 // rapid's default 100 runs each; -short runs one round
	if testing.Short() {
		rounds = 1
	}
	for i := 0; i < rounds && !t.Failed(); i++ {
		rapid.Check(t, func(t *rapid.T) {
			m := newLogMachine(t)
			t.Repeat(rapid.StateMachineActions(m))
			runs++
			crashes += m.crashes
		})
	}
	t.Logf("state machine: %d runs, %d crashes and power cuts survived", runs, crashes)
}
