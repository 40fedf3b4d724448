package replicakit

import (
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/internal/kit"
)

// looksLikeAll names every known mistake that gives got on in, not only the
// first: on a short log several mistakes often agree.
func looksLikeAll[In, Out any](in In, got Out, mistakes []kit.Mistake[In, Out]) string {
	var says []string
	for _, m := range mistakes {
		if s := kit.LooksLike(in, got, []kit.Mistake[In, Out]{m}); s != "" && !slices.Contains(says, s) {
			says = append(says, s)
		}
	}
	return strings.Join(says, "; or: ")
}
