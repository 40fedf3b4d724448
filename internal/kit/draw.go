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

// Examples returns n values of g, the same on every run (rapid's examples
// for seeds 1 to n): probes beyond the known answers, which tell apart
// mistakes that agree on every known answer.
func Examples[V any](g *rapid.Generator[V], n int) []V {
	out := make([]V, 0, n)
	for i := 1; i <= n; i++ {
		out = append(out, g.Example(i))
	}
	return out
}
