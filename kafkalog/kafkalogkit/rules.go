package kafkalogkit

import "github.com/kafkalive/kafkalive/internal/kit"

// Rule is one of Kafka's rules that a suite checks.
type Rule struct {
	// ID is the short name failure messages start with, e.g. "V4".
	ID string
	// Name says the rule in a few words.
	Name string
	// Note is the repository path and anchor of the note section explaining it.
	Note string
}

// The sections on termination: a learner's function that does not return
// within kit.Deadline fails with the rule being checked and a link to the
// chapter's.
const (
	termination01 = note01 + "#every-call-returns"
	termination02 = note02 + "#every-call-returns"
	termination03 = note03 + "#every-call-returns"
	termination04 = note04 + "#every-call-returns"
)

// Rules returns every rule of every suite, in order; the notes test checks that
// each Note anchor exists.
func Rules() []Rule {
	var out []Rule
	for _, set := range [][]kit.Rule{varintRules, batchRules, indexRules, retentionRules, recoveryRules} {
		for _, r := range set {
			out = append(out, Rule{ID: r.ID, Name: r.Name, Note: r.Note})
		}
	}
	return out
}
