package scenarios

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// allSteps returns the main line's and every branch's steps.
func allSteps(sc *Scenario) []Step {
	steps := sc.Steps
	for _, b := range sc.Branches {
		steps = append(steps[:len(steps):len(steps)], b.Steps...)
	}
	return steps
}

// TestAnswersAreShown plays every scenario and checks each question's
// answer against the simulated state: every step that asks has at least
// one "shows" fact backing its right choice, no fact of such a step is a
// known divergence (the screen would contradict the answer), and every
// "shows" fact holds after the step.
func TestAnswersAreShown(t *testing.T) {
	all, err := All()
	require.NoError(t, err)
	for _, sc := range all {
		r, err := NewRun(sc, 0)
		require.NoError(t, err)
		for {
			o, err := r.Next()
			if errors.Is(err, ErrDone) {
				break
			}
			require.NoError(t, err)
			if o.Step.Question == nil {
				continue
			}
			shown := 0
			for _, c := range o.Checks {
				switch {
				case c.Fact.Known != "":
					t.Errorf("%s step %s (data/%s line %d): the answer %q sits beside a known divergence %q: the screen contradicts what the question teaches",
						sc.Name, o.Step.ID, sc.File, o.Step.Line, o.Step.Question.Choices[o.Step.Question.Answer-1], c.Fact.Subject+" "+c.Fact.Text)
				case c.Fact.Shows && !c.Match:
					t.Errorf("%s step %s (data/%s line %d): the answer %q rests on %q, but the simulation shows %q\nreplay: go run ./cmd/kafkalive play %s --auto",
						sc.Name, o.Step.ID, sc.File, o.Step.Line, o.Step.Question.Choices[o.Step.Question.Answer-1], c.Fact.Subject+" "+c.Fact.Text, c.Got, sc.Name)
				case c.Fact.Shows:
					shown++
				}
			}
			if shown == 0 {
				t.Errorf("%s step %s (data/%s line %d): no shows fact backs the answer", sc.Name, o.Step.ID, sc.File, o.Step.Line)
			}
		}
	}
}

// TestNoAnswerGivenAway: neither a step's title nor its narration (told
// before the question) contains the right choice's text, or its lead (the
// words before a colon, when there are two or more).
func TestNoAnswerGivenAway(t *testing.T) {
	all, err := All()
	require.NoError(t, err)
	for _, sc := range all {
		for _, s := range allSteps(sc) {
			q := s.Question
			if q == nil {
				continue
			}
			told := normText(s.Title + " " + strings.Join(s.Narration, " "))
			for _, give := range giveaways(q.Choices[q.Answer-1]) {
				if strings.Contains(told, give) {
					t.Errorf("%s step %s (data/%s line %d): the title or narration says %q before asking %q",
						sc.Name, s.ID, sc.File, s.Line, give, q.Text)
				}
			}
		}
	}
}

// giveaways are the texts of a right choice that must not be told before
// the question: the whole choice, and its lead before a colon if that has
// two or more words.
func giveaways(choice string) []string {
	out := []string{normText(choice)}
	if lead, _, ok := strings.Cut(choice, ":"); ok && len(strings.Fields(lead)) >= 2 {
		out = append(out, normText(lead))
	}
	return out
}

func normText(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// internalRef matches references to documents outside the repository:
// markdown files other than format.md, numbered sections, dotted rule
// numbers and scenario-table numbers.
var internalRef = regexp.MustCompile(`[A-Za-z-]+\.md\b|§|\bR[0-9]+(\.[0-9]+)+|\bS[0-9]+[ab]?\b( table| of)`)

// TestNoInternalReferences: no scenario file, comments included, cites
// the project's steering documents; sources name Kafka's code or KIPs.
func TestNoInternalReferences(t *testing.T) {
	entries, err := files.ReadDir("data")
	require.NoError(t, err)
	for _, e := range entries {
		b, err := files.ReadFile("data/" + e.Name())
		require.NoError(t, err)
		for i, line := range strings.Split(string(b), "\n") {
			if m := internalRef.FindString(strings.ReplaceAll(line, "format.md", "")); m != "" {
				t.Errorf("data/%s line %d cites %q, a document outside the repository: say what it stands for\n%s", e.Name(), i+1, m, line)
			}
		}
	}
	all, err := All()
	require.NoError(t, err)
	for _, sc := range all {
		if !strings.Contains(sc.Source, "Kafka") && !strings.Contains(sc.Source, "KIP-") {
			t.Errorf("%s: source %q names neither Kafka's code nor a KIP", sc.Name, sc.Source)
		}
	}
}
