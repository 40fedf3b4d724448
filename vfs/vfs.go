package vfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// FS is the file system a Kafka log directory lives on. Names are slash-separated paths.
//
// Errors are *fs.PathError values wrapping a sentinel, so errors.Is(err, fs.ErrNotExist),
// errors.Is(err, fs.ErrExist), errors.Is(err, ErrNoSpace) and friends work on both
// implementations.
type FS interface {
	// Create creates the named file, or truncates it if it exists, and opens it read-write.
	// The parent directory must exist.
	Create(name string) (File, error)
	// Open opens an existing file read-only. A directory is not a file (ErrIsDir).
	Open(name string) (File, error)
	// OpenReadWrite opens an existing file read-write without truncating it, or creates it.
	OpenReadWrite(name string) (File, error)
	// Remove removes a file or an empty directory.
	Remove(name string) error
	// RemoveAll removes name and everything under it. A missing name is not an error.
	RemoveAll(name string) error
	// Rename renames oldname to newname, atomically replacing a file at newname. An
	// existing directory at newname is not replaced (fs.ErrExist), as in os.Rename.
	Rename(oldname, newname string) error
	// MkdirAll creates dir and any missing parents.
	MkdirAll(dir string, perm fs.FileMode) error
	// List returns the names (not paths) of the entries in dir, sorted.
	List(dir string) ([]string, error)
	// Stat describes the named file or directory.
	Stat(name string) (fs.FileInfo, error)
	// SyncDir makes the creates, renames and removes of entries in dir durable
	// (fsync on the directory).
	SyncDir(dir string) error
	// PathJoin joins path elements with the separator of this FS.
	PathJoin(elem ...string) string
}

// File is an open file. There is no seek position: logs append with WriteAt(p, size).
//
// Data written with WriteAt is in the page cache until Sync returns: a process crash keeps
// it, a power cut may lose it (see MemFS).
type File interface {
	io.ReaderAt
	io.WriterAt
	io.Closer
	// Sync is fsync: the file's data and size become durable. It does not make the file's
	// directory entry durable; that takes SyncDir on its directory.
	Sync() error
	// Truncate shrinks the file, or grows it with zeros (Kafka preallocates index files
	// and, with file.preallocate=true, segments this way).
	Truncate(size int64) error
	// Size returns the file's current size in bytes (page cache view).
	Size() (int64, error)
	// Name returns the name the file was opened with.
	Name() string
}

// NoCopyWriter is a File that can take the bytes written to it as its own
// rather than copying them: WriteAtNoCopy is WriteAt, except that the file
// may keep p, or parts of it, as its contents, so that p must never change
// afterwards, by the caller or anyone else. MemFS files implement it (they
// keep the pages p covers whole and the part of p that continues a page
// right after its last byte, and copy such a page before they write it
// again); use [WriteAtNoCopy], which copies on a File that cannot.
type NoCopyWriter interface {
	WriteAtNoCopy(p []byte, off int64) (int, error)
}

// WriteAtNoCopy writes p at off in f, with f's WriteAtNoCopy if f is a
// [NoCopyWriter] (p must then never change afterwards), or else its WriteAt.
func WriteAtNoCopy(f File, p []byte, off int64) (int, error) {
	if w, ok := f.(NoCopyWriter); ok {
		return w.WriteAtNoCopy(p, off)
	}
	return f.WriteAt(p, off)
}

// Holder is a File that can tell cheaply whether it holds given bytes:
// HoldsAt reports whether its bytes [off, off+len(p)) equal p. MemFS files
// implement it, and recognise the pages they kept from p
// ([NoCopyWriter]) without comparing them. Use [HoldsAt].
type Holder interface {
	HoldsAt(p []byte, off int64) bool
}

// HoldsAt reports whether f holds p at off, with f's HoldsAt if f is a
// [Holder]; on a File that is not, it answers false (it cannot tell
// without reading), so that a caller's false means "read it".
func HoldsAt(f File, p []byte, off int64) bool {
	h, ok := f.(Holder)
	return ok && h.HoldsAt(p, off)
}

// Epocher is a file system whose open files die all at once when its process crashes:
// Epoch changes at each such crash, so that whoever holds a name to open later can
// tell whether a handle opened at an earlier epoch would still be alive. MemFS is one
// (Crash, PowerCut), and so is a Sub of one; use [EpochOf].
type Epocher interface {
	Epoch() uint64
}

// EpochOf returns fsys's epoch, if it is an [Epocher].
func EpochOf(fsys FS) (epoch uint64, ok bool) {
	e, ok := fsys.(Epocher)
	if !ok {
		return 0, false
	}
	return e.Epoch(), true
}

// Default is the operating system's file system (package os), the one place the project
// touches os.
var Default FS = osFS{}

// ErrNoSpace is returned by writes and truncations that would take a MemFS beyond the
// capacity set with SetCapacity (ENOSPC).
var ErrNoSpace = errors.New("vfs: no space left on device")

// ErrCrashed is returned by every operation on a File that was open when the process
// crashed ((*MemFS).Crash or PowerCut). It wraps fs.ErrClosed.
var ErrCrashed = fmt.Errorf("vfs: file handle lost in a process crash: %w", fs.ErrClosed)

// ErrReadOnly is returned by writes to a File opened with Open. It wraps fs.ErrPermission.
var ErrReadOnly = fmt.Errorf("vfs: file opened read-only: %w", fs.ErrPermission)

// ErrFileTooLarge is returned by writes and truncations that would make a file larger
// than the FS allows (EFBIG); for MemFS, larger than MaxFileSize.
var ErrFileTooLarge = errors.New("vfs: file too large")

// MaxFileSize is the largest file a MemFS holds, 1 GiB, so that a wild offset fails
// with ErrFileTooLarge instead of exhausting memory. (Kafka's default segment.bytes is
// 1 GiB too.)
const MaxFileSize int64 = 1 << 30

// ErrIsDir is returned when a file operation names a directory.
var ErrIsDir = errors.New("vfs: is a directory")

// ErrNotDir is returned when a directory operation names a file, or a path goes through one.
var ErrNotDir = errors.New("vfs: not a directory")

// ErrNotEmpty is returned by Remove on a directory that has entries.
var ErrNotEmpty = errors.New("vfs: directory not empty")
