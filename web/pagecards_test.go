package web

import (
	"os"
	"regexp"
	"testing"

	"github.com/kafkalive/kafkalive/scenarios"
)

// The page lists each guided scenario under a title and a subtitle of its
// own (static/js/render/scenarios.js scenarioCards), with no reference to where it was
// written from.
func TestPageCardsEveryScenario(t *testing.T) {
	js, err := os.ReadFile("static/js/render/scenarios.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)export const scenarioCards = \{(.*?)\n\};`).FindSubmatch(js)
	if m == nil {
		t.Fatal("static/js/render/scenarios.js has no scenarioCards object")
	}
	cards := map[string][2]string{}
	for _, c := range regexp.MustCompile(`"([^"]+)": \["((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)"\]`).FindAllSubmatch(m[1], -1) {
		cards[string(c[1])] = [2]string{string(c[2]), string(c[3])}
	}
	all, err := scenarios.All()
	if err != nil {
		t.Fatal(err)
	}
	ref := regexp.MustCompile(`(?i)scenarios\.md|\bS\d+\b|§`)
	for _, s := range all {
		c, ok := cards[s.Name]
		if !ok {
			t.Errorf("scenario %s has no card in static/js/render/scenarios.js scenarioCards", s.Name)
			continue
		}
		if c[0] == "" || c[1] == "" || ref.MatchString(c[0]+c[1]) {
			t.Errorf("scenario %s's card is %q / %q", s.Name, c[0], c[1])
		}
	}
	if len(cards) != len(all) {
		t.Errorf("scenarioCards has %d cards for %d scenarios", len(cards), len(all))
	}
}
