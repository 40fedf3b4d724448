package vfs

import (
	"io"
	"io/fs"
)

// memFile is an open MemFS file.
type memFile struct {
	fs     *MemFS
	n      *node
	name   string
	epoch  uint64
	write  bool
	closed bool
}

func (m *MemFS) handle(n *node, name string, write bool) *memFile {
	return &memFile{fs: m, n: n, name: name, epoch: m.epoch, write: write}
}

// usable returns the error for an operation on a closed or crashed handle.
func (f *memFile) usable(op string) error {
	switch {
	case f.closed:
		return &fs.PathError{Op: op, Path: f.name, Err: fs.ErrClosed}
	case f.epoch != f.fs.epoch:
		return &fs.PathError{Op: op, Path: f.name, Err: ErrCrashed}
	}
	return nil
}

// writable returns the error for a write through this handle, if any.
func (f *memFile) writable(op string) error {
	if err := f.usable(op); err != nil {
		return err
	}
	if !f.write {
		return &fs.PathError{Op: op, Path: f.name, Err: ErrReadOnly}
	}
	return nil
}

// Name returns the name the file was opened with.
func (f *memFile) Name() string { return f.name }

// ReadAt reads from the page cache.
func (f *memFile) ReadAt(p []byte, off int64) (int, error) {
	if err := f.usable("read"); err != nil {
		return 0, err
	}
	if off < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrInvalid}
	}
	if off >= f.n.data.len() {
		return 0, io.EOF
	}
	n := f.n.data.readAt(p, off)
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// HoldsAt reports whether the page cache holds p at off ([Holder]).
func (f *memFile) HoldsAt(p []byte, off int64) bool {
	return f.usable("read") == nil && f.n.data.holds(p, off)
}

// WriteAt writes to the page cache, growing the file (with zeros in any gap) if needed.
// Beyond the capacity it writes what fits and returns ErrNoSpace.
func (f *memFile) WriteAt(p []byte, off int64) (int, error) { return f.writeAt(p, off, false) }

// WriteAtNoCopy is WriteAt that keeps p's own bytes where pages.writeAt
// can ([NoCopyWriter]).
func (f *memFile) WriteAtNoCopy(p []byte, off int64) (int, error) { return f.writeAt(p, off, true) }

func (f *memFile) writeAt(p []byte, off int64, keep bool) (int, error) {
	if err := f.writable("write"); err != nil {
		return 0, err
	}
	if off < 0 {
		return 0, &fs.PathError{Op: "write", Path: f.name, Err: fs.ErrInvalid}
	}
	if err := f.fs.before(Op{Kind: OpWrite, Name: f.name, Offset: off, Len: int64(len(p))}); err != nil {
		return 0, err
	}
	if off > MaxFileSize-int64(len(p)) {
		return 0, &fs.PathError{Op: "write", Path: f.name, Err: ErrFileTooLarge}
	}
	end := off + int64(len(p))
	if limit := f.fs.maxEnd(f.n); end > limit {
		n := min(max(0, limit-off), int64(len(p)))
		return f.write1(p[:n], off, keep), &fs.PathError{Op: "write", Path: f.name, Err: ErrNoSpace}
	}
	return f.write1(p, off, keep), nil
}

// write1 puts p at off in the page cache (keeping p's bytes with keep:
// pages.writeAt) and returns len(p).
func (f *memFile) write1(p []byte, off int64, keep bool) int {
	if len(p) == 0 {
		return 0
	}
	n := f.n
	end := off + int64(len(p))
	if end > n.data.len() {
		f.fs.resize(n, end)
	}
	n.data.writeAt(p, off, keep)
	n.markDirty(off, end)
	f.fs.touch(n)
	n.mtime = f.fs.nowMs
	return len(p)
}

// maxEnd returns the size file n may grow to within the capacity.
func (m *MemFS) maxEnd(n *node) int64 {
	if m.capacity < 0 {
		return 1<<63 - 1
	}
	return n.data.len() + max(0, m.capacity-m.used)
}

// Sync makes the file's data and size durable.
func (f *memFile) Sync() error {
	if err := f.usable("sync"); err != nil {
		return err
	}
	if err := f.fs.before(Op{Kind: OpSync, Name: f.name}); err != nil {
		return err
	}
	f.n.sync()
	return nil
}

// Truncate shrinks the file or grows it with zeros, in the page cache.
func (f *memFile) Truncate(size int64) error {
	if err := f.writable("truncate"); err != nil {
		return err
	}
	if size < 0 {
		return &fs.PathError{Op: "truncate", Path: f.name, Err: fs.ErrInvalid}
	}
	if size > MaxFileSize {
		return &fs.PathError{Op: "truncate", Path: f.name, Err: ErrFileTooLarge}
	}
	if err := f.fs.before(Op{Kind: OpTruncate, Name: f.name, Offset: size}); err != nil {
		return err
	}
	if size > f.fs.maxEnd(f.n) {
		return &fs.PathError{Op: "truncate", Path: f.name, Err: ErrNoSpace}
	}
	f.fs.resize(f.n, size)
	f.n.mtime = f.fs.nowMs
	f.n.stir()
	return nil
}

// Size returns the page cache size.
func (f *memFile) Size() (int64, error) {
	if err := f.usable("stat"); err != nil {
		return 0, err
	}
	return f.n.data.len(), nil
}

// Close closes the handle; a second Close returns fs.ErrClosed.
func (f *memFile) Close() error {
	if err := f.usable("close"); err != nil {
		return err
	}
	f.closed = true
	return nil
}
