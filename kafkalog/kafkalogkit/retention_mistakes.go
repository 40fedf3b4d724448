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
