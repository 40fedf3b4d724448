package truncation

import (
	"testing"

	"github.com/kafkalive/kafkalive/exercises/internal/shortcut"
)

// TestTruncationIsYourOwn fails if the code above calls the library's own answer to this exercise.
func TestTruncationIsYourOwn(t *testing.T) {
	shortcut.Refuse(t, map[string]string{
		"replica.TruncationPoint": "replica.TruncationPoint is the rule this exercise asks you to write",
	})
}
