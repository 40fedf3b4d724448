package kafkalog

import (
	"errors"
	"io/fs"
	"slices"

	"github.com/kafkalive/kafkalive/vfs"
)

// Clone returns an independent copy of the log on fsys, a copy of the file
// system the log is on holding its files under the same names (a
// [vfs.MemFS.Clone] of it, or a [vfs.Sub] of one): the segments with their
// indexes, the log start and end offsets, the recovery point, the leader
// epoch cache (writing its checkpoint on fsys), the files awaiting deletion,
// the config, the Parts and what they answered, the read statistics and the
// recovery report. rnd replaces the log's source of segment.jitter.ms
// ([WithRand]): the copy of that source its owner keeps, nil for a log opened
// without one. From then on the two logs change apart, and alike under the
// same calls.
//
// A clone costs a small copy per segment and nothing per byte or per index
// entry. What it shares, and why that is safe:
//   - the index entries, the epoch cache's entries, the Parts' refusals: the
//     clone and the original share the array of each, and neither writes in
//     place below the length it had at the clone (appends beyond it by the one
//     side that still has room, a cut below it makes the next append copy);
//   - the recovery report, which nothing changes after Open;
//   - the Parts functions, as they are.
//
// The clone's segment files are opened on fsys when it first uses them
// (read-write, as the log's own; a handle the log had lost to a crash or
// closed stays so in the clone), so that a clone that is never used costs no
// opening.
func (l *Log) Clone(fsys vfs.FS, rnd Int64Source) *Log {
	c := *l
	c.fsys, c.rnd, c.buf = fsys, rnd, nil
	c.segments = make([]*Segment, len(l.segments))
	clones := make([]segmentClone, len(l.segments)) // one allocation for all
	for i, s := range l.segments {
		c.segments[i] = s.cloneInto(&clones[i], fsys)
	}
	c.epochs = l.epochs.Clone(fsys)
	c.producers = l.producers.clone()
	c.scratch = nil
	c.pending = slices.Clone(l.pending)
	l.calls.Refused = slices.Clip(l.calls.Refused)
	c.calls.Refused = l.calls.Refused
	return &c
}

// segmentClone is a cloned segment with its indexes and files, allocated
// together.
type segmentClone struct {
	s              Segment
	oidx           OffsetIndex
	tidx           TimeIndex
	txn            TxnIndex
	log, o, ti, tx reopened
}

// cloneInto makes c a copy of s whose files are the ones of the same names
// on fsys, opened when first used, and returns the copy.
func (s *Segment) cloneInto(c *segmentClone, fsys vfs.FS) *Segment {
	*c = segmentClone{s: *s, oidx: *s.oidx, tidx: *s.tidx}
	c.log = reopen(fsys, &c.s, LogSuffix, s.log)
	c.o = reopen(fsys, &c.s, IndexSuffix, s.oidx.idx.f)
	c.ti = reopen(fsys, &c.s, TimeIndexSuffix, s.tidx.idx.f)
	c.s.fsys, c.s.log, c.s.oidx, c.s.tidx = fsys, &c.log, &c.oidx, &c.tidx
	c.oidx.idx.f, c.oidx.entries, c.oidx.shared = &c.o, s.oidx.share(), len(s.oidx.entries)
	c.tidx.idx.f, c.tidx.entries, c.tidx.shared = &c.ti, s.tidx.share(), len(s.tidx.entries)
	if s.txn != nil {
		c.txn = *s.txn
		c.tx = reopen(fsys, &c.s, TxnIndexSuffix, s.txn.f)
		c.txn.f, c.txn.entries, c.txn.shared = &c.tx, s.txn.share(), len(s.txn.entries)
		c.s.txn = &c.txn
	}
	return &c.s
}

// share returns the entries for a clone to hold, which neither it nor ix
// writes in place afterwards (see shrink).
func (ix *OffsetIndex) share() []offsetEntry {
	ix.shared = len(ix.entries)
	return slices.Clip(ix.entries)
}

// share returns the entries for a clone to hold, which neither it nor ti
// writes in place afterwards (see shrink).
func (ti *TimeIndex) share() []timeEntry {
	ti.shared = len(ti.entries)
	return slices.Clip(ti.entries)
}

// Clone returns an independent copy of the cache that writes its checkpoint
// to the same path on fsys, a copy of the file system it writes to now (an
// in-memory cache stays in memory, whatever fsys). The two share the array of
// entries, which neither writes in place below the length it had at the
// clone (see [Log.Clone]).
func (c *LeaderEpochCache) Clone(fsys vfs.FS) *LeaderEpochCache {
	out := &LeaderEpochCache{path: c.path, entries: slices.Clip(c.entries), shared: len(c.entries)}
	if c.fsys != nil {
		out.fsys = fsys
	}
	c.shared = len(c.entries)
	return out
}

// shrink returns s cut to n elements, where elements below shared may be
// read by a clone holding the same array: a cut below them leaves no room
// after the cut (the next append copies), and lowers shared to n.
func shrink[T any](s []T, n int, shared *int) []T {
	if n < *shared {
		*shared = n
		return s[:n:n]
	}
	return s[:n]
}

// reopened is a file of a cloned segment: the segment's file of that suffix
// on the clone's file system, opened read-write when first used (under the
// segment's name then: a renamed segment's files are renamed with it), named
// as the handle it stands for was. If that handle was closed or lost in a crash,
// every call fails as it would, and so it does if the clone's file system
// crashed ([vfs.Epocher]) before the file was first used, as a handle opened
// at the clone would have died.
type reopened struct {
	fsys   vfs.FS
	seg    *Segment
	suffix string
	name   string
	epoch  uint64 // fsys's at the clone
	f      vfs.File
	dead   error // fs.ErrClosed or vfs.ErrCrashed: the handle cloned could not be used
}

// reopen returns seg's file of suffix on fsys standing for handle f of the
// original: unopened, or dead as f is.
func reopen(fsys vfs.FS, seg *Segment, suffix string, f vfs.File) reopened {
	r := reopened{fsys: fsys, seg: seg, suffix: suffix, name: f.Name()}
	r.epoch, _ = vfs.EpochOf(fsys)
	if o, ok := f.(*reopened); ok && o.f == nil {
		r.dead = o.deadNow()
		return r
	}
	if _, err := f.ReadAt(nil, 0); errors.Is(err, fs.ErrClosed) {
		r.dead = pathErr(err)
	}
	return r
}

// pathErr returns the error inside err's *fs.PathError, or err.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// deadNow returns why an unopened r cannot be used, if it cannot: the
// handle it stands for could not, or its file system crashed since.
func (r *reopened) deadNow() error {
	if e, ok := vfs.EpochOf(r.fsys); r.dead == nil && ok && e != r.epoch {
		r.dead = vfs.ErrCrashed
	}
	return r.dead
}

// file returns the open file, opening it first if needed. op names the call
// for its error.
func (r *reopened) file(op string) (vfs.File, error) {
	if r.f != nil {
		return r.f, nil
	}
	if err := r.deadNow(); err != nil {
		return nil, &fs.PathError{Op: op, Path: r.name, Err: err}
	}
	// Stat first: OpenReadWrite would create a file that is missing.
	path := r.seg.path(r.suffix)
	if _, err := r.fsys.Stat(path); err != nil {
		return nil, err
	}
	f, err := r.fsys.OpenReadWrite(path)
	if err != nil {
		return nil, err
	}
	r.f = f
	return f, nil
}

// asNamed reports err, an error of the file opened under its current
// name, under the name of the handle r stands for, as that handle reports
// its errors (a segment's file renamed since it was opened keeps the name
// it was opened with).
func (r *reopened) asNamed(err error) error {
	if pe, ok := err.(*fs.PathError); ok && pe.Path != r.name {
		return &fs.PathError{Op: pe.Op, Path: r.name, Err: pe.Err}
	}
	return err
}

// Name returns the name of the handle the file stands for.
func (r *reopened) Name() string { return r.name }

// ReadAt reads the file.
func (r *reopened) ReadAt(p []byte, off int64) (int, error) {
	f, err := r.file("read")
	if err != nil {
		return 0, err
	}
	n, err := f.ReadAt(p, off)
	return n, r.asNamed(err)
}

// WriteAt writes the file.
func (r *reopened) WriteAt(p []byte, off int64) (int, error) {
	f, err := r.file("write")
	if err != nil {
		return 0, err
	}
	n, err := f.WriteAt(p, off)
	return n, r.asNamed(err)
}

// WriteAtNoCopy writes the file with [vfs.WriteAtNoCopy].
func (r *reopened) WriteAtNoCopy(p []byte, off int64) (int, error) {
	f, err := r.file("write")
	if err != nil {
		return 0, err
	}
	n, err := vfs.WriteAtNoCopy(f, p, off)
	return n, r.asNamed(err)
}

// HoldsAt asks the file with [vfs.HoldsAt].
func (r *reopened) HoldsAt(p []byte, off int64) bool {
	f, err := r.file("read")
	return err == nil && vfs.HoldsAt(f, p, off)
}

// Sync syncs the file.
func (r *reopened) Sync() error {
	f, err := r.file("sync")
	if err != nil {
		return err
	}
	return r.asNamed(f.Sync())
}

// Truncate truncates the file.
func (r *reopened) Truncate(size int64) error {
	f, err := r.file("truncate")
	if err != nil {
		return err
	}
	return r.asNamed(f.Truncate(size))
}

// Size returns the file's size.
func (r *reopened) Size() (int64, error) {
	f, err := r.file("stat")
	if err != nil {
		return 0, err
	}
	n, err := f.Size()
	return n, r.asNamed(err)
}

// Close closes the file (opening it first, so that a second Close fails as
// it would on the handle cloned).
func (r *reopened) Close() error {
	f, err := r.file("close")
	if err != nil {
		return err
	}
	return f.Close()
}
