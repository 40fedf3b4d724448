package kafkalog

import (
	"errors"
	"fmt"
)

// ErrSegmentExists means a roll to a base offset that is not above the active
// segment's, or that another segment already has (Kafka: KafkaException "Trying to roll
// a new log segment ... while it already exists").
var ErrSegmentExists = errors.New("kafkalog: segment already exists")

// RollReason says why a segment rolled.
type RollReason string

// Roll reasons, in the order Kafka checks them (LogSegment.shouldRoll).
const (
	RollNone        RollReason = ""
	RollSize        RollReason = "segment.bytes"
	RollTime        RollReason = "segment.ms"
	RollIndexFull   RollReason = "index full"
	RollOffsetRange RollReason = "offset overflow"
)

// shouldRoll is LogSegment.shouldRoll for an append of size bytes whose largest
// timestamp is maxTimestamp and last offset lastOffset:
//
//  1. size > segment.bytes − size of the append;
//  2. the segment is not empty and the incoming max timestamp (or, if the segment's
//     first batch has no timestamp, now) is more than segment.ms − jitter after the
//     first batch's max timestamp (or the segment's creation time);
//  3. either index is full;
//  4. lastOffset cannot be stored relative to the base offset.
func (s *Segment) shouldRoll(cfg *Config, size, maxTimestamp, lastOffset, nowMs int64, buf []byte) RollReason {
	switch {
	case s.size > cfg.SegmentBytes-size:
		return RollSize
	case s.size > 0 && s.timeWaitedForRoll(nowMs, maxTimestamp, buf) > cfg.SegmentMs-s.rollJitterMs:
		return RollTime
	case s.oidx.IsFull() || s.tidx.IsFull():
		return RollIndexFull
	case !s.canHold(lastOffset):
		return RollOffsetRange
	}
	return RollNone
}

// timeWaitedForRoll is LogSegment.timeWaitedForRoll: the incoming max timestamp minus
// the first batch's, or now minus the creation time if the first batch has none.
func (s *Segment) timeWaitedForRoll(nowMs, messageTimestamp int64, buf []byte) int64 {
	if first := s.firstTimestamp(buf); first >= 0 {
		return messageTimestamp - first
	}
	return nowMs - s.createdMs
}

// maybeRoll returns the segment the append described by info goes to, rolling first
// if the active segment should roll (UnifiedLog.maybeRoll). The new segment is named
// after the append's first offset.
func (l *Log) maybeRoll(size int64, info AppendInfo, nowMs int64) (*Segment, error) {
	a := l.active()
	if a.shouldRoll(&l.cfg, size, info.MaxTimestamp, info.LastOffset, nowMs, l.lookupBuf()) == RollNone {
		return a, nil
	}
	if err := l.roll(info.FirstOffset, nowMs); err != nil {
		return nil, err
	}
	return l.active(), nil
}

// Roll starts a new active segment at the LEO, even if nothing says it should roll
// (UnifiedLog.roll). Rolling an empty active segment does nothing.
func (l *Log) Roll(nowMs int64) error {
	if err := l.usable(); err != nil {
		return err
	}
	if a := l.active(); a.size == 0 && a.baseOffset == l.nextOffset {
		return nil
	}
	return l.fail(l.roll(l.nextOffset, nowMs))
}

// roll makes a new active segment at base (LocalLog.roll): the old active segment gets
// its final time-index entry and trimmed indexes, a new segment with preallocated
// indexes is created, and the old segments are flushed up to base (Kafka does this
// flush asynchronously right after the roll), which moves the recovery point to base.
// An empty active segment already at base is kept as it is.
func (l *Log) roll(base int64, nowMs int64) error {
	a := l.active()
	if base < a.baseOffset || (base == a.baseOffset && a.size > 0) {
		return fmt.Errorf("%w: roll to %d, active segment at %d (%d bytes) in %s", ErrSegmentExists, base, a.baseOffset, a.size, l.dir)
	}
	if base == a.baseOffset {
		// An empty active segment at the same offset: Kafka deletes it and creates a
		// new one; it has nothing to lose, so we keep it.
		return nil
	}
	if err := a.onBecomeInactive(); err != nil {
		return err
	}
	s, err := createSegment(l.fsys, l.dir, base, "", l.segmentParams(nowMs))
	if err != nil {
		return err
	}
	l.segments = append(l.segments, s)
	l.dirDirty = true
	// The old segment's trimmed indexes must become durable even if its data already
	// is (recovery point at base): an untrimmed, zero-padded index below the recovery
	// point would be trusted after a power cut.
	l.recoveryPoint = min(l.recoveryPoint, a.baseOffset)
	return l.Flush(base)
}
