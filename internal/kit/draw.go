package kit

import "pgregory.net/rapid"

// Draw draws a value from g, labelled label, like g.Draw(t, label). Suites
// draw through it so that the lines rapid logs for the draws ("[rapid] draw
// v: 5") carry this file's name, not that of a suite file named like the
// learner's (varint.go), which would send them to the wrong line of the wrong
// file.
func Draw[V any](t *rapid.T, g *rapid.Generator[V], label string) V {
	return g.Draw(t, label)
}
