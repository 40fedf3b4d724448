package broker

import (
	"fmt"
	"io/fs"

	"github.com/kafkalive/kafkalive/vfs"
)

// readOnlyFS lets reads through to a MemFS and refuses changes.
type readOnlyFS struct{ m *vfs.MemFS }

func (r readOnlyFS) Create(name string) (vfs.File, error) { return nil, refuse("create", name) }

func (r readOnlyFS) Open(name string) (vfs.File, error) { return r.m.Open(name) }

func (r readOnlyFS) OpenReadWrite(name string) (vfs.File, error) {
	return nil, refuse("open", name)
}

func (r readOnlyFS) Remove(name string) error { return refuse("remove", name) }

func (r readOnlyFS) RemoveAll(name string) error { return refuse("removeall", name) }

func (r readOnlyFS) Rename(oldname, newname string) error { return refuse("rename", oldname) }

func (r readOnlyFS) MkdirAll(dir string, _ fs.FileMode) error { return refuse("mkdir", dir) }

func (r readOnlyFS) List(dir string) ([]string, error) { return r.m.List(dir) }

func (r readOnlyFS) Stat(name string) (fs.FileInfo, error) { return r.m.Stat(name) }

func (r readOnlyFS) SyncDir(dir string) error { return refuse("syncdir", dir) }

func (r readOnlyFS) PathJoin(elem ...string) string { return r.m.PathJoin(elem...) }

func refuse(op, name string) error { return &fs.PathError{Op: op, Path: name, Err: ErrReadOnlyFS} }

// ErrReadOnlyFS is returned by every change tried through [World.BrokerFS].
var ErrReadOnlyFS = fmt.Errorf("cluster: a broker's files are read-only from outside: %w", fs.ErrPermission)

// ReadOnly returns a view of m that refuses every change with
// [ErrReadOnlyFS].
func ReadOnly(m *vfs.MemFS) vfs.FS { return readOnlyFS{m} }
