package kafkalogkit

import (
	"slices"

	"github.com/kafkalive/kafkalive/internal/kit"
)

// The sections on termination: a learner's function that does not return
// within kit.Deadline fails with the rule being checked and a link to the
// chapter's.
const (
	termination01 = note01 + "#every-call-returns"
	termination02 = note02 + "#every-call-returns"
	termination03 = note03 + "#every-call-returns"
	termination04 = note04 + "#every-call-returns"
	termination07 = note07 + "#every-call-returns"
)

// Rules returns every rule of every suite, in order; the notes test checks that
// each Note anchor exists.
func Rules() []kit.Rule {
	return slices.Concat(varintRules, batchRules, indexRules, retentionRules, recoveryRules, readCommittedRules)
}
