package vfstest

import (
	"fmt"
	"io"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
)

// fileCase is one operation on a file "f" opened read-write, which starts holding start.
type fileCase struct {
	name    string
	start   string
	op      func(vfs.File) (string, error) // returns what it observed
	want    string
	wantErr error
	after   string // the content of f afterwards
}

func writeAt(p string, off int64) func(vfs.File) (string, error) {
	return func(f vfs.File) (string, error) {
		n, err := f.WriteAt([]byte(p), off)
		return fmt.Sprintf("wrote %d", n), err
	}
}

func readAt(size int, off int64) func(vfs.File) (string, error) {
	return func(f vfs.File) (string, error) {
		buf := make([]byte, size)
		n, err := f.ReadAt(buf, off)
		if err == io.EOF {
			return fmt.Sprintf("read %q EOF", buf[:n]), nil
		}
		return fmt.Sprintf("read %q", buf[:n]), err
	}
}

func truncate(size int64) func(vfs.File) (string, error) {
	return func(f vfs.File) (string, error) {
		if err := f.Truncate(size); err != nil {
			return "", err
		}
		return sizeOf(f)
	}
}

func sizeOf(f vfs.File) (string, error) {
	size, err := f.Size()
	return fmt.Sprintf("size %d", size), err
}

func fileSync(f vfs.File) (string, error) { return "", f.Sync() }

var fileCases = []fileCase{
	{name: "write to an empty file", op: writeAt("hello", 0), want: "wrote 5", after: "hello"},
	{name: "append at the size", start: "hello", op: writeAt(" world", 5), want: "wrote 6", after: "hello world"},
	{name: "overwrite in the middle", start: "hello", op: writeAt("EL", 1), want: "wrote 2", after: "hELlo"},
	{name: "overwrite past the end", start: "hello", op: writeAt("LO!", 3), want: "wrote 3", after: "helLO!"},
	{name: "write beyond the end fills the gap with zeros", start: "ab", op: writeAt("z", 4), want: "wrote 1", after: "ab\x00\x00z"},
	{name: "write nothing", start: "ab", op: writeAt("", 0), want: "wrote 0", after: "ab"},
	{name: "write nothing beyond the end", start: "ab", op: writeAt("", 5), want: "wrote 0", after: "ab"},
	{name: "write at a negative offset", start: "ab", op: writeAt("z", -1), want: "wrote 0", wantErr: errAny, after: "ab"},
	{name: "read all", start: "hello", op: readAt(5, 0), want: `read "hello"`, after: "hello"},
	{name: "read inside", start: "hello", op: readAt(3, 1), want: `read "ell"`, after: "hello"},
	{name: "read across the end", start: "hello", op: readAt(4, 3), want: `read "lo" EOF`, after: "hello"},
	{name: "read at the end", start: "hello", op: readAt(1, 5), want: `read "" EOF`, after: "hello"},
	{name: "read past the end", start: "hello", op: readAt(1, 9), want: `read "" EOF`, after: "hello"},
	{name: "read nothing", start: "hello", op: readAt(0, 2), want: `read ""`, after: "hello"},
	{name: "read at a negative offset", start: "hello", op: readAt(1, -1), want: `read ""`, wantErr: errAny, after: "hello"},
	{name: "size", start: "hello", op: sizeOf, want: "size 5", after: "hello"},
	{name: "truncate shrinks", start: "hello", op: truncate(2), want: "size 2", after: "he"},
	{name: "truncate grows with zeros", start: "he", op: truncate(4), want: "size 4", after: "he\x00\x00"},
	{name: "truncate to the size", start: "he", op: truncate(2), want: "size 2", after: "he"},
	{name: "truncate to zero", start: "hello", op: truncate(0), want: "size 0", after: ""},
	{name: "truncate to a negative size", start: "he", op: truncate(-1), wantErr: errAny, after: "he"},
	{name: "sync", start: "hello", op: fileSync, after: "hello"},
	{name: "shrink then grow reads zeros", start: "hello", op: func(f vfs.File) (string, error) {
		if err := f.Truncate(1); err != nil {
			return "", err
		}
		return truncate(5)(f)
	}, want: "size 5", after: "h\x00\x00\x00\x00"},
}

func testFile(t *testing.T, newFS func() vfs.FS) {
	for _, tc := range fileCases {
		t.Run(tc.name, func(t *testing.T) {
			fsys := newTree(t, newFS, Tree{"f": tc.start})
			f, err := fsys.OpenReadWrite("f")
			if err != nil {
				t.Fatalf("setup: %v", err)
			}
			got, err := tc.op(f)
			checkErr(t, tc.name, err, tc.wantErr)
			if diff := cmp.Diff(tc.want, got); err == nil && diff != "" {
				t.Fatalf("%s (-want +got):\n%s", tc.name, diff)
			}
			if err := f.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			checkTree(t, fsys, Tree{"f": tc.after})
		})
	}
}

// handleCase is a use of a handle, opened with open on a file "f" holding "hello".
type handleCase struct {
	name    string
	open    func(vfs.FS) (vfs.File, error)
	use     func(vfs.File) error
	wantErr error
}

func closed(use func(vfs.File) error) func(vfs.File) error {
	return func(f vfs.File) error {
		if err := f.Close(); err != nil {
			return fmt.Errorf("first Close: %w", err)
		}
		return use(f)
	}
}

func useRead(f vfs.File) error             { _, err := f.ReadAt(make([]byte, 1), 0); return err }
func useWrite(f vfs.File) error            { _, err := f.WriteAt([]byte("x"), 0); return err }
func useTruncate(f vfs.File) error         { return f.Truncate(1) }
func useSync(f vfs.File) error             { return f.Sync() }
func useClose(f vfs.File) error            { return f.Close() }
func openF(fsys vfs.FS) (vfs.File, error)  { return fsys.OpenReadWrite("f") }
func openRF(fsys vfs.FS) (vfs.File, error) { return fsys.Open("f") }

var handleCases = []handleCase{
	{name: "read-only handle reads", open: openRF, use: useRead},
	{name: "read-only handle syncs", open: openRF, use: useSync},
	{name: "read-only handle refuses writes", open: openRF, use: useWrite, wantErr: vfs.ErrReadOnly},
	{name: "read-only handle refuses truncation", open: openRF, use: useTruncate, wantErr: errAny},
	{name: "read after close", open: openF, use: closed(useRead), wantErr: fs.ErrClosed},
	{name: "write after close", open: openF, use: closed(useWrite), wantErr: fs.ErrClosed},
	{name: "sync after close", open: openF, use: closed(useSync), wantErr: fs.ErrClosed},
	{name: "close twice", open: openF, use: closed(useClose), wantErr: fs.ErrClosed},
}

func testHandles(t *testing.T, newFS func() vfs.FS) {
	for _, tc := range handleCases {
		t.Run(tc.name, func(t *testing.T) {
			fsys := newTree(t, newFS, Tree{"f": "hello"})
			f, err := tc.open(fsys)
			if err != nil {
				t.Fatalf("setup: %v", err)
			}
			checkErr(t, tc.name, tc.use(f), tc.wantErr)
			f.Close()
		})
	}
	t.Run("Name is the name opened", func(t *testing.T) {
		fsys := newTree(t, newFS, Tree{"d/": "", "d/f": ""})
		f, err := fsys.Open("d/f")
		if err != nil {
			t.Fatalf("setup: %v", err)
		}
		defer f.Close()
		if diff := cmp.Diff("d/f", f.Name()); diff != "" {
			t.Fatalf("Name (-want +got):\n%s", diff)
		}
	})
	t.Run("a handle sees a rename, the new name does not see the old file", func(t *testing.T) {
		fsys := newTree(t, newFS, Tree{"a": "old", "b.tmp": "new"})
		f, err := fsys.OpenReadWrite("a")
		if err != nil {
			t.Fatalf("setup: %v", err)
		}
		defer f.Close()
		if err := fsys.Rename("b.tmp", "a"); err != nil {
			t.Fatalf("Rename: %v", err)
		}
		if _, err := f.WriteAt([]byte("OLD"), 0); err != nil {
			t.Fatalf("write through the replaced file's handle: %v", err)
		}
		checkTree(t, fsys, Tree{"a": "new"})
	})
}
