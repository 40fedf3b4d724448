package vfs

import "io/fs"

// Sub returns the FS of the names under dir in fsys: every name given to it is joined to
// dir. A broker's log directory, or a test's temporary directory on Default, seen as the
// root of an FS. Files it opens report the names they were opened with. Names that climb
// out of dir with ".." are not stopped. MemFS's own reports (PowerCut's callback,
// String) keep naming full paths.
func Sub(fsys FS, dir string) FS { return subFS{fsys, dir} }

// subFS is fsys below dir.
type subFS struct {
	fsys FS
	dir  string
}

func (s subFS) full(name string) string { return s.fsys.PathJoin(s.dir, name) }

// Epoch is fsys's, if it is an [Epocher] (0 otherwise).
func (s subFS) Epoch() uint64 {
	e, _ := EpochOf(s.fsys)
	return e
}

func (s subFS) Create(name string) (File, error) {
	f, err := s.fsys.Create(s.full(name))
	return s.file(f, name, err)
}

func (s subFS) Open(name string) (File, error) {
	f, err := s.fsys.Open(s.full(name))
	return s.file(f, name, err)
}

func (s subFS) OpenReadWrite(name string) (File, error) {
	f, err := s.fsys.OpenReadWrite(s.full(name))
	return s.file(f, name, err)
}

func (s subFS) file(f File, name string, err error) (File, error) {
	if err != nil {
		return nil, err
	}
	return subFile{f, name}, nil
}

func (s subFS) Remove(name string) error          { return s.fsys.Remove(s.full(name)) }
func (s subFS) RemoveAll(name string) error       { return s.fsys.RemoveAll(s.full(name)) }
func (s subFS) List(dir string) ([]string, error) { return s.fsys.List(s.full(dir)) }
func (s subFS) SyncDir(dir string) error          { return s.fsys.SyncDir(s.full(dir)) }
func (s subFS) PathJoin(elem ...string) string    { return s.fsys.PathJoin(elem...) }

func (s subFS) Rename(oldname, newname string) error {
	return s.fsys.Rename(s.full(oldname), s.full(newname))
}

func (s subFS) MkdirAll(dir string, perm fs.FileMode) error {
	return s.fsys.MkdirAll(s.full(dir), perm)
}

func (s subFS) Stat(name string) (fs.FileInfo, error) { return s.fsys.Stat(s.full(name)) }

// subFile is a File that reports the name it was opened with in a subFS.
type subFile struct {
	File
	name string
}

func (f subFile) Name() string { return f.name }

// WriteAtNoCopy is the opened file's, through [WriteAtNoCopy].
func (f subFile) WriteAtNoCopy(p []byte, off int64) (int, error) {
	return WriteAtNoCopy(f.File, p, off)
}

// HoldsAt is the opened file's, through [HoldsAt].
func (f subFile) HoldsAt(p []byte, off int64) bool { return HoldsAt(f.File, p, off) }
