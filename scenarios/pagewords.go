package scenarios

import (
	"fmt"
	"regexp"
)

// notation matches the scenario files' fact notation, which the page does
// not use: a page-cache mark (a * after a record or "its * mark"), an
// epoch written ·eN, a log written [0 a, ...].
var notation = regexp.MustCompile(`\*( |$)| \* |·e[0-9]|\[[0-9]+ [^\]]*\]`)

// Notation checks that every text the page shows of sc (its title,
// summary, lesson, intros, and every step's title, narration, question,
// choices, outcome, reveal and why) says what it means in the page's
// words, not in the notation of its facts. It returns one line per text
// that does not.
func Notation(sc *Scenario) []string {
	texts := append([]string{sc.Title, sc.Summary, sc.Lesson}, sc.Intro...)
	steps := sc.Steps
	for _, b := range sc.Branches {
		texts = append(texts, b.Intro...)
		steps = append(steps[:len(steps):len(steps)], b.Steps...)
	}
	for _, s := range steps {
		texts = append(append(append(texts, s.Title, s.Outcome), s.Narration...), s.Reveal...)
		if q := s.Question; q != nil {
			texts = append(append(texts, q.Text, q.Why), q.Choices...)
		}
	}
	var out []string
	for _, text := range texts {
		if m := notation.FindString(text); m != "" {
			out = append(out, fmt.Sprintf("%s (%s) shows %q on the page, the files' notation: %q", sc.Name, sc.File, m, text))
		}
	}
	return out
}
