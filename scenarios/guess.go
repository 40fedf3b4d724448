package scenarios

import (
	"fmt"
	"strings"
	"unicode"
)

// Guess, then watch: a step with a question is told in two parts. Before
// the guess the page shows its Title and Narration (and a branch's intro
// at the fork): the situation and the question, in neutral words. After
// it, the step's Outcome, Reveal and the question's Why: what happened
// and the reason. GiveAways checks the rule on a scenario's text.

// MaxChoiceWords is the most words a choice may have: choices are short
// and parallel, and none carries its reason.
const MaxChoiceWords = 8

// reasonMarks are the marks that turn a choice into an explanation: a
// clause after a colon, a semicolon or a dash, a parenthesis.
var reasonMarks = []string{":", ";", " - ", " — ", " – ", " ("}

// reasonWords are the words that give a reason or a consequence.
var reasonWords = []string{"because", "since", "so", "therefore", "thus", "which", "while", "although", "unless", "until", "but"}

// functionWords are left out of a text's terms: they carry no part of a
// reason.
var functionWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the of to in on at by for from with without and or nor but as is are was
		were be been being am it its it's this that these those there then than not no yes do does did done has have had
		having will would can could may might must shall should what which who whom whose when where how why so if
		into onto out up down over under again once all any both each few more most other some such only own same
		too very just also now here still yet ever never they them their he she his her we our you your i me my
		after before while about against between through during above below off s t`) {
		functionWords[w] = true
	}
}

// Terms are the words of s that can carry a reason: lower-cased tokens of
// letters, digits and the marks Kafka's names use (".", "=", "-", "_",
// "*"), without function words and single letters (the scenarios' names
// for brokers, A and B, say nothing of a reason). Digits stay: "HW 0" is
// the answer to a question about a high watermark.
func Terms(s string) []string {
	var out []string
	for _, tok := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(".=-_*'", r)
	}) {
		tok = strings.TrimSuffix(strings.Trim(tok, ".-_'"), "'s") // broker 1's is broker 1
		if tok == "" || functionWords[tok] || len([]rune(tok)) == 1 && !unicode.IsDigit([]rune(tok)[0]) {
			continue
		}
		out = append(out, tok)
	}
	return out
}

// KeyTerms are the terms of a step's revealed reason that the text shown
// before its guess must not contain:
//
//   - the answer's own words: a right choice of one term (0, None, Three)
//     is its own key term; of a longer one, every word (not a number)
//     that no wrong choice, not the question and not the scenario's
//     intro has: what sets the right answer apart, in words the setup
//     did not already use;
//   - the reason's phrases: every pair of consecutive terms (a bigram,
//     once function words are dropped) of the why, the outcome and the
//     reveal that the question, the choices and the intro do not have.
//     A pair with a number in it ("broker 1", "epoch 0") names a thing, not
//     a reason, and is left out.
//
// A step without a question has none.
func KeyTerms(sc *Scenario, s *Step) []string {
	q := s.Question
	if q == nil {
		return nil
	}
	known := map[string]bool{}
	for _, t := range Terms(q.Text + " " + strings.Join(sc.Intro, " ")) {
		known[t] = true
	}
	for i, c := range q.Choices {
		if i+1 != q.Answer {
			for _, t := range Terms(c) {
				known[t] = true
			}
		}
	}
	seen := map[string]bool{}
	var out []string
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	right := Terms(q.Choices[q.Answer-1])
	for _, t := range right {
		if !known[t] && (len(right) == 1 || !isNumber(t)) {
			add(t)
		}
	}
	shared := normTerms(strings.Join(q.Choices, " \x00 ") + " \x00 " + q.Text + " \x00 " + strings.Join(sc.Intro, " \x00 "))
	for _, part := range append([]string{q.Why, s.Outcome}, s.Reveal...) {
		for _, bg := range bigrams(part) {
			if !strings.Contains(shared, " "+bg+" ") {
				add(bg)
			}
		}
	}
	return out
}

// isNumber says whether a term is all digits.
func isNumber(t string) bool {
	for _, r := range t {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return t != ""
}

// normTerms is s's terms joined by single spaces, with a space at each
// end, for finding a term or a bigram as whole words; a clause break (a
// comma, a colon, a semicolon, the end of a sentence) stands between two
// terms as " | ", so that no pair spans it.
func normTerms(s string) string {
	var parts []string
	for _, c := range clauses(s) {
		if ts := Terms(c); len(ts) > 0 {
			parts = append(parts, strings.Join(ts, " "))
		}
	}
	return " " + strings.Join(parts, " | ") + " "
}

// clauses splits s at its clause breaks: a comma, colon, semicolon, full
// stop, question or exclamation mark followed by a space or the end (the
// dots inside min.insync.replicas do not break it).
func clauses(s string) []string {
	var out []string
	start := 0
	rs := []rune(s)
	for i, r := range rs {
		if strings.ContainsRune(",:;.?!\x00", r) && (i+1 == len(rs) || unicode.IsSpace(rs[i+1]) || r == 0) {
			out = append(out, string(rs[start:i]))
			start = i + 1
		}
	}
	return append(out, string(rs[start:]))
}

// bigrams are the pairs of consecutive terms of s within its clauses.
func bigrams(s string) []string {
	var out []string
	for _, c := range clauses(s) {
		ts := Terms(c)
		for i := 0; i+1 < len(ts); i++ {
			if isNumber(ts[i]) || isNumber(ts[i+1]) {
				continue // a pair with a number names a thing ("broker 1")
			}
			out = append(out, ts[i]+" "+ts[i+1])
		}
	}
	return out
}

// ExplainsItself says why a choice carries its own reason or is not short
// ("" when it does neither).
func ExplainsItself(choice string) string {
	if n := len(strings.Fields(choice)); n > MaxChoiceWords {
		return fmt.Sprintf("%d words (at most %d: a choice is short)", n, MaxChoiceWords)
	}
	for _, m := range reasonMarks {
		if strings.Contains(choice, m) {
			return fmt.Sprintf("%q gives a reason", strings.TrimSpace(m))
		}
	}
	words := strings.FieldsFunc(strings.ToLower(choice), func(r rune) bool { return !unicode.IsLetter(r) })
	for _, w := range words {
		for _, m := range reasonWords {
			if w == m {
				return fmt.Sprintf("%q gives a reason", m)
			}
		}
	}
	return ""
}

// GiveAways checks the guess-then-watch rule on sc: on every step with a
// question, its branches' included, the text shown before the guess (the
// step's title and narration, and at a branch's first step the branch's
// intro) contains none of the step's KeyTerms, no choice explains itself,
// and the step has an outcome; the summary under the title contains no
// step's KeyTerms; and the scenario tells its lesson at its end. It
// returns one line per problem.
func GiveAways(sc *Scenario) []string {
	var out []string
	if sc.Lesson == "" {
		out = append(out, fmt.Sprintf("%s (%s): no lesson line, the decisive outcome told at the end", sc.Name, sc.File))
	}
	summary := normTerms(sc.Summary)
	check := func(s *Step, fork []string) {
		q := s.Question
		if q == nil {
			return
		}
		where := fmt.Sprintf("%s step %s (%s line %d)", sc.Name, s.ID, sc.File, s.Line)
		before := normTerms(strings.Join(append(append([]string{s.Title}, s.Narration...), fork...), " \x00 "))
		for _, k := range KeyTerms(sc, s) {
			if strings.Contains(before, " "+k+" ") {
				out = append(out, fmt.Sprintf("%s: the text before the guess says %q, a key term of the answer %q or its reason", where, k, q.Choices[q.Answer-1]))
			}
		}
		for i, c := range q.Choices {
			if why := ExplainsItself(c); why != "" {
				out = append(out, fmt.Sprintf("%s: choice %d %q explains itself: %s", where, i+1, c, why))
			}
		}
		if s.Outcome == "" {
			out = append(out, fmt.Sprintf("%s: no outcome line: the title of what happened, told after the guess", where))
		}
		for _, k := range KeyTerms(sc, s) {
			if strings.Contains(summary, " "+k+" ") {
				out = append(out, fmt.Sprintf("%s: the summary %q says %q, a key term of the step's answer %q or its reason", where, sc.Summary, k, q.Choices[q.Answer-1]))
			}
		}
	}
	for i := range sc.Steps {
		check(&sc.Steps[i], nil)
	}
	for _, b := range sc.Branches {
		for i := range b.Steps {
			var fork []string
			if i == 0 {
				fork = b.Intro
			}
			check(&b.Steps[i], fork)
		}
	}
	return out
}

// BootstrapPlaceholder stands, in a scenario's text, for the address a
// Kafka client of the user's connects to (broker 1's listener), which
// only whoever serves the brokers knows; Fill puts it in.
const BootstrapPlaceholder = "{bootstrap}"

// DefaultBootstrap is broker 1's listener when kafkalive serve runs with
// its defaults.
const DefaultBootstrap = "127.0.0.1:9092"

// Fill returns text with the bootstrap address in place of
// BootstrapPlaceholder.
func Fill(text, bootstrap string) string {
	return strings.ReplaceAll(text, BootstrapPlaceholder, bootstrap)
}
