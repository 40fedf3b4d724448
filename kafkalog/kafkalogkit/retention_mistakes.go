package kafkalogkit

import "github.com/kafkalive/kafkalive/internal/kit"

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

// retentionProbes are the known answers' inputs: a mistake is named only if it
// also agrees with the learner's code on all of them.
func retentionProbes() []retentionInput {
	var in []retentionInput
	for _, c := range retentionKnownAnswers() {
		in = append(in, retentionInput{c.log, c.cfg, c.now})
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
