package replicalog

import (
	"iter"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// Kafka returns the partition log underneath: its segments, configuration,
// recovery report and read statistics.
func (r *Log) Kafka() *kafkalog.Log { return r.log }

// Mirror returns the log's mirror of its records, for reading. Its
// entries must not be changed.
func (r *Log) Mirror() *Mirror { return &r.m }

// Gen counts the changes that cut or rewrote records (truncations, a
// rebuild, retention moving the start), so that a reader that remembers how
// far it compared this log knows when to look again.
func (r *Log) Gen() int { return r.gen }

// Truncations counts the truncations that cut something and the full
// truncations (LogManager checkpoints the recovery points after them).
func (r *Log) Truncations() int { return r.truncations }

// Damaged reports whether some offsets of the log did not decode when the
// mirror was rebuilt ([Log.DamageFrom]).
func (r *Log) Damaged() bool { return len(r.damaged) > 0 }

// SegmentOffsets yields, per segment (by base offset), the offsets the
// mirror holds in it, segment after segment.
func (r *Log) SegmentOffsets() iter.Seq2[int64, iter.Seq[int64]] {
	return func(yield func(int64, iter.Seq[int64]) bool) {
		for c := range r.m.chunks.Len() {
			if !yield(r.m.chunks.At(c).at.segment, r.m.offsets(c)) {
				return
			}
		}
	}
}

// DecodedEntries counts the records the mirror holds decoded: the cached
// entries of lazy chunks and the entries of the others (a measure of its
// memory, for tests and diagnostics).
func (r *Log) DecodedEntries() int {
	n := 0
	for _, ch := range r.m.chunks.All() {
		n += len(ch.entries)
	}
	for _, es := range r.m.cache.entries {
		n += len(es)
	}
	return n
}

// DecodedBytes is the size by Read's measure (70 bytes an entry plus its
// key and value) of the decoded entries the mirror keeps of its lazy
// chunks: at most [MirrorCacheBytes].
func (r *Log) DecodedBytes() int { return r.m.cache.bytes }

// ReadsItself reports whether the mirror reads its lazy batches back from
// this log's own files (a clone's must not read its original's).
func (r *Log) ReadsItself() bool {
	f, ok := r.m.files.(*Log)
	return ok && f == r
}

// Mark is what a reader of the log's records and epoch cache needs to
// know it has not changed: the generation (a truncation, a rebuild,
// retention), the records held (compaction removes some at the same
// offsets), and the epoch cache's length and ends (entries are appended,
// or cut from either end). Two equal marks of one log mean the same
// records and the same epoch cache.
type Mark struct {
	Gen, Records int
	Epochs       int
	First, Last  kafkalog.EpochEntry
}

// Mark returns the log's [Mark] now.
func (r *Log) Mark() Mark {
	m := Mark{Gen: r.gen, Records: r.m.Len()}
	if c := r.log.LeaderEpochCache(); c.Len() > 0 {
		m.Epochs, m.First, m.Last = c.Len(), c.At(0), c.At(c.Len()-1)
	}
	return m
}
