package vfstest

import (
	"errors"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
)

// TestFS checks that the file systems newFS returns behave as vfs.FS documents: every
// operation, on files and directories, including the errors. Each case starts from a
// fresh, empty FS.
func TestFS(t *testing.T, newFS func() vfs.FS) {
	t.Run("Namespace", func(t *testing.T) { testNamespace(t, newFS) })
	t.Run("List", func(t *testing.T) { testList(t, newFS) })
	t.Run("Stat", func(t *testing.T) { testStat(t, newFS) })
	t.Run("File", func(t *testing.T) { testFile(t, newFS) })
	t.Run("Handles", func(t *testing.T) { testHandles(t, newFS) })
	t.Run("PathJoin", func(t *testing.T) { testPathJoin(t, newFS) })
}

// errAny stands for "some error" in a case's wantErr.
var errAny = errors.New("any error")

// checkErr fails t unless err matches want: nil, errAny (any error) or a sentinel that
// errors.Is finds in err.
func checkErr(t *testing.T, what string, err, want error) {
	t.Helper()
	switch {
	case want == nil && err != nil:
		t.Fatalf("%s: unexpected error: %v", what, err)
	case want == nil:
	case err == nil:
		t.Fatalf("%s: succeeded, want an error matching %v", what, want)
	case want != errAny && !errors.Is(err, want):
		t.Fatalf("%s: error %v does not match %v", what, err, want)
	}
}

// newTree returns a fresh FS holding tree.
func newTree(t *testing.T, newFS func() vfs.FS, tree Tree) vfs.FS {
	t.Helper()
	fsys := newFS()
	if err := WriteTree(fsys, tree); err != nil {
		t.Fatalf("setup: writing %v: %v", tree, err)
	}
	return fsys
}

// checkTree fails t unless fsys holds exactly want.
func checkTree(t *testing.T, fsys vfs.FS, want Tree) {
	t.Helper()
	got, err := ReadTree(fsys, "")
	if err != nil {
		t.Fatalf("reading the tree back: %v", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("tree after the operation (-want +got):\n%s", diff)
	}
}

func sortedKeys(tree Tree) []string {
	keys := make([]string, 0, len(tree))
	for k := range tree {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func testPathJoin(t *testing.T, newFS func() vfs.FS) {
	fsys := newFS()
	for _, tc := range []struct {
		elem []string
		want string
	}{
		{[]string{"a", "b"}, "a/b"},
		{[]string{"a/", "b"}, "a/b"},
		{[]string{"data", "topic-0", "00000000000000000000.log"}, "data/topic-0/00000000000000000000.log"},
		{[]string{"a", "", "b"}, "a/b"},
	} {
		if diff := cmp.Diff(tc.want, fsys.PathJoin(tc.elem...)); diff != "" {
			t.Errorf("PathJoin(%q) (-want +got):\n%s", tc.elem, diff)
		}
	}
}
