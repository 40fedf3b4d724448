package bank

import (
	"slices"
	"strings"
	"testing"

	"github.com/kafkalive/kafkalive/internal/kit"
)

// TestHintsNameOnlyConsistentMistakes checks, for every pair of mutants A
// and B of an exercise, that no failure of A names B unless B gives every
// answer A gave: with the whole bank (where A itself is always among the
// mistakes named, and a B the cases cannot tell from it is named beside it)
// and with A taken out of the bank, as a learner's mistake nobody wrote down
// would be. "Every answer" is checked here from outside the kit: B must fail
// the suite's known answers exactly as A does, the same rule on the same case
// with the same answer.
func TestHintsNameOnlyConsistentMistakes(t *testing.T) {
	rows := killMatrix(t)
	fixed := map[string]string{} // exercise/mutant: the known answers' report, hint left out
	for _, e := range exercises() {
		for _, m := range e.mutants {
			fixed[e.name+"/"+m.name] = withoutHint(m.check())
		}
	}
	pairs, named := 0, 0
	for _, r := range rows {
		for block, matches := range map[string][]string{"fixed cases": r.checkMatches, "properties": r.propsMatches} {
			if len(matches) > 0 && !slices.Contains(matches, r.mutant) {
				t.Errorf("%s %s (%s): the mistakes found consistent with its answers, %v, leave it out", r.exercise, r.mutant, block, matches)
			}
			var hinted []string
			if len(matches) <= kit.MaxNamed {
				hinted = matches
			}
			for _, b := range slices.Concat(hinted, unseenHint(r.mutant, matches)) {
				if b == r.mutant {
					continue
				}
				pairs++
				if a, other := fixed[r.exercise+"/"+r.mutant], fixed[r.exercise+"/"+b]; a != other {
					t.Errorf("%s: a failure of %s (%s) names %s, which answers the known answers otherwise:\n%s\n--- %s:\n%s", r.exercise, r.mutant, block, b, a, b, other)
				}
			}
			if len(unseenHint(r.mutant, matches)) > 0 {
				named++
			}
		}
	}
	t.Logf("%d hints name another mistake beside or instead of the one made (this one left out of the bank: %d blocks); each gives every answer the mistake made gives", pairs, named)
}

// withoutHint is a failed check's report without its "this looks like" lines.
func withoutHint(err error) string {
	if err == nil {
		return "<passed>"
	}
	var kept []string
	inHint := false
	for _, line := range strings.Split(err.Error(), "\n") {
		switch {
		case strings.Contains(line, "this looks like"):
			inHint = true
		case inHint && strings.HasPrefix(strings.TrimSpace(line), "- "):
		default:
			inHint = false
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}
