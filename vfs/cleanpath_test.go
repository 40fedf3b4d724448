package vfs

import (
	"path"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestCleanPathIsPathClean: for random names built of components, slashes,
// "." and "..", cleanPath names what path.Clean("/" + name) names,
// baseName what path.Base of that does and MemFS.PathJoin what path.Join
// does. Replay: go test ./vfs -run TestCleanPathIsPathClean -rapid.seed=N.
func TestCleanPathIsPathClean(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom([]string{"a", "bc", "00000000000000000000.log", ".", "..", "", "/", ".a", "a."}), 0, 8).Draw(t, "parts")
		name := strings.Join(parts, rapid.SampledFrom([]string{"/", "//"}).Draw(t, "sep"))
		if rapid.Bool().Draw(t, "rooted") {
			name = "/" + name
		}
		want := path.Clean("/" + name)
		if got := "/" + cleanPath(name); got != want {
			t.Fatalf("cleanPath(%q) = %q, path.Clean says %q", name, got, want)
		}
		if got, want := baseName(name), path.Base(want); got != want {
			t.Fatalf("baseName(%q) = %q, want %q", name, got, want)
		}
		other := strings.Join(rapid.SliceOfN(rapid.SampledFrom([]string{"a", "..", ".", "", "b.log"}), 0, 3).Draw(t, "other"), "/")
		if got, want := NewMem().PathJoin(name, other), path.Join(name, other); got != want {
			t.Fatalf("PathJoin(%q, %q) = %q, path.Join says %q", name, other, got, want)
		}
	})
}

func TestCleanPathOfACleanNameDoesNotAllocate(t *testing.T) {
	for _, name := range []string{"", "/", "orders-0", "/orders-0/00000000000000000000.log", "a/b/c"} {
		if n := testing.AllocsPerRun(100, func() { _ = cleanPath(name) }); n != 0 {
			t.Errorf("cleanPath(%q): %v allocations, want 0", name, n)
		}
	}
}
