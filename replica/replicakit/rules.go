package replicakit

import "github.com/kafkalive/kafkalive/internal/kit"

// The chapter's note, relative to the repository root.
const note05 = "notes/05-leader-epochs.md"

var (
	ruleT1  = kit.Rule{ID: "T1", Name: "log matching", Note: note05 + "#log-matching"}
	ruleT2  = kit.Rule{ID: "T2", Name: "keep what the leader has", Note: note05 + "#the-010-rule-truncate-to-the-high-watermark"}
	ruleT3  = kit.Rule{ID: "T3", Name: "never past the log end", Note: note05 + "#offsetsforleaderepoch"}
	ruleT4  = kit.Rule{ID: "T4", Name: "another round", Note: note05 + "#kip-279-another-round"}
	ruleT5  = kit.Rule{ID: "T5", Name: "ask for the latest epoch", Note: note05 + "#kip-279-another-round"}
	ruleT6  = kit.Rule{ID: "T6", Name: "trim the epoch cache", Note: note05 + "#trimming-the-epoch-cache"}
	ruleT7  = kit.Rule{ID: "T7", Name: "no answer", Note: note05 + "#when-the-leader-has-no-answer"}
	ruleT8  = kit.Rule{ID: "T8", Name: "no panic", Note: note05 + "#you-write"}
	ruleT9  = kit.Rule{ID: "T9", Name: "an epoch the follower cannot look up", Note: note05 + "#an-epoch-newer-than-the-followers"}
	ruleT10 = kit.Rule{ID: "T10", Name: "a follower with no epochs", Note: note05 + "#a-follower-with-no-epochs"}
	ruleT11 = kit.Rule{ID: "T11", Name: "an earlier result stays", Note: note05 + "#the-follower-you-return-is-the-callers"}

	truncationRules = []kit.Rule{ruleT1, ruleT2, ruleT3, ruleT4, ruleT5, ruleT6, ruleT7, ruleT8, ruleT9, ruleT10, ruleT11}
)

// terminationNote is the section on termination a failure links to when a
// call does not return within kit.Deadline.
const terminationNote = "notes/00-why-a-log.md#every-call-returns"

// Rules returns the rules this package's suite checks, in order; the notes
// test checks that each Note anchor exists.
func Rules() []kit.Rule { return append([]kit.Rule(nil), truncationRules...) }
