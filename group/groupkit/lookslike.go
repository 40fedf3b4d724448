package groupkit

import (
	"strings"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/internal/kit"
)

// looksLike names every known mistake that gives got on in, not only the
// first: on a small group several mistakes often agree, and the learner
// should see each candidate.
func looksLike(in roundInput, got group.Assignment) string {
	var says []string
	for _, m := range cooperativeMistakes {
		if s := kit.LooksLike(in, got, []kit.Mistake[roundInput, group.Assignment]{m}); s != "" {
			says = append(says, s)
		}
	}
	return strings.Join(says, "; or: ")
}
