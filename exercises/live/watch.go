package main

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// watchParts returns what changed since now among the exercises' source
// files of each part (exercises/chNN/NAME/*.go, tests left out), found
// from dir upwards: the page runs the code it was started with and says
// to restart it for a part whose files changed. It answers nothing when it
// cannot find the exercises' directory.
func watchParts(dir string, parts []string) func() []string {
	root := exercisesDir(dir)
	if root == "" {
		return func() []string { return nil }
	}
	stamp := func(part string) map[string]time.Time {
		out := map[string]time.Time{}
		files, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(part), "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			if st, err := os.Stat(f); err == nil {
				out[f] = st.ModTime()
			}
		}
		return out
	}
	start := map[string]map[string]time.Time{}
	for _, p := range parts {
		start[p] = stamp(p)
	}
	return func() []string {
		var changed []string
		for _, p := range parts {
			now := stamp(p)
			if !sameStamps(start[p], now) {
				changed = append(changed, p)
			}
		}
		return changed
	}
}

// sameStamps says whether two sets of files' times are the same.
func sameStamps(a, b map[string]time.Time) bool {
	if len(a) != len(b) {
		return false
	}
	for f, t := range a {
		if u, ok := b[f]; !ok || !u.Equal(t) {
			return false
		}
	}
	return true
}

// exercisesDir finds the exercises' directory from dir upwards: dir itself
// when it is one (it holds live/ and ch01/), else its exercises/ child, or
// an ancestor's; "" when there is none.
func exercisesDir(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		for _, c := range []string{d, filepath.Join(d, "exercises")} {
			if st, err := os.Stat(filepath.Join(c, "ch01")); err == nil && st.IsDir() {
				if _, err := os.Stat(filepath.Join(c, "live")); err == nil {
					return c
				}
			}
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
