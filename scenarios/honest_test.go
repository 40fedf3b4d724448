package scenarios

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

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

// TestGuessThenWatch walks every step of every scenario (GiveAways): the
// text shown before a guess has none of the answer's key terms (KeyTerms
// says how they are found: the right choice's own words, the reason's
// phrases), no choice explains itself (ExplainsItself), every step with a
// question has an outcome told after it, every scenario a lesson told at
// its end, and the summary under its title gives no step's answer away
// (none of any step's key terms).
func TestGuessThenWatch(t *testing.T) {
	all, err := All()
	require.NoError(t, err)
	for _, sc := range all {
		for _, p := range GiveAways(sc) {
			t.Error(p)
		}
	}
}

// TestPageWordsNotNotation: every text the page shows of a scenario says
// what it means in the page's words, not in the notation of its facts.
func TestPageWordsNotNotation(t *testing.T) {
	all, err := All()
	require.NoError(t, err)
	for _, sc := range all {
		for _, p := range Notation(sc) {
			t.Error(p)
		}
	}
}

// The rule catches what gave guesses away before it: narration that
// states the answer, choices that carry their reason.
func TestGiveAwaysAreCaught(t *testing.T) {
	step := Step{ID: "1", Title: "P sends m1",
		Narration: []string{"B appends m1. A's parked fetch returns it with HW 0; A fetches at 1, so B's view of A is 1 and B's HW becomes 1."},
		Outcome:   "A's HW stays 0",
		Question: &Question{Text: "What HW does A hold after it has copied m1?", Choices: []string{"1", "0"}, Answer: 2,
			Why: "The fetch response that carried m1 also carried B's HW as it was before that fetch."}}
	lesson := "A follower learns the high watermark one fetch after the leader."
	got := GiveAways(&Scenario{Name: "s", Lesson: lesson, Steps: []Step{step}})
	require.Contains(t, strings.Join(got, "\n"), `says "0"`, "the narration tells the answer 0")
	for _, c := range []string{"0: it learns HW 1 only from its next fetch response", "m2, because its HW was 2 when it died",
		"No: they learn of it only from their next heartbeat, and read on meanwhile", "Yes (it was acknowledged)", "one two three four five six seven eight nine"} {
		if ExplainsItself(c) == "" {
			t.Errorf("the choice %q explains itself, and ExplainsItself says it does not", c)
		}
	}
	for _, c := range []string{"0", "Both 2", "m1 and m2", "No", "Broker 1 deletes it", "acks=1 loses nothing"} {
		if why := ExplainsItself(c); why != "" {
			t.Errorf("the choice %q is short and plain, and ExplainsItself says: %s", c, why)
		}
	}
	step.Narration = []string{"A fetches the new record from the leader."}
	step.Question.Why = "The fetch response carried the leader's HW as it was before that fetch."
	step.Narration = append(step.Narration, "Each fetch response carries the leader's HW as it was before that fetch.")
	got = GiveAways(&Scenario{Name: "s", Lesson: lesson, Steps: []Step{step}})
	require.NotEmpty(t, got, "narration that tells the why's reason")

	step.Narration = []string{"A fetches the new record from the leader."}
	require.Empty(t, GiveAways(&Scenario{Name: "s", Lesson: lesson, Steps: []Step{step}}), "neutral narration")
	got = GiveAways(&Scenario{Name: "s", Steps: []Step{step}})
	require.Contains(t, strings.Join(got, "\n"), "no lesson line", "a scenario without its lesson")
	got = GiveAways(&Scenario{Name: "s", Lesson: lesson, Summary: "A follower's fetch response carries the leader's HW as it was before.", Steps: []Step{step}})
	require.Contains(t, strings.Join(got, "\n"), "the summary", "a summary that tells the why's reason")
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
