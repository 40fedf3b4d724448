package live

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/scenarios"
)

// TestGuessThenWatch holds the kit's guided scenarios to the rule the
// cluster's own scenarios follow (scenarios.GiveAways): the text shown
// before a guess gives none of the answer away, no choice explains itself,
// every step with a question has an outcome, the summary under the title
// gives no step's answer away, and every scenario tells its lesson at the
// end. Their texts speak the page's words, not the facts' notation.
func TestGuessThenWatch(t *testing.T) {
	all, err := Scenarios()
	require.NoError(t, err)
	require.NotEmpty(t, all)
	for _, g := range all {
		for _, p := range scenarios.GiveAways(g.Scenario) {
			t.Error(p)
		}
		for _, p := range scenarios.Notation(g.Scenario) {
			t.Error(p)
		}
	}
}

// Each scenario names the file it was read from, NN-NAME.txt: a problem
// found in it says where to look.
func TestScenariosNameTheirFiles(t *testing.T) {
	all, err := Scenarios()
	require.NoError(t, err)
	for _, g := range all {
		require.True(t, strings.HasSuffix(g.File, "-"+g.Name+".txt"), "%s is read from %q", g.Name, g.File)
	}
}
