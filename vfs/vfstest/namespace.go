package vfstest

import (
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
)

// namespaceCase is one operation on names, from a start tree to a wanted tree.
type namespaceCase struct {
	name    string
	start   Tree
	op      func(vfs.FS) error
	wantErr error
	want    Tree
}

// open returns an op that opens name with open and closes it again.
func open(open func(vfs.FS) (vfs.File, error)) func(vfs.FS) error {
	return func(fsys vfs.FS) error {
		f, err := open(fsys)
		if err != nil {
			return err
		}
		return f.Close()
	}
}

func create(name string) func(vfs.FS) error {
	return open(func(fsys vfs.FS) (vfs.File, error) { return fsys.Create(name) })
}

func openRO(name string) func(vfs.FS) error {
	return open(func(fsys vfs.FS) (vfs.File, error) { return fsys.Open(name) })
}

func openRW(name string) func(vfs.FS) error {
	return open(func(fsys vfs.FS) (vfs.File, error) { return fsys.OpenReadWrite(name) })
}

func remove(name string) func(vfs.FS) error { return func(f vfs.FS) error { return f.Remove(name) } }
func removeAll(name string) func(vfs.FS) error {
	return func(f vfs.FS) error { return f.RemoveAll(name) }
}
func mkdirAll(name string) func(vfs.FS) error {
	return func(f vfs.FS) error { return f.MkdirAll(name, 0o755) }
}
func syncDir(name string) func(vfs.FS) error { return func(f vfs.FS) error { return f.SyncDir(name) } }

func rename(oldname, newname string) func(vfs.FS) error {
	return func(f vfs.FS) error { return f.Rename(oldname, newname) }
}

var namespaceCases = []namespaceCase{
	{name: "Create makes an empty file", op: create("a"), want: Tree{"a": ""}},
	{name: "Create truncates", start: Tree{"a": "hello"}, op: create("a"), want: Tree{"a": ""}},
	{name: "Create in a directory", start: Tree{"d/": ""}, op: create("d/a"), want: Tree{"d/": "", "d/a": ""}},
	{name: "Create needs the parent", op: create("d/a"), wantErr: fs.ErrNotExist, want: Tree{}},
	{name: "Create over a directory", start: Tree{"d/": ""}, op: create("d"), wantErr: vfs.ErrIsDir, want: Tree{"d/": ""}},
	{name: "Create below a file", start: Tree{"a": "x"}, op: create("a/b"), wantErr: vfs.ErrNotDir, want: Tree{"a": "x"}},
	{name: "Open an existing file", start: Tree{"a": "x"}, op: openRO("a"), want: Tree{"a": "x"}},
	{name: "Open a missing file", op: openRO("a"), wantErr: fs.ErrNotExist, want: Tree{}},
	{name: "Open a directory", start: Tree{"d/": ""}, op: openRO("d"), wantErr: vfs.ErrIsDir, want: Tree{"d/": ""}},
	{name: "OpenReadWrite a directory", start: Tree{"d/": ""}, op: openRW("d"), wantErr: vfs.ErrIsDir, want: Tree{"d/": ""}},
	{name: "OpenReadWrite creates", op: openRW("a"), want: Tree{"a": ""}},
	{name: "OpenReadWrite keeps the content", start: Tree{"a": "hello"}, op: openRW("a"), want: Tree{"a": "hello"}},
	{name: "OpenReadWrite needs the parent", op: openRW("d/a"), wantErr: fs.ErrNotExist, want: Tree{}},
	{name: "Remove a file", start: Tree{"a": "x", "b": "y"}, op: remove("a"), want: Tree{"b": "y"}},
	{name: "Remove an empty directory", start: Tree{"d/": ""}, op: remove("d"), want: Tree{}},
	{name: "Remove a directory with entries", start: Tree{"d/a": "x"}, op: remove("d"), wantErr: vfs.ErrNotEmpty, want: Tree{"d/": "", "d/a": "x"}},
	{name: "Remove a missing file", op: remove("a"), wantErr: fs.ErrNotExist, want: Tree{}},
	{name: "RemoveAll a tree", start: Tree{"d/e/a": "x", "d/b": "y", "c": "z"}, op: removeAll("d"), want: Tree{"c": "z"}},
	{name: "RemoveAll a file", start: Tree{"a": "x"}, op: removeAll("a"), want: Tree{}},
	{name: "RemoveAll a missing name", op: removeAll("d/a"), want: Tree{}},
	{name: "RemoveAll below a file", start: Tree{"a": "x"}, op: removeAll("a/b"), wantErr: vfs.ErrNotDir, want: Tree{"a": "x"}},
	{name: "Remove below a file", start: Tree{"a": "x"}, op: remove("a/b"), wantErr: vfs.ErrNotDir, want: Tree{"a": "x"}},
	{name: "Rename a file", start: Tree{"a": "x"}, op: rename("a", "b"), want: Tree{"b": "x"}},
	{name: "Rename replaces a file", start: Tree{"a.tmp": "new", "a": "old"}, op: rename("a.tmp", "a"), want: Tree{"a": "new"}},
	{name: "Rename to another directory", start: Tree{"d/a": "x", "e/": ""}, op: rename("d/a", "e/b"), want: Tree{"d/": "", "e/": "", "e/b": "x"}},
	{name: "Rename a directory", start: Tree{"d/a": "x"}, op: rename("d", "e"), want: Tree{"e/": "", "e/a": "x"}},
	{name: "Rename to itself", start: Tree{"a": "x"}, op: rename("a", "a"), want: Tree{"a": "x"}},
	{name: "Rename a missing file", op: rename("a", "b"), wantErr: fs.ErrNotExist, want: Tree{}},
	{name: "Rename into a missing directory", start: Tree{"a": "x"}, op: rename("a", "d/a"), wantErr: fs.ErrNotExist, want: Tree{"a": "x"}},
	{name: "Rename a file over a directory", start: Tree{"a": "x", "d/": ""}, op: rename("a", "d"), wantErr: fs.ErrExist, want: Tree{"a": "x", "d/": ""}},
	{name: "Rename a directory over a file", start: Tree{"a": "x", "d/": ""}, op: rename("d", "a"), wantErr: vfs.ErrNotDir, want: Tree{"a": "x", "d/": ""}},
	{name: "Rename a directory over an empty one", start: Tree{"d/": "", "e/": ""}, op: rename("d", "e"), wantErr: fs.ErrExist, want: Tree{"d/": "", "e/": ""}},
	{name: "Rename a directory over a full one", start: Tree{"d/": "", "e/a": "x"}, op: rename("d", "e"), wantErr: fs.ErrExist, want: Tree{"d/": "", "e/": "", "e/a": "x"}},
	{name: "Rename a directory into itself", start: Tree{"d/": ""}, op: rename("d", "d/e"), wantErr: errAny, want: Tree{"d/": ""}},
	{name: "MkdirAll makes parents", op: mkdirAll("a/b/c"), want: Tree{"a/": "", "a/b/": "", "a/b/c/": ""}},
	{name: "MkdirAll of an existing directory", start: Tree{"a/b": "x"}, op: mkdirAll("a"), want: Tree{"a/": "", "a/b": "x"}},
	{name: "MkdirAll over a file", start: Tree{"a": "x"}, op: mkdirAll("a"), wantErr: vfs.ErrNotDir, want: Tree{"a": "x"}},
	{name: "MkdirAll below a file", start: Tree{"a": "x"}, op: mkdirAll("a/b"), wantErr: vfs.ErrNotDir, want: Tree{"a": "x"}},
	{name: "SyncDir", start: Tree{"d/a": "x"}, op: syncDir("d"), want: Tree{"d/": "", "d/a": "x"}},
	{name: "SyncDir of a missing directory", op: syncDir("d"), wantErr: fs.ErrNotExist, want: Tree{}},
}

func testNamespace(t *testing.T, newFS func() vfs.FS) {
	for _, tc := range namespaceCases {
		t.Run(tc.name, func(t *testing.T) {
			fsys := newTree(t, newFS, withParents(tc.start))
			checkErr(t, tc.name, tc.op(fsys), tc.wantErr)
			checkTree(t, fsys, withParents(tc.want))
		})
	}
}

// withParents returns tree with an entry for every parent directory of its paths.
func withParents(tree Tree) Tree {
	out := Tree{}
	for p, content := range tree {
		out[p] = content
		for i := range len(p) - 1 {
			if p[i] == '/' {
				out[p[:i+1]] = ""
			}
		}
	}
	return out
}

func testList(t *testing.T, newFS func() vfs.FS) {
	start := Tree{"d/b": "", "d/a.log": "", "d/a.index": "", "d/e/": "", "d/00000000000000000010.log": "", "f": ""}
	for _, tc := range []struct {
		dir     string
		want    []string
		wantErr error
	}{
		{dir: "d", want: []string{"00000000000000000010.log", "a.index", "a.log", "b", "e"}},
		{dir: "d/e", want: []string{}},
		{dir: "", want: []string{"d", "f"}},
		{dir: "missing", wantErr: fs.ErrNotExist},
		{dir: "f", wantErr: vfs.ErrNotDir},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			fsys := newTree(t, newFS, withParents(start))
			got, err := fsys.List(tc.dir)
			checkErr(t, "List("+tc.dir+")", err, tc.wantErr)
			if err != nil {
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("List(%q) (-want +got):\n%s", tc.dir, diff)
			}
		})
	}
}

// statResult is what the suite compares of an fs.FileInfo.
type statResult struct {
	Name  string
	Size  int64
	IsDir bool
}

func testStat(t *testing.T, newFS func() vfs.FS) {
	start := Tree{"d/a.log": "hello", "d/e/": ""}
	for _, tc := range []struct {
		name    string
		want    statResult
		wantErr error
	}{
		{name: "d/a.log", want: statResult{Name: "a.log", Size: 5}},
		{name: "d/e", want: statResult{Name: "e", IsDir: true}},
		{name: "d/missing", wantErr: fs.ErrNotExist},
		{name: "missing/a", wantErr: fs.ErrNotExist},
		{name: "d/a.log/x", wantErr: vfs.ErrNotDir},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := newTree(t, newFS, withParents(start))
			fi, err := fsys.Stat(tc.name)
			checkErr(t, "Stat("+tc.name+")", err, tc.wantErr)
			if err != nil {
				return
			}
			got := statResult{Name: fi.Name(), Size: fi.Size(), IsDir: fi.IsDir()}
			if got.IsDir {
				got.Size = 0 // directory sizes are the OS's business
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("Stat(%q) (-want +got):\n%s", tc.name, diff)
			}
		})
	}
}
