package cooperative

import (
	"testing"

	"github.com/kafkalive/kafkalive/exercises/internal/shortcut"
)

// TestCooperativeIsYourOwn fails if the code above calls the library's own answer to this exercise.
func TestCooperativeIsYourOwn(t *testing.T) {
	shortcut.Refuse(t, map[string]string{
		"group.CooperativeStickyAssignor": "group's cooperative-sticky assignor is the answer to this exercise",
		"group.Assignors":                 "group.Assignors holds the library's cooperative-sticky assignor",
		"group.StickyAssignor":            "group's sticky assignor is most of the answer to this exercise",
	})
}
