package web

import (
	"os"
	"regexp"
	"testing"

	"github.com/kafkalive/kafkalive/scenarios"
)

// The page heads each group of guided scenarios with a title of its own; every
// group the scenarios package has must have one, or its scenarios would sit
// under a bare id.
func TestPageTitlesEveryScenarioGroup(t *testing.T) {
	js, err := os.ReadFile("static/js/render/scenarios.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`export const groupTitles = \{([^}]*)\}`).FindSubmatch(js)
	if m == nil {
		t.Fatal("static/js/render/scenarios.js has no groupTitles object")
	}
	all, err := scenarios.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(s.Group) + `:`).Match(m[1]) {
			t.Errorf("scenario %s is in group %q, which the page's groupTitles does not name", s.Name, s.Group)
		}
	}
}
