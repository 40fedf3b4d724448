package groupkit

import "github.com/kafkalive/kafkalive/internal/kit"

// The chapter's note, relative to the repository root.
const note06 = "notes/06-cooperative-rebalancing.md"

var (
	ruleG1  = kit.Rule{ID: "G1", Name: "one owner per partition", Note: note06 + "#the-assignment"}
	ruleG2  = kit.Rule{ID: "G2", Name: "revoke before reassigning", Note: note06 + "#cooperative-never-two-owners"}
	ruleG3  = kit.Rule{ID: "G3", Name: "sticky", Note: note06 + "#sticky-keep-what-you-own"}
	ruleG4  = kit.Rule{ID: "G4", Name: "balanced within one", Note: note06 + "#quotas-balanced-first"}
	ruleG5  = kit.Rule{ID: "G5", Name: "nothing withheld for nothing", Note: note06 + "#the-follow-up-rebalance"}
	ruleG6  = kit.Rule{ID: "G6", Name: "same input, same answer", Note: note06 + "#same-input-same-answer"}
	ruleG7  = kit.Rule{ID: "G7", Name: "every member", Note: note06 + "#the-assignment"}
	ruleG8  = kit.Rule{ID: "G8", Name: "no panic", Note: note06 + "#you-write"}
	ruleG9  = kit.Rule{ID: "G9", Name: "Kafka's deal", Note: note06 + "#quotas-balanced-first"}
	ruleG10 = kit.Rule{ID: "G10", Name: "the members' lists untouched", Note: note06 + "#the-input-and-the-answer-are-the-callers"}
	ruleG11 = kit.Rule{ID: "G11", Name: "an earlier result stays", Note: note06 + "#the-input-and-the-answer-are-the-callers"}

	cooperativeRules = []kit.Rule{ruleG1, ruleG2, ruleG3, ruleG4, ruleG5, ruleG6, ruleG7, ruleG8, ruleG9, ruleG10, ruleG11}
)

// terminationNote is the section on termination a failure links to when a
// call does not return within kit.Deadline.
const terminationNote = note06 + "#every-call-returns"

// Rules returns the rules this package's suite checks, in order; the notes
// test checks that each Note anchor exists.
func Rules() []kit.Rule { return append([]kit.Rule(nil), cooperativeRules...) }
