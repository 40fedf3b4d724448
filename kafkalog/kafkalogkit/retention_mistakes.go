package kafkalogkit

import (
	"math"

	"github.com/kafkalive/kafkalive/internal/kit"
	"pgregory.net/rapid"
)

type retentionInput struct {
	l   RetentionLog
	c   RetentionConfig
	now int64
}

// retentionSubject is a retention rule under judgement, with the known
// mistakes to recognise in it.
type retentionSubject struct {
	Retention
	mistakes *kit.Signatures[retentionInput, int]
}

func judgeRetention(r Retention, known []kit.Known[Retention]) retentionSubject {
	return retentionSubject{Retention: r, mistakes: kit.NewSignatures(retentionProbes, kit.MistakesOf(known, retentionOf)...)}
}

// retentionProbes are the known answers' inputs and a fixed sample of
// drawn logs: a mistake is named only if it also agrees with the learner's
// code on all of them.
func retentionProbes() []retentionInput {
	var in []retentionInput
	for _, c := range retentionKnownAnswers() {
		in = append(in, retentionInput{c.log, c.cfg, c.now})
	}
	return append(in, kit.Examples(rapid.Custom(drawRetentionInput), 200)...)
}

// drawRetentionInput draws one retention check of a log as a broker holds
// it: up to six segments, oldest first, of any size (the active one may be
// empty), records of any age, the high watermark and the log start offset
// anywhere they can be, and configs at their edges.
func drawRetentionInput(t *rapid.T) retentionInput {
	in := retentionInput{now: nowMs, c: RetentionConfig{
		RetentionMs:    rapid.SampledFrom([]int64{10000, 3000, forever, 0, math.MaxInt64}).Draw(t, "retention.ms"),
		RetentionBytes: rapid.SampledFrom([]int64{400, 200, forever, 0, math.MaxInt64}).Draw(t, "retention.bytes"),
		Delete:         rapid.SampledFrom([]bool{true, true, false}).Draw(t, "cleanup.policy.delete"),
	}}
	n := rapid.IntRange(1, 6).Draw(t, "segments")
	offset := int64(0)
	for i := range n {
		s := RetentionSegment{BaseOffset: offset, SizeInBytes: 50 * rapid.Int64Range(1, 8).Draw(t, "size/50")}
		if i == n-1 && rapid.Bool().Draw(t, "activeEmpty") {
			s.SizeInBytes = 0
		}
		records := s.SizeInBytes / 50
		s.LargestTimestamp = nowMs - 1000*rapid.Int64Range(0, 15).Draw(t, "ageSeconds")
		s.FirstTimestamp = s.LargestTimestamp - 1000*rapid.Int64Range(0, 5).Draw(t, "spanSeconds")
		if records == 0 {
			s.FirstTimestamp, s.LargestTimestamp = -1, -1
		}
		in.l.Segments = append(in.l.Segments, s)
		offset += records
	}
	// Mostly every replica caught up and nothing deleted by offset, so that
	// the size and time rules decide.
	in.l.LogEndOffset = offset
	in.l.HighWatermark = offset
	if rapid.IntRange(0, 3).Draw(t, "followersBehind") == 0 {
		in.l.HighWatermark = rapid.Int64Range(0, offset).Draw(t, "highWatermark")
	}
	if rapid.IntRange(0, 3).Draw(t, "recordsDeleted") == 0 {
		in.l.LogStartOffset = rapid.Int64Range(0, in.l.HighWatermark).Draw(t, "logStartOffset")
	}
	return in
}

// retentionOf calls a DeletableSegments on in, on a copy of the log.
func retentionOf(r Retention) func(retentionInput) int {
	return func(in retentionInput) int { return r.DeletableSegments(cloneLog(in.l), in.c, in.now) }
}

// smallerRetention proposes smaller cases than in: a segment fewer (the
// last dropped, or the first, with the offsets kept consistent). The configs
// stay: which limits are set is what tells one misread rule from another.
func smallerRetention(in retentionInput) []retentionInput {
	var out []retentionInput
	with := func(edit func(in *retentionInput)) {
		c := retentionInput{cloneLog(in.l), in.c, in.now}
		edit(&c)
		out = append(out, c)
	}
	if n := len(in.l.Segments); n > 1 {
		with(func(c *retentionInput) {
			c.l.Segments = c.l.Segments[:n-1]
			c.l.LogEndOffset = in.l.Segments[n-1].BaseOffset
			c.l.HighWatermark = min(c.l.HighWatermark, c.l.LogEndOffset)
			c.l.LogStartOffset = min(c.l.LogStartOffset, c.l.HighWatermark)
		})
		with(func(c *retentionInput) {
			c.l.Segments = c.l.Segments[1:]
			c.l.LogStartOffset = max(c.l.LogStartOffset, c.l.Segments[0].BaseOffset)
		})
	}
	return out
}
