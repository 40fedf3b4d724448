package vfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// osFS is the operating system's file system.
type osFS struct{}

func (osFS) Create(name string) (File, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, osErr(err)
	}
	return osFile{f}, nil
}

func (osFS) Open(name string) (File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, osErr(err)
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrIsDir}
	}
	return osFile{f}, nil
}

func (osFS) OpenReadWrite(name string) (File, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, osErr(err)
	}
	return osFile{f}, nil
}

func (osFS) Remove(name string) error                    { return osErr(os.Remove(name)) }
func (osFS) RemoveAll(name string) error                 { return osErr(os.RemoveAll(name)) }
func (osFS) Rename(oldname, newname string) error        { return osErr(os.Rename(oldname, newname)) }
func (osFS) MkdirAll(dir string, perm fs.FileMode) error { return osErr(os.MkdirAll(dir, perm)) }
func (osFS) PathJoin(elem ...string) string              { return filepath.Join(elem...) }

func (osFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := os.Stat(name)
	return fi, osErr(err)
}

func (osFS) List(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return nil, osErr(err)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names, nil
}

func (osFS) SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return osErr(err)
	}
	if err := d.Sync(); err != nil {
		d.Close()
		return osErr(err)
	}
	return d.Close()
}

// osFile is an *os.File seen as a File.
type osFile struct{ f *os.File }

func (o osFile) ReadAt(p []byte, off int64) (int, error) { return o.f.ReadAt(p, off) }
func (o osFile) Close() error                            { return o.f.Close() }
func (o osFile) Sync() error                             { return osErr(o.f.Sync()) }
func (o osFile) Truncate(size int64) error               { return osErr(o.f.Truncate(size)) }

func (o osFile) WriteAt(p []byte, off int64) (int, error) {
	n, err := o.f.WriteAt(p, off)
	return n, osErr(err)
}
func (o osFile) Name() string { return o.f.Name() }

func (o osFile) Size() (int64, error) {
	fi, err := o.f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// errnoSentinels pairs the errors the OS reports with the sentinels MemFS returns, so
// that errors.Is(err, ErrNoSpace) and friends work on both.
var errnoSentinels = []struct {
	errno    syscall.Errno
	sentinel error
}{
	{syscall.ENOSPC, ErrNoSpace},
	{syscall.EFBIG, ErrFileTooLarge},
	{syscall.EISDIR, ErrIsDir},
	{syscall.ENOTDIR, ErrNotDir},
	{syscall.ENOTEMPTY, ErrNotEmpty},
	{syscall.EBADF, ErrReadOnly}, // writing through a read-only descriptor
}

// osErr makes the OS error inside err also match the vfs sentinel for its errno.
func osErr(err error) error {
	if err == nil {
		// Return before declaring errno: errors.As makes it escape, and the
		// allocation would otherwise be paid on every successful call.
		return nil
	}
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err
	}
	for _, p := range errnoSentinels {
		if errno != p.errno {
			continue
		}
		var pe *fs.PathError
		var le *os.LinkError
		switch {
		case errors.As(err, &pe):
			return &fs.PathError{Op: pe.Op, Path: pe.Path, Err: errnoError{p.errno, p.sentinel}}
		case errors.As(err, &le):
			return &fs.PathError{Op: le.Op, Path: le.Old + " -> " + le.New, Err: errnoError{p.errno, p.sentinel}}
		}
	}
	return err
}

// errnoError is an OS error number that also matches a vfs sentinel.
type errnoError struct {
	errno    syscall.Errno
	sentinel error
}

func (e errnoError) Error() string   { return e.errno.Error() }
func (e errnoError) Unwrap() []error { return []error{e.errno, e.sentinel} }
