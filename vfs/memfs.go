package vfs

import (
	"io/fs"
	"path"
	"sort"
	"strings"
)

// MemFS is an in-memory FS with a page cache, a process crash and a power cut.
//
// Every file has two versions of its bytes: the page cache (what reads see) and the disk
// (what the last Sync made durable). Every directory has two versions of its entries: the
// current ones and the ones the last SyncDir made durable. Crash keeps the page cache;
// PowerCut keeps only the disk, plus a chosen prefix of each file's unsynced tail.
//
// MemFS has no clock and no randomness of its own, starts no goroutines and iterates in
// sorted order, so the same calls give the same results. It is not safe for concurrent use.
//
// Names are slash-separated; MemFS has one root, and "a/b" and "/a/b" name the same file.
type MemFS struct {
	root     *node
	epoch    uint64 // incremented by Crash and PowerCut; handles from older epochs are dead
	hook     func(Op) error
	ops      int64 // mutating operations so far, counted before the hook runs
	version  int64 // see ContentVersion
	kindOps  [numOpKinds]int64
	capacity int64 // maximum bytes in linked files; negative means unlimited
	used     int64 // bytes in linked files (page cache sizes)
	nowMs    int64 // stamped on modified files and directories

	// dirtied holds every dirty node of the current tree (and perhaps
	// some since cleaned or unlinked, dropped by the flusher's next look),
	// each once (node.listed), so that WritebackExpired costs what is
	// dirty, not what the tree holds; rescan says it is not known (a
	// Snapshot's) and is to be found by walking the tree.
	dirtied []*node
	rescan  bool
}

// NewMem returns an empty MemFS with unlimited capacity, whose root directory exists and
// is durable.
func NewMem() *MemFS {
	root := newDir(0)
	root.linked = true
	return &MemFS{root: root, capacity: -1}
}

// SetNow sets the time, in milliseconds since the Unix epoch, that MemFS stamps on files
// and directories it modifies from now on (Stat's ModTime). It starts at 0.
func (m *MemFS) SetNow(ms int64) { m.nowMs = ms }

// ContentVersion changes whenever the files' names or contents as the
// page cache holds them may have changed: at every mutating operation
// (whether or not it succeeds), a PowerCut and a DamageDisk. Writeback,
// WritebackExpired and Crash, which change neither, leave it. A reader that
// derived something from the files (a log opened on a clone) can keep it
// while the version stays the same.
func (m *MemFS) ContentVersion() int64 { return m.version }

// SetCapacity limits the bytes the files may hold in total (page cache sizes of linked
// files); writes and truncations beyond it fail with ErrNoSpace. A negative capacity means
// unlimited, the default.
func (m *MemFS) SetCapacity(bytes int64) { m.capacity = bytes }

// UsedBytes returns the bytes the linked files hold (their page cache sizes), the figure
// SetCapacity limits.
func (m *MemFS) UsedBytes() int64 { return m.used }

// split cleans name and returns its components below the root.
func split(name string) []string {
	p := cleanPath(name)
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// cleanPath returns name as path.Clean("/" + name) cleans it, without its
// leading slash ("" names the root). A name that is clean already (the
// names a log gives are) comes back as it is, without an allocation.
func cleanPath(name string) string {
	p := strings.TrimPrefix(name, "/")
	if isCleanPath(p) {
		return p
	}
	return path.Clean("/" + name)[1:]
}

// baseName returns name's last component as path.Base cleans it ("/"
// for the root).
func baseName(name string) string {
	p := cleanPath(name)
	if p == "" {
		return "/"
	}
	return p[strings.LastIndexByte(p, '/')+1:]
}

// isCleanPath reports whether p, without a leading slash, is as
// path.Clean leaves it: no empty, "." or ".." component, no trailing slash.
func isCleanPath(p string) bool {
	if p == "" {
		return true
	}
	if p[len(p)-1] == '/' {
		return false
	}
	for p != "" {
		var part string
		part, p, _ = strings.Cut(p, "/")
		if part == "" || part == "." || part == ".." {
			return false
		}
	}
	return true
}

// walk returns the node at the clean path p (see cleanPath), or an error
// naming what stopped it.
func (m *MemFS) walk(p string) (*node, error) {
	n := m.root
	for p != "" {
		var part string
		part, p, _ = strings.Cut(p, "/")
		if !n.dir {
			return nil, ErrNotDir
		}
		c, ok := n.children[part]
		if !ok {
			return nil, fs.ErrNotExist
		}
		n = c
	}
	return n, nil
}

// lookup returns the node called name.
func (m *MemFS) lookup(op, name string) (*node, error) {
	n, err := m.walk(cleanPath(name))
	if err != nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	return n, nil
}

// parentOf returns the directory that holds name, and name's last component.
func (m *MemFS) parentOf(op, name string) (*node, string, error) {
	p := cleanPath(name)
	if p == "" {
		return nil, "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	parent, base := "", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		parent, base = p[:i], p[i+1:]
	}
	dir, err := m.walk(parent)
	if err == nil && !dir.dir {
		err = ErrNotDir
	}
	if err != nil {
		return nil, "", &fs.PathError{Op: op, Path: name, Err: err}
	}
	return dir, base, nil
}

// Create creates or truncates the named file and opens it read-write.
func (m *MemFS) Create(name string) (File, error) {
	if err := m.before(Op{Kind: OpCreate, Name: name}); err != nil {
		return nil, err
	}
	dir, base, err := m.parentOf("create", name)
	if err != nil {
		return nil, err
	}
	n, ok := dir.children[base]
	switch {
	case ok && n.dir:
		return nil, &fs.PathError{Op: "create", Path: name, Err: ErrIsDir}
	case ok:
		m.resize(n, 0)
		n.mtime = m.nowMs
		n.stir()
	default:
		n = m.link(dir, base, newFile(m.nowMs))
	}
	return m.handle(n, name, true), nil
}

// Open opens an existing file read-only.
func (m *MemFS) Open(name string) (File, error) {
	n, err := m.lookup("open", name)
	if err != nil {
		return nil, err
	}
	if n.dir {
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrIsDir}
	}
	return m.handle(n, name, false), nil
}

// OpenReadWrite opens an existing file read-write, or creates it (an OpCreate).
func (m *MemFS) OpenReadWrite(name string) (File, error) {
	n, err := m.lookup("open", name)
	switch {
	case err == nil && n.dir:
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrIsDir}
	case err == nil:
		return m.handle(n, name, true), nil
	}
	if err := m.before(Op{Kind: OpCreate, Name: name}); err != nil {
		return nil, err
	}
	dir, base, err := m.parentOf("open", name)
	if err != nil {
		return nil, err
	}
	return m.handle(m.link(dir, base, newFile(m.nowMs)), name, true), nil
}

// link adds n to dir as base and counts its bytes as used.
func (m *MemFS) link(dir *node, base string, n *node) *node {
	dir.children[base] = n
	n.parent, n.name = dir, base
	dir.entryChanged(base)
	dir.mtime = m.nowMs
	m.touch(dir)
	m.linkTree(n, +1)
	return n
}

// unlink removes base from dir and stops counting the bytes under it.
func (m *MemFS) unlink(dir *node, base string) {
	n := dir.children[base]
	delete(dir.children, base)
	dir.entryChanged(base)
	dir.mtime = m.nowMs
	m.touch(dir)
	m.linkTree(n, -1)
}

// linkTree marks n and everything under it linked (+1) or unlinked (-1) and
// adjusts used.
func (m *MemFS) linkTree(n *node, sign int64) {
	n.linked = sign > 0
	if !n.dir {
		m.used += sign * n.data.len()
		return
	}
	for _, c := range n.children {
		m.linkTree(c, sign)
	}
}

// Remove removes a file or an empty directory.
func (m *MemFS) Remove(name string) error {
	if err := m.before(Op{Kind: OpRemove, Name: name}); err != nil {
		return err
	}
	dir, base, err := m.parentOf("remove", name)
	if err != nil {
		return err
	}
	n, ok := dir.children[base]
	switch {
	case !ok:
		return &fs.PathError{Op: "remove", Path: name, Err: fs.ErrNotExist}
	case n.dir && len(n.children) > 0:
		return &fs.PathError{Op: "remove", Path: name, Err: ErrNotEmpty}
	}
	m.unlink(dir, base)
	return nil
}

// RemoveAll removes name and everything under it; a missing name is not an error.
// RemoveAll of the root empties it.
func (m *MemFS) RemoveAll(name string) error {
	if err := m.before(Op{Kind: OpRemoveAll, Name: name}); err != nil {
		return err
	}
	if cleanPath(name) == "" {
		for _, base := range sortedNames(m.root.children) {
			m.unlink(m.root, base)
		}
		return nil
	}
	dir, base, err := m.parentOf("removeall", name)
	if err != nil {
		if isNotExist(err) {
			return nil
		}
		return err
	}
	if _, ok := dir.children[base]; ok {
		m.unlink(dir, base)
	}
	return nil
}

// Rename renames oldname to newname, atomically replacing a file at newname. A directory
// at newname is never replaced (fs.ErrExist), as in Go's os.Rename.
func (m *MemFS) Rename(oldname, newname string) error {
	if err := m.before(Op{Kind: OpRename, Name: oldname, NewName: newname}); err != nil {
		return err
	}
	fail := func(err error) error {
		return &fs.PathError{Op: "rename", Path: oldname + " -> " + newname, Err: err}
	}
	odir, obase, err := m.parentOf("rename", oldname)
	if err != nil {
		return fail(unwrapPath(err))
	}
	src, ok := odir.children[obase]
	if !ok {
		return fail(fs.ErrNotExist)
	}
	ndir, nbase, err := m.parentOf("rename", newname)
	if err != nil {
		return fail(unwrapPath(err))
	}
	if src.dir && isUnder(split(newname), split(oldname)) {
		return fail(fs.ErrInvalid)
	}
	if dst, ok := ndir.children[nbase]; ok {
		if dst == src {
			return nil
		}
		if err := replaceable(src, dst); err != nil {
			return fail(err)
		}
		m.unlink(ndir, nbase)
	}
	delete(odir.children, obase)
	odir.entryChanged(obase)
	odir.mtime = m.nowMs
	m.touch(odir)
	ndir.children[nbase] = src
	src.parent, src.name = ndir, nbase
	ndir.entryChanged(nbase)
	ndir.mtime = m.nowMs
	m.touch(ndir)
	return nil
}

// replaceable says whether rename may put src where dst is. As Go's os.Rename, it never
// replaces a directory.
func replaceable(src, dst *node) error {
	switch {
	case dst.dir:
		return fs.ErrExist
	case src.dir:
		return ErrNotDir
	}
	return nil
}

// isUnder says whether the path parts lie strictly below the path dir.
func isUnder(parts, dir []string) bool {
	if len(parts) <= len(dir) {
		return false
	}
	for i := range dir {
		if parts[i] != dir[i] {
			return false
		}
	}
	return true
}

// MkdirAll creates dir and any missing parents. New directories are empty and, until
// their parent is synced with SyncDir, not durable. perm is kept for Stat.
func (m *MemFS) MkdirAll(dir string, perm fs.FileMode) error {
	if err := m.before(Op{Kind: OpMkdirAll, Name: dir}); err != nil {
		return err
	}
	n := m.root
	for p := cleanPath(dir); p != ""; {
		var part string
		part, p, _ = strings.Cut(p, "/")
		c, ok := n.children[part]
		if !ok {
			c = newDir(m.nowMs)
			c.mode = fs.ModeDir | perm.Perm()
			m.link(n, part, c)
		}
		if !c.dir {
			return &fs.PathError{Op: "mkdir", Path: dir, Err: ErrNotDir}
		}
		n = c
	}
	return nil
}

// List returns the names of the entries in dir, sorted.
func (m *MemFS) List(dir string) ([]string, error) {
	n, err := m.lookup("readdir", dir)
	if err != nil {
		return nil, err
	}
	if !n.dir {
		return nil, &fs.PathError{Op: "readdir", Path: dir, Err: ErrNotDir}
	}
	return sortedNames(n.children), nil
}

// Stat describes the named file or directory. Size is the page cache size; ModTime is
// the SetNow time of the last change.
func (m *MemFS) Stat(name string) (fs.FileInfo, error) {
	n, err := m.lookup("stat", name)
	if err != nil {
		return nil, err
	}
	return fileInfo{name: baseName(name), size: n.data.len(), mode: n.mode, mtimeMs: n.mtime}, nil
}

// PathJoin joins elements with slashes (path.Join).
func (m *MemFS) PathJoin(elem ...string) string {
	if len(elem) == 2 && isCleanDir(elem[0]) && elem[1] != "" && isCleanPath(elem[1]) {
		return elem[0] + "/" + elem[1] // what path.Join gives, in one allocation
	}
	return path.Join(elem...)
}

// isCleanDir reports whether dir names a directory other than the root
// as path.Clean leaves it ("a/b" or "/a/b").
func isCleanDir(dir string) bool {
	p := strings.TrimPrefix(dir, "/")
	return p != "" && isCleanPath(p)
}

// sortedNames returns the keys of entries in sorted order.
func sortedNames(entries map[string]*node) []string {
	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
