package vfs

import (
	"fmt"
	"io/fs"
)

// OpKind names a mutating MemFS operation, as the fault hook sees it.
type OpKind uint8

// The mutating operations. Reads, Stat, List, Size and Close are not operations the hook
// sees.
const (
	OpCreate    OpKind = iota + 1 // Create, or OpenReadWrite of a missing file
	OpWrite                       // File.WriteAt: Offset and Len
	OpSync                        // File.Sync
	OpSyncDir                     // SyncDir
	OpTruncate                    // File.Truncate: Offset is the new size
	OpRename                      // Rename: Name to NewName
	OpRemove                      // Remove
	OpRemoveAll                   // RemoveAll
	OpMkdirAll                    // MkdirAll

	numOpKinds = iota + 1 // one past the last kind
)

var opKindNames = [...]string{"?", "create", "write", "sync", "syncdir", "truncate", "rename", "remove", "removeall", "mkdirall"}

// String returns the operation's lower-case name, e.g. "write".
func (k OpKind) String() string {
	if int(k) < len(opKindNames) {
		return opKindNames[k]
	}
	return fmt.Sprintf("OpKind(%d)", k)
}

// Op is a mutating operation about to happen on a MemFS.
type Op struct {
	// Seq numbers the MemFS's mutating operations from 1, this one included, whether or
	// not they succeed.
	Seq int64
	// KindSeq numbers the operations of this Kind from 1: Kind == OpSync && KindSeq == 5
	// is the fifth Sync.
	KindSeq int64
	Kind    OpKind
	Name    string // the name the file was opened with, or the path operated on
	NewName string // Rename's target
	Offset  int64  // OpWrite: where; OpTruncate: the new size
	Len     int64  // OpWrite: how many bytes
}

// String describes the operation, e.g. "#7 write a.log [100,+12)".
func (o Op) String() string {
	switch o.Kind {
	case OpWrite:
		return fmt.Sprintf("#%d %s %s [%d,+%d)", o.Seq, o.Kind, o.Name, o.Offset, o.Len)
	case OpTruncate:
		return fmt.Sprintf("#%d %s %s %d", o.Seq, o.Kind, o.Name, o.Offset)
	case OpRename:
		return fmt.Sprintf("#%d %s %s %s", o.Seq, o.Kind, o.Name, o.NewName)
	}
	return fmt.Sprintf("#%d %s %s", o.Seq, o.Kind, o.Name)
}

// SetHook installs a function called before every mutating operation (nil removes it).
// When it returns an error, the operation fails with that error (wrapped in an
// *fs.PathError) and changes nothing. The hook may call Crash or PowerCut: then the
// operation fails with ErrCrashed and changes nothing, as if the process died just
// before it. This is how a test cuts the power at the Nth write or sync.
func (m *MemFS) SetHook(hook func(Op) error) { m.hook = hook }

// OpCount returns how many mutating operations the MemFS has seen.
func (m *MemFS) OpCount() int64 { return m.ops }

// OpCountOf returns how many mutating operations of kind the MemFS has seen.
func (m *MemFS) OpCountOf(kind OpKind) int64 {
	if int(kind) >= len(m.kindOps) {
		return 0
	}
	return m.kindOps[kind]
}

// before counts op and runs the hook. If the hook crashed the process (Crash or
// PowerCut), the operation fails with ErrCrashed: it never happened.
func (m *MemFS) before(op Op) error {
	m.ops++
	m.version++
	m.kindOps[op.Kind]++
	op.Seq, op.KindSeq = m.ops, m.kindOps[op.Kind]
	if m.hook == nil {
		return nil
	}
	epoch := m.epoch
	err := m.hook(op)
	if err == nil && m.epoch != epoch {
		err = ErrCrashed
	}
	if err != nil {
		return &fs.PathError{Op: op.Kind.String(), Path: op.Name, Err: err}
	}
	return nil
}

// FailAfter returns a hook that lets the first n operations of kind succeed and fails
// every later one with err: a disk that dies after the nth write, say.
func FailAfter(kind OpKind, n int64, err error) func(Op) error {
	var seen int64
	return func(op Op) error {
		if op.Kind != kind {
			return nil
		}
		seen++
		if seen > n {
			return err
		}
		return nil
	}
}
