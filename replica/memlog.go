package replica

import (
	"fmt"
	"slices"
)

// entryOverheadBytes is the per-record size [MemLog] adds to key and value
// when it measures a read against maxBytes: roughly a v2 record's varint
// header plus its share of a one-record batch header would be more, but a
// small constant keeps the test arithmetic readable.
const entryOverheadBytes = 14

// MemLog is an in-memory [Log] with an [EpochCache] and a simulated page
// cache: offsets below [MemLog.RecoveryPoint] are "on disk", the rest only in
// the page cache until [MemLog.Flush]. [MemLog.PowerCut] drops what was not
// flushed, as a real power cut would (only fsynced bytes survive); the epoch cache is fsynced on
// every change in Kafka, so it survives and is trimmed to the new end, as
// Kafka does when it loads the log. The zero value is an empty log.
type MemLog struct {
	// OnlyNewerEpochs makes appends record an entry's leader epoch only
	// when it is newer than the latest cached, at or after its start, as
	// Kafka 0.11 to 2.0 did ([RuleSet.EpochCacheTruncatesOnAppend] false);
	// without it every epoch is assigned ([EpochCache.Assign]), as from 2.1.
	OnlyNewerEpochs bool

	start   int64
	entries []Entry
	// shared is how many entries others may hold in the same array (Read's
	// answers, a Clone): never written in place.
	shared        int
	cache         EpochCache
	recoveryPoint int64
}

// NewMemLog returns an empty log.
func NewMemLog() *MemLog { return &MemLog{} }

// LogStartOffset implements [Log].
func (l *MemLog) LogStartOffset() int64 { return l.start }

// LogEndOffset implements [Log].
func (l *MemLog) LogEndOffset() int64 { return l.start + int64(len(l.entries)) }

// AppendAsLeader implements [Log].
func (l *MemLog) AppendAsLeader(records []Record, leaderEpoch int32) (int64, error) {
	base := l.LogEndOffset()
	entries := make([]Entry, len(records))
	for i, r := range records {
		entries[i] = Entry{Offset: base + int64(i), LeaderEpoch: leaderEpoch, Key: r.Key, Value: r.Value, Producer: r.Producer}
	}
	if len(entries) > 0 {
		entries[0].BatchStart = true // the records are one batch
	}
	return base, l.AppendAsFollower(entries)
}

// AppendAsFollower implements [Log].
func (l *MemLog) AppendAsFollower(entries []Entry) error {
	leo := l.LogEndOffset()
	for i, e := range entries {
		if e.Count != 0 {
			return fmt.Errorf("memlog: append: entry %d is an undecoded batch of %d records at %d: a MemLog keeps records", i, e.Count, e.Offset)
		}
		if e.Offset != leo+int64(i) {
			return fmt.Errorf("memlog: append: entry %d has offset %d, want %d", i, e.Offset, leo+int64(i))
		}
	}
	for _, e := range entries {
		last, ok := l.cache.Latest()
		older := ok && (e.LeaderEpoch <= last.Epoch || e.Offset < last.StartOffset)
		if e.LeaderEpoch >= 0 && !(l.OnlyNewerEpochs && older) {
			if err := l.cache.Assign(e.LeaderEpoch, e.Offset); err != nil {
				return err
			}
		}
		l.entries = append(l.entries, e)
	}
	return nil
}

// Read implements [Log]. An entry counts as [entryOverheadBytes] plus the
// length of its key and value.
func (l *MemLog) Read(from int64, maxBytes int) ([]Entry, error) {
	if from < l.start || from > l.LogEndOffset() {
		return nil, fmt.Errorf("memlog: read at %d outside [%d, %d]", from, l.start, l.LogEndOffset())
	}
	rest := l.entries[from-l.start:]
	size, n := 0, 0
	for n < len(rest) {
		size += entryOverheadBytes + len(rest[n].Key) + len(rest[n].Value)
		if n > 0 && size > maxBytes {
			break
		}
		n++
	}
	// the caller keeps them (a fetch answer in flight): a truncation must not
	// let a later append overwrite them
	l.shared = max(l.shared, int(from-l.start)+n)
	return rest[:n:n], nil
}

// TruncateTo implements [Log].
func (l *MemLog) TruncateTo(offset int64) error {
	if offset < l.start {
		return fmt.Errorf("memlog: truncate to %d below log start %d", offset, l.start)
	}
	if offset > l.LogEndOffset() {
		return nil
	}
	n := int(offset - l.start)
	if n < l.shared {
		// entries others hold stay as they are: the next append copies
		l.entries, l.shared = l.entries[:n:n], n
	} else {
		l.entries = l.entries[:n]
	}
	l.cache.TruncateFromEnd(offset)
	l.recoveryPoint = min(l.recoveryPoint, offset)
	return nil
}

// TruncateFullyAndStartAt implements [Log].
func (l *MemLog) TruncateFullyAndStartAt(offset int64) error {
	if offset < 0 {
		return fmt.Errorf("memlog: start at negative offset %d", offset)
	}
	l.start, l.entries, l.shared, l.recoveryPoint = offset, nil, 0, offset
	l.cache = EpochCache{}
	return nil
}

// AssignEpoch implements [Log].
func (l *MemLog) AssignEpoch(epoch int32, startOffset int64) error {
	return l.cache.Assign(epoch, startOffset)
}

// Epochs implements [Log].
func (l *MemLog) Epochs() []EpochEntry { return l.cache.entries }

// Entries returns a copy of every entry, oldest first.
func (l *MemLog) Entries() []Entry { return slices.Clone(l.entries) }

// RecoveryPoint is the flushed prefix: offsets below it are on disk.
func (l *MemLog) RecoveryPoint() int64 { return max(l.recoveryPoint, l.start) }

// Flush writes every entry to "disk" (an fsync, or OS writeback).
func (l *MemLog) Flush() { l.recoveryPoint = l.LogEndOffset() }

// PowerCut drops every entry that was only in the page cache and trims the
// epoch cache to the new log end.
func (l *MemLog) PowerCut() {
	_ = l.TruncateTo(l.RecoveryPoint())
}
