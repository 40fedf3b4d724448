package kafkalog

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"

	"github.com/kafkalive/kafkalive/vfs"
)

// ErrInvalidEpoch means a leader epoch cache assignment with a negative epoch or
// start offset (Kafka throws IllegalArgumentException).
var ErrInvalidEpoch = errors.New("kafkalog: invalid leader epoch entry")

// UndefinedEpoch and UndefinedEpochOffset are the "unknown" answers of
// EndOffsetFor (UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET).
const (
	UndefinedEpoch       = -1
	UndefinedEpochOffset = -1
)

// EpochEntry says that leader epoch Epoch began at offset StartOffset: the first
// batch appended by that epoch's leader.
type EpochEntry struct {
	// Epoch is the leader epoch.
	Epoch int32
	// StartOffset is the first offset written in that epoch.
	StartOffset int64
}

// LeaderEpochCache is a partition's leader epoch cache (LeaderEpochFileCache):
// epochs in increasing order with increasing start offsets. Every change is
// written to its leader-epoch-checkpoint file at once (unless it is an in-memory
// cache). It is not safe for concurrent use.
type LeaderEpochCache struct {
	fsys    vfs.FS
	path    string
	entries []EpochEntry
	// shared is how many entries a clone may hold in the same array: never
	// written in place (shrink).
	shared int
}

// NewLeaderEpochCache returns an in-memory cache holding entries, applied in order
// with Assign's rules (so non-monotonic entries are dropped as Kafka does on load).
// Entries with a negative epoch or offset are skipped.
func NewLeaderEpochCache(entries []EpochEntry) *LeaderEpochCache {
	c := &LeaderEpochCache{}
	for _, e := range entries {
		if e.Epoch >= 0 && e.StartOffset >= 0 {
			c.assign(e)
		}
	}
	return c
}

// OpenLeaderEpochCache loads the cache from the leader-epoch-checkpoint file at
// path (a missing file is an empty cache) and keeps writing it there.
func OpenLeaderEpochCache(fsys vfs.FS, path string) (*LeaderEpochCache, error) {
	entries, err := ReadLeaderEpochCheckpoint(fsys, path)
	if err != nil {
		return nil, err
	}
	c := NewLeaderEpochCache(entries)
	c.fsys, c.path = fsys, path
	return c, nil
}

// Entries returns a copy of the entries, oldest epoch first.
func (c *LeaderEpochCache) Entries() []EpochEntry { return append([]EpochEntry(nil), c.entries...) }

// Len returns how many entries the cache holds; At(i) is entry i, oldest
// first: Entries without the copy.
func (c *LeaderEpochCache) Len() int { return len(c.entries) }

// At returns entry i (0 <= i < Len), oldest first.
func (c *LeaderEpochCache) At(i int) EpochEntry { return c.entries[i] }

// LatestEpoch returns the newest epoch, if any.
func (c *LeaderEpochCache) LatestEpoch() (int32, bool) {
	if len(c.entries) == 0 {
		return 0, false
	}
	return c.entries[len(c.entries)-1].Epoch, true
}

// LatestEntry returns the newest entry, if any.
func (c *LeaderEpochCache) LatestEntry() (EpochEntry, bool) {
	if len(c.entries) == 0 {
		return EpochEntry{}, false
	}
	return c.entries[len(c.entries)-1], true
}

// Assign records that epoch starts at startOffset. It does nothing if epoch is
// already the latest and startOffset is not below its start. Otherwise it first
// removes, newest first, every entry whose epoch ≥ epoch or start ≥ startOffset
// (non-monotonic entries), then adds the new one and writes the checkpoint.
func (c *LeaderEpochCache) Assign(epoch int32, startOffset int64) error {
	if epoch < 0 || startOffset < 0 {
		return fmt.Errorf("%w: epoch %d, start offset %d", ErrInvalidEpoch, epoch, startOffset)
	}
	if !c.assign(EpochEntry{Epoch: epoch, StartOffset: startOffset}) {
		return nil
	}
	return c.flush()
}

func (c *LeaderEpochCache) assign(e EpochEntry) bool {
	if last, ok := c.LatestEntry(); ok && last.Epoch == e.Epoch && e.StartOffset >= last.StartOffset {
		return false
	}
	n := len(c.entries)
	for n > 0 && (c.entries[n-1].Epoch >= e.Epoch || c.entries[n-1].StartOffset >= e.StartOffset) {
		n--
	}
	c.entries = append(shrink(c.entries, n, &c.shared), e)
	return true
}

// TruncateFromEnd removes every entry starting at or after endOffset (after the
// log is truncated to endOffset).
func (c *LeaderEpochCache) TruncateFromEnd(endOffset int64) error {
	last, ok := c.LatestEntry()
	if endOffset < 0 || !ok || last.StartOffset < endOffset {
		return nil
	}
	n := len(c.entries)
	for n > 0 && c.entries[n-1].StartOffset >= endOffset {
		n--
	}
	c.entries = shrink(c.entries, n, &c.shared)
	return c.flush()
}

// TruncateFromStart removes every entry starting at or before startOffset and
// puts back the last removed epoch as starting at startOffset (after the log
// start offset moves to startOffset). Nothing changes if the first entry starts
// at or after startOffset.
func (c *LeaderEpochCache) TruncateFromStart(startOffset int64) error {
	if startOffset < 0 || len(c.entries) == 0 || c.entries[0].StartOffset >= startOffset {
		return nil
	}
	i := 0
	for i < len(c.entries) && c.entries[i].StartOffset <= startOffset {
		i++
	}
	kept := EpochEntry{Epoch: c.entries[i-1].Epoch, StartOffset: startOffset}
	c.entries, c.shared = append([]EpochEntry{kept}, c.entries[i:]...), 0
	return c.flush()
}

// EndOffsetFor answers OffsetsForLeaderEpoch for epoch: the end offset of that
// epoch on this replica and the epoch it belongs to. The latest epoch ends at
// logEndOffset; an older one at the start of the next higher epoch, reported with
// the largest known epoch ≤ epoch (or epoch itself if it is below every known
// epoch); an epoch above every known one, or UndefinedEpoch, gives (-1, -1).
//
// This is the rule of Kafka 2.1+ (LeaderEpochFileCache.endOffsetFor). KIP-279 (2.0)
// added the epoch to the answer, but 2.0 still answered (-1, -1) for an epoch
// below every known one. Kafka 0.11–1.1 (KIP-101) answered only the offset:
// the latest epoch → LEO, an epoch below the first known epoch or with no
// higher epoch → -1, otherwise the start of the first higher epoch; see
// EndOffsetForKIP101.
func (c *LeaderEpochCache) EndOffsetFor(epoch int32, logEndOffset int64) (int32, int64) {
	if epoch == UndefinedEpoch {
		return UndefinedEpoch, UndefinedEpochOffset
	}
	if latest, ok := c.LatestEpoch(); ok && latest == epoch {
		return epoch, logEndOffset
	}
	higher := -1
	for i, e := range c.entries {
		if e.Epoch > epoch {
			higher = i
			break
		}
	}
	if higher < 0 {
		return UndefinedEpoch, UndefinedEpochOffset
	}
	if higher == 0 {
		return epoch, c.entries[0].StartOffset
	}
	return c.entries[higher-1].Epoch, c.entries[higher].StartOffset
}

// EndOffsetForKIP101 is the pre-KIP-279 answer (Kafka 0.11–1.1): only an offset,
// -1 when unknown, and no floor epoch, which is what let a replica truncate to an
// offset of a different epoch (the KIP-279 scenario).
func (c *LeaderEpochCache) EndOffsetForKIP101(epoch int32, logEndOffset int64) int64 {
	if latest, ok := c.LatestEpoch(); ok && latest == epoch {
		return logEndOffset
	}
	if len(c.entries) == 0 || epoch < c.entries[0].Epoch {
		return UndefinedEpochOffset
	}
	for _, e := range c.entries {
		if e.Epoch > epoch {
			return e.StartOffset
		}
	}
	return UndefinedEpochOffset
}

// EpochForOffset returns the epoch that offset was written in: the epoch of the
// last entry starting at or before offset; false if offset is before the first.
func (c *LeaderEpochCache) EpochForOffset(offset int64) (int32, bool) {
	epoch, found := int32(0), false
	for _, e := range c.entries {
		if e.StartOffset > offset {
			break
		}
		epoch, found = e.Epoch, true
	}
	return epoch, found
}

// flush writes the checkpoint file, if the cache has one.
func (c *LeaderEpochCache) flush() error {
	if c.fsys == nil {
		return nil
	}
	return WriteLeaderEpochCheckpoint(c.fsys, c.path, c.entries)
}

// DecodeLeaderEpochCheckpoint parses the text of a leader-epoch-checkpoint file
// (version 0, entries "epoch startOffset"), in file order.
func DecodeLeaderEpochCheckpoint(b []byte) ([]EpochEntry, error) {
	var out []EpochEntry
	err := checkpointLines(b, LeaderEpochCheckpointVersion, func(f []string) error {
		if len(f) != 2 {
			return fmt.Errorf("%d fields, want 2", len(f))
		}
		epoch, err := strconv.ParseInt(f[0], 10, 32)
		if err != nil {
			return err
		}
		start, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return err
		}
		out = append(out, EpochEntry{Epoch: int32(epoch), StartOffset: start})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AppendLeaderEpochCheckpoint appends the text of a leader-epoch-checkpoint file.
func AppendLeaderEpochCheckpoint(dst []byte, entries []EpochEntry) []byte {
	dst = appendCheckpointHeader(dst, LeaderEpochCheckpointVersion, len(entries))
	for _, e := range entries {
		dst = strconv.AppendInt(dst, int64(e.Epoch), 10)
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, e.StartOffset, 10)
		dst = append(dst, '\n')
	}
	return dst
}

// ReadLeaderEpochCheckpoint reads a leader-epoch-checkpoint file; missing is empty.
func ReadLeaderEpochCheckpoint(fsys vfs.FS, path string) ([]EpochEntry, error) {
	b, err := readWholeFile(fsys, path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	entries, err := DecodeLeaderEpochCheckpoint(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return entries, nil
}

// WriteLeaderEpochCheckpoint replaces the leader-epoch-checkpoint at path, atomically.
func WriteLeaderEpochCheckpoint(fsys vfs.FS, path string, entries []EpochEntry) error {
	return WriteFileAtomic(fsys, path, AppendLeaderEpochCheckpoint(nil, entries))
}
