package kit

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// CallerDir returns the directory of the source file skip frames above the
// caller, relative to the repository root (the directory holding go.work), in
// the "./exercises/ch01/varint" form go test takes. If it cannot tell, it
// returns "./" + fallback.
func CallerDir(skip int, fallback string) string {
	_, file, _, ok := runtime.Caller(skip + 1)
	if !ok {
		return "./" + fallback
	}
	dir := filepath.Dir(file)
	root := RepoRoot(dir)
	if root == "" {
		return "./" + fallback
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "./" + fallback
	}
	return "./" + filepath.ToSlash(rel)
}

// RepoRoot walks up from dir to the first directory that holds a go.work file
// and returns it, or "" if there is none.
func RepoRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Replay returns the go test command that runs one test (or subtest) again, for
// a test name as testing.T.Name gives it ("TestVarint/properties"). For a
// failing random run, CheckProperty adds the seed that reproduces it.
func Replay(dir, testName string) string {
	parts := strings.Split(testName, "/")
	for i, p := range parts {
		parts[i] = "^" + p + "$"
	}
	return fmt.Sprintf("go test %s -run '%s'", dir, strings.Join(parts, "/"))
}
