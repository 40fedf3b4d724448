package kafkalogkit

import (
	"fmt"
	"math"
	"strings"

	"github.com/kafkalive/kafkalive/internal/kit"
	"pgregory.net/rapid"
)

// retentionMachine drives a log the way a broker does and runs the learner's
// retention on it at random moments.
type retentionMachine struct {
	r            retentionSubject
	cfg          RetentionConfig
	segmentBytes int64
	log          RetentionLog
	now          int64
	steps        []string
	replay       string
}

func retentionProperties(r retentionSubject, replay string) func(*rapid.T) {
	return func(t *rapid.T) {
		m := &retentionMachine{r: r, replay: replay, now: nowMs}
		m.cfg = RetentionConfig{
			// The first value of each is what rapid shrinks to: a limit that is
			// set and not an extreme, so that a shrunk case still tells one
			// misread rule from another.
			RetentionMs:    rapid.SampledFrom([]int64{10000, 3000, forever, 10000, 3000, forever, 0, math.MaxInt64}).Draw(t, "retention.ms"),
			RetentionBytes: rapid.SampledFrom([]int64{400, 200, forever, 400, 200, forever, 0, math.MaxInt64}).Draw(t, "retention.bytes"),
			Delete:         rapid.SampledFrom([]bool{true, true, true, false}).Draw(t, "cleanup.policy.delete"),
		}
		m.segmentBytes = rapid.SampledFrom([]int64{200, 500}).Draw(t, "segment.bytes")
		m.log.Segments = []RetentionSegment{{FirstTimestamp: -1, LargestTimestamp: -1}}
		m.step(fmt.Sprintf("config: %s, segment.bytes %d", strings.SplitN(describeRetention(m.log, m.cfg, m.now), "\n", 2)[0], m.segmentBytes))
		t.Repeat(map[string]func(*rapid.T){
			"append":        m.append,
			"tick":          m.tick,
			"highWatermark": m.advanceHighWatermark,
			"deleteRecords": m.deleteRecords,
			"retention":     m.retention,
			"":              m.check,
		})
	}
}

func (m *retentionMachine) step(s string) { m.steps = append(m.steps, s) }

func (m *retentionMachine) active() *RetentionSegment { return &m.log.Segments[len(m.log.Segments)-1] }

// append adds batches, rolling when the active segment would pass segment.bytes
// (LogSegment.shouldRoll: size > segment.bytes - incoming, never when empty).
func (m *retentionMachine) append(t *rapid.T) {
	size := 50 * rapid.Int64Range(1, 4).Draw(t, "batchBytes/50")
	records := rapid.Int64Range(1, 3).Draw(t, "records")
	ts := m.now - 1000*rapid.Int64Range(0, 12).Draw(t, "recordAgeSeconds")
	m.appendBatch(size, records, ts)
}

// appendBatch appends one batch, rolling first when it would not fit.
func (m *retentionMachine) appendBatch(size, records, ts int64) {
	if a := m.active(); a.SizeInBytes > 0 && a.SizeInBytes > m.segmentBytes-size {
		m.log.Segments = append(m.log.Segments, RetentionSegment{BaseOffset: m.log.LogEndOffset, FirstTimestamp: -1, LargestTimestamp: -1})
		m.step(fmt.Sprintf("roll: new active segment at offset %d", m.log.LogEndOffset))
	}
	a := m.active()
	if a.SizeInBytes == 0 {
		a.FirstTimestamp = ts
	}
	a.SizeInBytes += size
	a.LargestTimestamp = max(a.LargestTimestamp, ts)
	m.log.LogEndOffset += records
	m.step(fmt.Sprintf("append a batch of %d record(s), %d bytes, timestamp %d: log end offset %d", records, size, ts, m.log.LogEndOffset))
}

func (m *retentionMachine) tick(t *rapid.T) {
	d := 1000 * rapid.Int64Range(1, 6).Draw(t, "elapsedSeconds")
	m.now += d
	m.step(fmt.Sprintf("clock +%d ms: now %d", d, m.now))
}

func (m *retentionMachine) advanceHighWatermark(t *rapid.T) {
	m.log.HighWatermark = m.log.LogEndOffset
	if !rapid.Bool().Draw(t, "allCaughtUp") {
		m.log.HighWatermark = rapid.Int64Range(m.log.HighWatermark, m.log.LogEndOffset).Draw(t, "highWatermark")
	}
	m.step(fmt.Sprintf("followers catch up: high watermark %d", m.log.HighWatermark))
}

// deleteRecords is the DeleteRecords API: the log start offset moves up, never
// past the high watermark.
func (m *retentionMachine) deleteRecords(t *rapid.T) {
	m.log.LogStartOffset = rapid.Int64Range(m.log.LogStartOffset, m.log.HighWatermark).Draw(t, "logStartOffset")
	m.step(fmt.Sprintf("DeleteRecords: log start offset %d", m.log.LogStartOffset))
}

// check asks the learner's rule, after every step, what retention would delete
// now, and compares with Kafka's.
func (m *retentionMachine) check(t *rapid.T) {
	if f := retentionCase(m.r, cloneLog(m.log), m.cfg, m.now); f != nil {
		f.Details = append(f.Details, "steps that led here (shrunk by rapid):\n  "+strings.Join(m.steps, "\n  "))
		f.Replay = m.replay
		kit.Fatal(t, f)
	}
}

// retention runs the retention check of the broker: the segments go.
func (m *retentionMachine) retention(t *rapid.T) {
	n := kafkaRetention(m.log, m.cfg, m.now).count()
	m.apply(n)
	m.step(fmt.Sprintf("retention deletes %d segment(s): %d left, log start offset %d", n, len(m.log.Segments), m.log.LogStartOffset))
}

// apply deletes the n oldest segments as UnifiedLog.deleteSegments does:
// when all go, roll a new empty active segment at the log end offset first;
// then raise the log start offset to the first remaining base offset.
func (m *retentionMachine) apply(n int) {
	if n == 0 {
		return
	}
	if n == len(m.log.Segments) {
		m.log.Segments = append(m.log.Segments, RetentionSegment{BaseOffset: m.log.LogEndOffset, FirstTimestamp: -1, LargestTimestamp: -1})
	}
	m.log.Segments = m.log.Segments[n:]
	m.log.LogStartOffset = max(m.log.LogStartOffset, m.log.Segments[0].BaseOffset)
}
