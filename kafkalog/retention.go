package kafkalog

import (
	"errors"
	"io/fs"
)

// DeletionReason says which retention rule deleted segments.
type DeletionReason string

// Deletion reasons (Kafka's SegmentDeletionReason).
const (
	DeletedByStartOffset    DeletionReason = "log start offset"
	DeletedByRetentionBytes DeletionReason = "retention.bytes"
	DeletedByRetentionMs    DeletionReason = "retention.ms"
	// DeletedByPart is a deletion decided by Parts.DeletableSegments.
	DeletedByPart DeletionReason = "the retention rule given in Parts"
)

// Deletion is one round of segments deleted by retention.
type Deletion struct {
	// Reason is the rule that deleted them.
	Reason DeletionReason
	// Segments are the base offsets of the deleted segments.
	Segments []int64
}

// DeleteOldSegments applies retention (UnifiedLog.deleteOldSegments, Kafka 3.x/4.0):
// with cleanup.policy containing "delete", segments wholly below the log start offset,
// then by retention.bytes, then by retention.ms; with "compact" alone only the first.
// Each rule walks the segments oldest first and stops at the first segment it may not
// delete; a segment may only go if it lies wholly below highWatermark (the caller's
// high watermark; the LEO for a single replica) and is not the empty active segment.
// If every segment goes, a new empty active segment is first rolled at the LEO. The log
// start offset moves to the first remaining segment and deleted segments' files become
// .deleted, removed by DeleteExpiredFiles after file.delete.delay.ms.
func (l *Log) DeleteOldSegments(highWatermark, nowMs int64) ([]Deletion, error) {
	if err := l.usable(); err != nil {
		return nil, err
	}
	if l.parts.DeletableSegments != nil {
		if segs, ok := l.deletableWithPart(highWatermark, nowMs); ok {
			if len(segs) == 0 {
				return nil, nil
			}
			bases, err := l.deleteSegments(segs, nowMs)
			var out []Deletion
			if len(bases) > 0 {
				out = append(out, Deletion{Reason: DeletedByPart, Segments: bases})
			}
			return out, err
		}
	}
	rules := []retentionRule{{DeletedByStartOffset, l.startOffsetBreached()}}
	if l.cfg.Delete() {
		rules = append(rules,
			retentionRule{DeletedByRetentionBytes, nil},
			retentionRule{DeletedByRetentionMs, l.retentionMsBreached(nowMs)})
	}
	var out []Deletion
	for _, r := range rules {
		pred := r.pred
		if r.reason == DeletedByRetentionBytes {
			pred = l.retentionBytesBreached() // sized after the rules before it
		}
		if pred == nil {
			continue
		}
		segs := l.deletableSegments(highWatermark, pred)
		if len(segs) == 0 {
			continue
		}
		bases, err := l.deleteSegments(segs, nowMs)
		if len(bases) > 0 {
			out = append(out, Deletion{Reason: r.reason, Segments: bases})
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// NothingToDelete says whether DeleteOldSegments and DeleteExpiredFiles
// would find nothing to do, whatever the time and the high watermark: the
// log is usable, holds one segment and it is empty (UnifiedLog never
// deletes the last segment when it is empty), no file waits for its
// deletion, and no part of the caller's decides what goes. A host checking
// retention on thousands of idle logs can pass over these.
func (l *Log) NothingToDelete() bool {
	return l.usable() == nil && l.parts.DeletableSegments == nil &&
		len(l.segments) == 1 && l.segments[0].size == 0 && len(l.pending) == 0
}

// retentionRule is a reason and its predicate over a segment and the next one (nil
// for the last); a nil predicate means the rule is off.
type retentionRule struct {
	reason DeletionReason
	pred   func(s, next *Segment) bool
}

// deletableSegments is UnifiedLog.deletableSegments.
func (l *Log) deletableSegments(highWatermark int64, pred func(s, next *Segment) bool) []*Segment {
	var out []*Segment
	for i, s := range l.segments {
		var next *Segment
		if i+1 < len(l.segments) {
			next = l.segments[i+1]
		}
		lastAndEmpty := next == nil && s.size == 0
		if highWatermark < l.upperBound(i) || !pred(s, next) || lastAndEmpty {
			break
		}
		out = append(out, s)
	}
	return out
}

// deleteSegments is UnifiedLog.deleteSegments: roll first if every segment
// goes. An error takes the log offline (fail).
func (l *Log) deleteSegments(segs []*Segment, nowMs int64) ([]int64, error) {
	if len(segs) == len(l.segments) {
		if err := l.roll(l.nextOffset, nowMs); err != nil {
			return nil, l.fail(err)
		}
		if l.active() == segs[len(segs)-1] {
			segs = segs[:len(segs)-1]
		}
	}
	bases := make([]int64, len(segs))
	for i, s := range segs {
		bases[i] = s.baseOffset
	}
	l.removeSegments(segs)
	if first := l.segments[0].baseOffset; first > l.logStartOffset {
		if err := l.incrementLogStartOffset(first); err != nil {
			return bases, l.fail(err)
		}
	}
	return bases, l.fail(l.deleteSegmentFiles(segs, nowMs))
}

// startOffsetBreached deletes a segment when the next one starts at or below the log
// start offset.
func (l *Log) startOffsetBreached() func(s, next *Segment) bool {
	return func(_, next *Segment) bool { return next != nil && next.baseOffset <= l.logStartOffset }
}

// retentionBytesBreached deletes the oldest segments while the log stays at least
// retention.bytes large without them (whole segments only).
func (l *Log) retentionBytesBreached() func(s, next *Segment) bool {
	size := l.Size()
	if l.cfg.RetentionBytes < 0 || size < l.cfg.RetentionBytes {
		return nil
	}
	diff := size - l.cfg.RetentionBytes
	return func(s, _ *Segment) bool {
		if diff-s.size >= 0 {
			diff -= s.size
			return true
		}
		return false
	}
}

// retentionMsBreached deletes segments whose largest timestamp is more than
// retention.ms before now (strictly).
func (l *Log) retentionMsBreached(nowMs int64) func(s, next *Segment) bool {
	if l.cfg.RetentionMs < 0 {
		return nil
	}
	return func(s, _ *Segment) bool { return nowMs-s.largestTimestamp() > l.cfg.RetentionMs }
}

// pendingDelete is a segment renamed to .deleted, to be removed at dueMs.
type pendingDelete struct {
	base  int64
	dueMs int64
}

// DeleteExpiredFiles removes the .deleted files whose file.delete.delay.ms has passed
// (Kafka's scheduled "delete-file" task). It returns how many segments it removed.
func (l *Log) DeleteExpiredFiles(nowMs int64) (int, error) {
	if err := l.usable(); err != nil {
		return 0, err
	}
	n := 0
	kept := l.pending[:0]
	var errs []error
	for _, p := range l.pending {
		if p.dueMs > nowMs {
			kept = append(kept, p)
			continue
		}
		for _, suf := range []string{LogSuffix, IndexSuffix, TimeIndexSuffix, TxnIndexSuffix} {
			name := l.fsys.PathJoin(l.dir, SegmentFileName(p.base, suf)+DeletedSuffix)
			if err := l.fsys.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
		l.dirDirty = true
		n++
	}
	l.pending = kept
	return n, l.fail(errors.Join(errs...))
}

// PendingDeletes returns how many deleted segments wait for file.delete.delay.ms.
func (l *Log) PendingDeletes() int { return len(l.pending) }

// deleteSegmentFiles removes segs from the log's view and renames their files to
// .deleted, to be removed by DeleteExpiredFiles after file.delete.delay.ms
// (LocalLog.deleteSegmentFiles). The segments' handles are closed.
func (l *Log) deleteSegmentFiles(segs []*Segment, nowMs int64) error {
	var errs []error
	for _, s := range segs {
		s.closeHandles()
		if err := s.renameSuffix(DeletedSuffix); err != nil {
			errs = append(errs, err)
			continue
		}
		l.pending = append(l.pending, pendingDelete{base: s.baseOffset, dueMs: nowMs + l.cfg.FileDeleteDelayMs})
	}
	l.dirDirty = true
	return errors.Join(errs...)
}

// removeSegments drops segs (a set of the log's segments) from l.segments.
func (l *Log) removeSegments(segs []*Segment) {
	drop := make(map[*Segment]bool, len(segs))
	for _, s := range segs {
		drop[s] = true
	}
	kept := l.segments[:0]
	for _, s := range l.segments {
		if !drop[s] {
			kept = append(kept, s)
		}
	}
	clear(l.segments[len(kept):])
	l.segments = kept
}
