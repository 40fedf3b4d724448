// Package extrafixtures finds real broker data files that cannot be
// redistributed with the repository (sets copied from public repositories
// that carry no licence). Tests that read them name the directory holding
// those sets in the environment variable KAFKALIVE_EXTRA_FIXTURES, one
// subdirectory per set (for example $KAFKALIVE_EXTRA_FIXTURES/volodymyrzee-kafka
// is a broker's log.dirs entry), and skip with a message when it is unset.
package extrafixtures

import (
	"os"
	"path/filepath"
	"testing"
)

// Env is the environment variable naming the directory of extra fixture sets.
const Env = "KAFKALIVE_EXTRA_FIXTURES"

// Dir returns the directory of fixture set set, or skips t when
// KAFKALIVE_EXTRA_FIXTURES is unset or does not hold it.
func Dir(t testing.TB, set string) string {
	t.Helper()
	root := os.Getenv(Env)
	if root == "" {
		t.Skipf("%s is not set: fixture set %s is real broker data that is not redistributed with the repository (its source has no licence)", Env, set)
	}
	p := filepath.Join(root, set)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("fixture set %s is not in %s=%s: %v", set, Env, root, err)
	}
	return p
}

// Glob returns the paths matching pattern inside the extra fixtures
// directory (as filepath.Glob), or skips t when it is unset or nothing matches.
func Glob(t testing.TB, pattern string) []string {
	t.Helper()
	root := os.Getenv(Env)
	if root == "" {
		t.Skipf("%s is not set: the real broker data matching %s is not redistributed with the repository", Env, pattern)
	}
	paths, _ := filepath.Glob(filepath.Join(root, pattern))
	if len(paths) == 0 {
		t.Skipf("nothing matches %s in %s=%s", pattern, Env, root)
	}
	return paths
}
