package replica

import (
	"fmt"
	"slices"
)

// EpochCache is the leader epoch cache of one replica: ordered (epoch, start
// offset) entries, strictly increasing in both. It follows Kafka's
// LeaderEpochFileCache. The zero value is an empty cache.
// It does no I/O; persisting it is its owner's business.
type EpochCache struct {
	entries []EpochEntry
}

// NewEpochCache returns a cache holding entries, which must be strictly
// increasing in epoch and start offset (a reloaded checkpoint).
func NewEpochCache(entries []EpochEntry) (*EpochCache, error) {
	for i, e := range entries {
		if e.Epoch < 0 || e.StartOffset < 0 {
			return nil, fmt.Errorf("%w: epoch cache entry %d: (%d,%d) is negative", ErrInvalidConfig, i, e.Epoch, e.StartOffset)
		}
		if i > 0 && (e.Epoch <= entries[i-1].Epoch || e.StartOffset <= entries[i-1].StartOffset) {
			return nil, fmt.Errorf("%w: epoch cache entry %d: (%d,%d) does not follow (%d,%d)", ErrInvalidConfig,
				i, e.Epoch, e.StartOffset, entries[i-1].Epoch, entries[i-1].StartOffset)
		}
	}
	return &EpochCache{entries: slices.Clone(entries)}, nil
}

// Entries returns a copy of the entries, oldest first.
func (c *EpochCache) Entries() []EpochEntry { return slices.Clone(c.entries) }

// Latest returns the newest entry, and false if the cache is empty.
func (c *EpochCache) Latest() (EpochEntry, bool) {
	if len(c.entries) == 0 {
		return EpochEntry{}, false
	}
	return c.entries[len(c.entries)-1], true
}

// Assign records that epoch starts at startOffset. It does nothing if epoch is
// the latest epoch and startOffset is not below its start. Otherwise it first
// removes, newest first, every entry whose epoch is ≥ epoch or whose start is
// ≥ startOffset, so the cache stays monotonic, then adds the entry.
// A negative epoch or offset is refused.
func (c *EpochCache) Assign(epoch int32, startOffset int64) error {
	if epoch < 0 || startOffset < 0 {
		return fmt.Errorf("%w: assign epoch %d at offset %d: negative", ErrInvalidConfig, epoch, startOffset)
	}
	if last, ok := c.Latest(); ok && last.Epoch == epoch && startOffset >= last.StartOffset {
		return nil
	}
	n := len(c.entries)
	for n > 0 && (c.entries[n-1].Epoch >= epoch || c.entries[n-1].StartOffset >= startOffset) {
		n--
	}
	c.entries = append(c.entries[:n], EpochEntry{Epoch: epoch, StartOffset: startOffset})
	return nil
}

// TruncateFromEnd removes every entry starting at or after endOffset; the log
// was truncated to endOffset.
func (c *EpochCache) TruncateFromEnd(endOffset int64) {
	n := len(c.entries)
	for n > 0 && c.entries[n-1].StartOffset >= endOffset {
		n--
	}
	c.entries = c.entries[:n]
}

// TruncateFromStart removes every entry starting at or before startOffset and
// puts the last removed epoch back starting at startOffset; the log start
// moved to startOffset.
func (c *EpochCache) TruncateFromStart(startOffset int64) {
	n := 0
	for n < len(c.entries) && c.entries[n].StartOffset <= startOffset {
		n++
	}
	if n == 0 {
		return
	}
	kept := EpochEntry{Epoch: c.entries[n-1].Epoch, StartOffset: startOffset}
	c.entries = append([]EpochEntry{kept}, c.entries[n:]...)
}

// EndOffsetFor answers OffsetsForLeaderEpoch for epoch with the 2.1+ rules
// (LeaderEpochFileCache.endOffsetFor), given the log end offset leo: the largest cached epoch ≤ epoch and
// the start of the next larger one (leo for the latest epoch). ok is false
// when the answer is undefined.
func (c *EpochCache) EndOffsetFor(epoch int32, leo int64) (foundEpoch int32, endOffset int64, ok bool) {
	return endOffsetFor(c.entries, leo, epoch, false)
}

// EpochForOffset returns the epoch whose range holds offset, and false if the
// offset lies before the first entry.
func (c *EpochCache) EpochForOffset(offset int64) (int32, bool) {
	for i := len(c.entries) - 1; i >= 0; i-- {
		if c.entries[i].StartOffset <= offset {
			return c.entries[i].Epoch, true
		}
	}
	return 0, false
}

// endOffsetFor is LeaderEpochFileCache.endOffsetFor over entries. before21 selects the pre-2.1 answer
// (undefined) for an epoch older than every entry.
func endOffsetFor(entries []EpochEntry, leo int64, epoch int32, before21 bool) (int32, int64, bool) {
	if epoch < 0 || len(entries) == 0 {
		return NoEpoch, UndefinedOffset, false
	}
	if entries[len(entries)-1].Epoch == epoch {
		return epoch, leo, true
	}
	next, _ := slices.BinarySearchFunc(entries, epoch, func(e EpochEntry, t int32) int {
		if e.Epoch <= t {
			return -1
		}
		return 1
	})
	switch {
	case next == len(entries):
		return NoEpoch, UndefinedOffset, false
	case next == 0 && before21:
		return NoEpoch, UndefinedOffset, false
	case next == 0:
		return epoch, entries[0].StartOffset, true
	}
	return entries[next-1].Epoch, entries[next].StartOffset, true
}
