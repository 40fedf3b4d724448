package web

import (
	"encoding/json"
	"net/http"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/scenarios"
)

// TestScenarioCardsComeFromTheFiles: /api/scenarios lists every guided
// scenario with its card (title, the line under it) and its group's
// heading as the scenario files give them, in the files' group order, with
// no reference to where a scenario was written from. The page keeps no
// copy of them.
func TestScenarioCardsComeFromTheFiles(t *testing.T) {
	hs, _ := newTestServer(t)
	code, body := get(t, hs, "/api/scenarios")
	require.Equal(t, http.StatusOK, code)
	var list []ScenarioInfo
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	all, err := scenarios.All()
	require.NoError(t, err)
	require.Len(t, list, len(all))
	ref := regexp.MustCompile(`(?i)scenarios\.md|\bS\d+\b|§`)
	order := map[string]int{}
	for i, g := range scenarios.Groups {
		order[g] = i
	}
	for i, s := range list {
		sc := all[i]
		require.Equal(t, sc.Name, s.Name)
		if s.Title != sc.Title || s.Summary != sc.Summary || s.GroupTitle != scenarios.GroupTitles[sc.Group] {
			t.Errorf("%s: the card %q / %q under %q is not the file's %q / %q under %q", s.Name, s.Title, s.Summary, s.GroupTitle, sc.Title, sc.Summary, scenarios.GroupTitles[sc.Group])
		}
		if s.Title == "" || s.Summary == "" || s.GroupTitle == "" || ref.MatchString(s.Title+s.Summary) {
			t.Errorf("scenario %s's card is %q / %q under %q", s.Name, s.Title, s.Summary, s.GroupTitle)
		}
		if _, ok := order[s.Group]; !ok {
			t.Errorf("scenario %s is in group %q, which data/groups does not list", s.Name, s.Group)
		}
		if i > 0 && order[list[i-1].Group] > order[s.Group] {
			t.Errorf("scenario %s (group %s) is listed after %s (group %s): the groups' order is data/groups'", s.Name, s.Group, list[i-1].Name, list[i-1].Group)
		}
	}
	for _, f := range []string{"static/js/render/scenarios.js", "static/js/page.js"} {
		js, err := staticFS.ReadFile(f)
		require.NoError(t, err)
		for _, sc := range all {
			if regexp.MustCompile(regexp.QuoteMeta(sc.Title)).Match(js) {
				t.Errorf("%s has a copy of %s's title %q: the cards come from /api/scenarios", f, sc.Name, sc.Title)
			}
		}
	}
}
