package replicalog

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/vfs"
)

// Log adapts a [kafkalog.Log] (byte-level record batches in segment
// files on a broker's file system) to the record-level [replica.Log] a
// [replica.Node] sees. Every write goes to the kafkalog.Log, so a power cut
// loses exactly the bytes a real log would. Reads are served from a mirror
// of the decoded records, rebuilt from the files whenever the log is opened
// (after recovery), so that the mirror never holds more than the files do.
type Log struct {
	log   *kafkalog.Log
	fsys  vfs.FS
	clock *int64
	// m mirrors the log from its start offset, batch by batch, with where
	// each batch ends in which segment file (for the durable flag).
	m      Mirror
	epochs []replica.EpochEntry // the epoch cache as Epochs last converted it (checked on each call)
	buf    []byte
	// gen counts truncations, so that the checker can remember how far it
	// has compared this log with another (and re-check after a cut).
	gen int
	// EpochsCheckedTo is how many entries the checker found in epoch order.
	EpochsCheckedTo int
	// truncations counts the truncations that cut something and the full
	// truncations (LogManager checkpoints the recovery points after them).
	truncations int
	// damaged holds, in offset order, the offsets whose bytes did not
	// decode when the mirror was rebuilt (rebuild).
	damaged []Damage
}

// Open opens (recovering) the partition log in dir and reads it
// back into the mirror.
func Open(fsys vfs.FS, dir string, cfg kafkalog.Config, clock *int64, opts ...kafkalog.Option) (*Log, error) {
	l, err := kafkalog.Open(fsys, dir, cfg, *clock, opts...)
	if err != nil {
		return nil, err
	}
	r := &Log{log: l, fsys: fsys, clock: clock}
	r.m.files = r
	if err := r.rebuild(); err != nil {
		return nil, err
	}
	return r, nil
}

// rebuild decodes every segment file into the mirror. Bytes that do not
// decode (disk damage below the recovery point, which a clean start does
// not check, as Kafka 3.7's LogLoader recovers only from the recovery
// point) do not stop it: the mirror holds what decodes and r.damaged the
// offsets that do not, as Kafka keeps such bytes and sends them as they are
// to whoever reads them (see [replicaLog.Read]).
func (r *Log) rebuild() error {
	r.m.reset()
	r.damaged = nil
	var dec kafkalog.Decoder
	var b kafkalog.RecordBatch
	start := r.log.LogStartOffset()
	segs := r.log.Segments()
	for si, s := range segs {
		data, err := r.ReadSegment(s)
		if err != nil {
			return err
		}
		// upper is the first offset past the segment: the next one's base
		// offset, or the log end offset.
		upper := r.log.LogEndOffset()
		if si+1 < len(segs) {
			upper = segs[si+1].BaseOffset()
		}
		next := s.BaseOffset() // the offset after the last batch read
		for pos := 0; pos < len(data); {
			n, err := dec.Decode(data[pos:], &b)
			if err == nil && (b.BaseOffset < next || b.LastOffset() >= upper) {
				// The CRC does not cover the base offset: a damaged one
				// says offsets out of the segment's order.
				err = fmt.Errorf("%w: batch offsets [%d, %d] outside [%d, %d)", kafkalog.ErrCorruptBatch, b.BaseOffset, b.LastOffset(), next, upper)
				n = 0
			}
			if err != nil {
				if size := b.Size(); n == 0 && errors.Is(err, kafkalog.ErrCorruptBatch) && !errors.Is(err, kafkalog.ErrTruncated) && b.BatchLength >= kafkalog.MinBatchLength &&
					b.Magic == kafkalog.MagicV2 && b.BaseOffset >= next && b.LastOffset() < upper && b.LastOffset() >= b.BaseOffset && size <= int64(len(data)-pos) && crcFailed(data[pos:pos+int(size)]) {
					// An intact header whose batch fails its CRC: its
					// offsets are damaged, the segment goes on after it.
					r.addDamage(Damage{First: b.BaseOffset, Last: b.LastOffset(),
						leaderEpoch: b.PartitionLeaderEpoch, raw: data[pos : pos+int(size) : pos+int(size)], err: err}, start)
					next, pos = b.NextOffset(), pos+int(size)
					continue
				}
				// A header that cannot be read (or a batch that fails
				// otherwise): a reader walking the segment cannot go past
				// it, so the rest of the segment is one damaged range.
				r.addDamage(Damage{First: next, Last: upper - 1,
					leaderEpoch: -1, raw: data[pos:len(data):len(data)], err: err, unreadable: true,
					EndsSegment: errors.Is(err, kafkalog.ErrTruncated)}, start)
				break
			}
			pos += n
			next = b.NextOffset()
			at := place{segment: s.BaseOffset(), end: int64(pos)}
			if skip, ok := lazySkip(&b, start); ok {
				// Kept as the batch's bytes (the segment's, read for
				// this rebuild alone), decoded again when read.
				if skip == 0 {
					r.mirrorBatch(data[pos-n:pos], b.BatchHeader, nil, at, false)
					continue
				}
				// the log start offset inside the batch: its records
				// from there on, measured one by one
				size, head := recordSizes(&b, skip)
				r.m.addLazy(StoredBatch(data[pos-n:pos], b.BatchHeader, false), b.PartitionLeaderEpoch, skip, len(b.Records)-skip, nil, size, head, at)
				continue
			}
			var es []replica.Entry
			for i := range b.Records {
				off := b.Offset(&b.Records[i])
				if off < start {
					continue
				}
				e := replica.Entry{Offset: off, LeaderEpoch: b.PartitionLeaderEpoch,
					Key: clone(b.Records[i].Key), Value: clone(b.Records[i].Value), Producer: ProducerOf(&b, &b.Records[i])}
				if i == 0 && b.BaseOffset >= start {
					e.Batch = slices.Clone(data[pos-n : pos])
				}
				if es == nil {
					es = make([]replica.Entry, 0, len(b.Records)-i)
				}
				es = append(es, e)
			}
			r.m.add(es, at)
		}
	}
	return nil
}

// lazySkip reports whether batch b's records from the log start offset on
// can be mirrored lazily, their offsets following one another from the
// batch's base offset to its header's last offset (no gap left by the
// cleaner, inside or at the end: the cleaner keeps a batch's last offset
// delta when it removes its last records, as Kafka's
// MemoryRecords.filterTo keeps it to preserve the producer's sequence),
// and how many of its records lie below start.
func lazySkip(b *kafkalog.RecordBatch, start int64) (skip int, ok bool) {
	if int64(len(b.Records)) != b.LastOffset()-b.BaseOffset+1 {
		return 0, false
	}
	for i := range b.Records {
		off := b.Offset(&b.Records[i])
		if off != b.BaseOffset+int64(i) {
			return 0, false
		}
		if off < start {
			skip = i + 1
		}
	}
	return skip, skip < len(b.Records)
}

// mirrorBatch adds to the mirror the whole batch raw, as stored (its
// header h), whose offsets follow one another, ending at place at: a lazy
// chunk, which Read measures by the batch's bytes, as Kafka's fetch counts
// the log's bytes against replica.fetch.max.bytes, without decoding it.
// entries, when not nil, are its records decoded (never changed after),
// kept while cached.
func (r *Log) mirrorBatch(raw []byte, h kafkalog.BatchHeader, entries []replica.Entry, at place, kept bool) {
	r.m.addLazy(StoredBatch(raw, h, kept), h.PartitionLeaderEpoch, 0, int(h.NumRecords), entries, len(raw), len(raw), at)
}

// recordSizes is Read's measure of b's records from skip on, and of the
// first of them, record by record (entrySize).
func recordSizes(b *kafkalog.RecordBatch, skip int) (size, head int) {
	for i := skip; i < len(b.Records); i++ {
		n := 70 + len(b.Records[i].Key) + len(b.Records[i].Value)
		if i == skip {
			head = n
		}
		size += n
	}
	return size, head
}

// crcFailed reports whether the whole batch raw fails only its CRC (its
// header reads): a batch whose records are damaged but whose header is not.
func crcFailed(raw []byte) bool {
	_, _, err := kafkalog.CheckBatch(raw)
	return err != nil && errors.Is(err, kafkalog.ErrCorruptBatch)
}

// Damage is a run of offsets whose bytes on disk do not decode: one batch
// whose header reads but that fails its CRC (first to last are its
// offsets), or, from a header that cannot be read (its length, magic or
// offsets damaged), the rest of its segment (unreadable).
type Damage struct {
	First, Last int64
	// leaderEpoch is the batch header's, -1 when unreadable.
	leaderEpoch int32
	// raw is the bytes as stored: the batch, or the rest of the segment.
	raw []byte
	// err is what the check found, kafkalog's error.
	err        error
	unreadable bool
	// EndsSegment marks an unreadable header whose length runs past the
	// segment's end: a reader takes it for the segment's end
	// (FileLogInputStream.nextBatch returns no batch) and reads on in the
	// next segment (LocalLog.read), so that a fetch from inside it gets the
	// records after it. Any other unreadable header fails the reader: a
	// length below 14 is FileLogInputStream.nextBatch's
	// CorruptRecordException; a magic that is not 2 and offsets out of the
	// segment's order are taken the same way here (Kafka hands such a
	// batch on, and the reader's checks refuse it in their turn, or take
	// its records at the offsets it says).
	EndsSegment bool
}

// addDamage remembers d, cut to the offsets from the log start offset on.
func (r *Log) addDamage(d Damage, start int64) {
	if d.Last < start || d.Last < d.First {
		return
	}
	d.First = max(d.First, start)
	r.damaged = append(r.damaged, d)
}

// DamageFrom is the first damaged range that holds an offset at or after
// from, nil if none.
func (r *Log) DamageFrom(from int64) *Damage {
	for i := range r.damaged {
		if r.damaged[i].Last >= from {
			return &r.damaged[i]
		}
	}
	return nil
}

// cutDamage forgets the damaged offsets at or after offset (a truncation
// removed them).
func (r *Log) cutDamage(offset int64) {
	kept := r.damaged[:0]
	for _, d := range r.damaged {
		if d.First >= offset {
			continue
		}
		if d.Last >= offset {
			d.Last = offset - 1
		}
		kept = append(kept, d)
	}
	r.damaged = kept
}

// damagedEntry is what a read at from meets of d: one Entry at the first
// offset of d the read asks for, carrying the damaged bytes as stored, so
// that whoever reads them checks them and refuses them, as a Kafka broker
// sends a batch without checking it (a follower's append checks it:
// UnifiedLog.analyzeAndValidateRecords).
func (d *Damage) Entry(from int64) replica.Entry {
	return replica.Entry{Offset: max(d.First, from), LeaderEpoch: d.leaderEpoch, Batch: d.raw}
}

// ConsumerError is the KafkaException a consumer's poll throws when its
// fetch at pos of partition tp meets d (check.crcs=true, the default): a
// batch that fails its CRC is Kafka 3.7's CompletedFetch.maybeEnsureValid
// (DefaultRecordBatch.ensureValid's cause); a header that fails the
// leader's read is the CORRUPT_MESSAGE answer FetchCollector
// .handleInitializeErrors throws on.
func (d *Damage) ConsumerError(tp kafkalog.TopicPartition, pos int64) string {
	if d.unreadable {
		return fmt.Sprintf("Encountered corrupt message when fetching offset %d for topic-partition %s-%d", pos, tp.Topic, tp.Partition)
	}
	h, _ := kafkalog.ReadBatchHeader(d.raw)
	return fmt.Sprintf("Record batch for partition %s-%d at offset %d is invalid, cause: Record is corrupt (stored crc = %d, computed crc = %d)",
		tp.Topic, tp.Partition, h.BaseOffset, h.CRC, kafkalog.CRC32C(d.raw[crcFrom:]))
}

// crcFrom is where a v2 batch's CRC starts counting: its attributes.
const crcFrom = 21

// batchBytes reads back the size bytes that end at place at of the log's
// segment files, a batch the mirror keeps lazily: kept itself (the memory
// the file took at the append, if not nil) while the file still holds it
// there, which vfs.HoldsAt tells without reading it, else a copy of what
// the file holds.
func (r *Log) batchBytes(at place, size int, kept []byte) ([]byte, error) {
	name := r.fsys.PathJoin(r.log.Dir(), kafkalog.SegmentFileName(at.segment, kafkalog.LogSuffix))
	f, err := r.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	off := at.end - int64(size)
	if kept != nil && len(kept) == size && vfs.HoldsAt(f, kept, off) {
		return kept, nil
	}
	raw := make([]byte, size)
	if _, err := f.ReadAt(raw, off); err != nil {
		return nil, fmt.Errorf("read [%d, %d) of %s: %w", off, at.end, name, err)
	}
	return raw, nil
}

func (r *Log) ReadSegment(s *kafkalog.Segment) ([]byte, error) {
	name := r.fsys.PathJoin(r.log.Dir(), kafkalog.SegmentFileName(s.BaseOffset(), kafkalog.LogSuffix))
	f, err := r.fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("cluster: read segment %s: %w", name, err)
	}
	defer f.Close()
	data := make([]byte, s.Size())
	if _, err := f.ReadAt(data, 0); err != nil && int64(len(data)) > 0 {
		return nil, fmt.Errorf("cluster: read segment %s: %w", name, err)
	}
	return data, nil
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return slices.Clone(b)
}

// LogStartOffset implements [replica.Log].
func (r *Log) LogStartOffset() int64 { return r.log.LogStartOffset() }

// LogEndOffset implements [replica.Log].
func (r *Log) LogEndOffset() int64 { return r.log.LogEndOffset() }

// AppendAsLeader implements [replica.Log]: one record batch per call, as
// a producer's request carries one batch per partition. A batch already
// encoded (records[0].Batch: by the learner's encoder, a transaction
// marker) is appended as it is, offsets and leader epoch stamped in place
// by kafkalog; the world's own producers' records are encoded here.
func (r *Log) AppendAsLeader(records []replica.Record, leaderEpoch int32) (int64, error) {
	if len(records) > 0 && records[0].Batch != nil {
		return r.appendRaw(records[0].Batch, func(batch []byte) (kafkalog.AppendInfo, error) {
			info, err := r.log.AppendAsLeader(batch, leaderEpoch, *r.clock)
			return info, leaderRefusal(err)
		})
	}
	base := r.log.LogEndOffset()
	entries := make([]replica.Entry, len(records))
	for i, rec := range records {
		entries[i] = replica.Entry{Offset: base + int64(i), LeaderEpoch: leaderEpoch, Key: rec.Key, Value: rec.Value, Producer: rec.Producer}
	}
	r.buf = AppendBatch(r.buf[:0], entries, *r.clock)
	if _, err := r.log.AppendAsLeader(r.buf, leaderEpoch, *r.clock); err != nil {
		return 0, leaderRefusal(err)
	}
	entries[0].Batch = slices.Clone(r.buf)
	r.remember(entries, false)
	return base, nil
}

// AppendBatchAsLeader implements [replica.BatchLog]: b.Bytes is a client's
// batch, checked and decoded by the caller (World.extProducePartition), and
// appended as it came, offsets and leader epoch stamped in place by
// kafkalog. The mirror keeps it as those bytes, a lazy chunk: its records
// are decoded again only when someone reads them (a follower's fetch takes
// the bytes: ReadFetch).
func (r *Log) AppendBatchAsLeader(b replica.ProducerBatch, leaderEpoch int32) (int64, error) {
	h, err := kafkalog.ReadBatchHeader(b.Bytes)
	if err != nil {
		return 0, fmt.Errorf("cluster: a producer's batch for %s: %w", r.log.Dir(), err)
	}
	if b.Count < 1 || int64(h.NumRecords) != int64(b.Count) || int64(h.LastOffsetDelta) != int64(b.Count)-1 {
		return 0, fmt.Errorf("cluster: a producer's batch for %s of %d records says it holds %d, offset deltas to %d", r.log.Dir(), b.Count, h.NumRecords, h.LastOffsetDelta)
	}
	info, err := r.log.AppendAsLeaderNoCopy(b.Bytes, leaderEpoch, *r.clock)
	if err != nil {
		return 0, leaderRefusal(err)
	}
	if h, err = kafkalog.ReadBatchHeader(b.Bytes); err != nil { // as stamped
		return 0, err
	}
	r.mirrorBatch(b.Bytes, h, nil, r.activeEnd(), true)
	return info.FirstOffset, nil
}

// appendRaw appends one batch of bytes with add (as leader or follower)
// and mirrors its records, the first entry holding the bytes as stored.
func (r *Log) appendRaw(batch []byte, add func([]byte) (kafkalog.AppendInfo, error)) (int64, error) {
	if _, err := add(batch); err != nil {
		return 0, err
	}
	// Decode the mirror's own copy of the bytes as stored, with a fresh
	// decoder: the keys and values then point into that copy (or into the
	// decoder's fresh decompression buffer), which nothing else holds or
	// changes, so the mirror keeps them without copying each record.
	stored := slices.Clone(batch)
	var dec kafkalog.Decoder
	var b kafkalog.RecordBatch
	if _, err := dec.Decode(stored, &b); err != nil {
		return 0, fmt.Errorf("cluster: mirror the batch appended to %s: %w", r.log.Dir(), err)
	}
	if len(b.Records) == 0 {
		return b.BaseOffset, nil
	}
	es := BatchEntries(&b, stored, 0, len(b.Records))
	if _, ok := lazySkip(&b, b.BaseOffset); ok {
		r.mirrorBatch(stored, b.BatchHeader, es, r.activeEnd(), false)
	} else {
		r.m.add(es, r.activeEnd())
	}
	return b.BaseOffset, nil
}

// AppendAsFollower implements [replica.Log]. An entry that carries its
// batch's bytes (Entry.Batch, as [replicaLog.Read] hands them out) is
// appended with the rest of its batch as those bytes, so the follower
// stores what its leader stores, as Kafka's fetcher appends the fetched
// batches (UnifiedLog.appendAsFollower). Entries without (a read that
// started inside a batch) are encoded again, one batch per entry:
// merging entries into one batch would make a truncation inside it cut
// more than asked.
//
// Bytes that fail their check (a leader's damaged batch: Read sends it as
// stored) refuse the whole append, as UnifiedLog.analyzeAndValidateRecords
// checks every batch before any is appended: the error wraps
// [replica.ErrCorruptMessage] (CorruptRecordException) or
// [replica.ErrInvalidRecord] (InvalidRecordException). Read ends a read
// with such bytes, so only the last batch of an append of several needs
// checking first; a single one is checked by kafkalog's own append.
func (r *Log) AppendAsFollower(entries []replica.Entry) error {
	if k := lastBatch(entries); k > 0 {
		if _, _, err := kafkalog.CheckBatch(entries[k].Batch); err != nil {
			return r.refused(err)
		}
	}
	for len(entries) > 0 {
		if raw := entries[0].Batch; raw != nil {
			h, err := kafkalog.ReadBatchHeader(raw)
			if err != nil {
				return r.refused(err)
			}
			whole := entries[0].Count > 0
			if whole && (h.BaseOffset != entries[0].Offset || int64(h.NumRecords) != int64(entries[0].Count) || h.LastOffset() != h.BaseOffset+int64(h.NumRecords)-1) {
				return fmt.Errorf("cluster: follower append to %s: a fetched batch of %d records at %d whose header says %d records at [%d, %d]",
					r.log.Dir(), entries[0].Count, entries[0].Offset, h.NumRecords, h.BaseOffset, h.LastOffset())
			}
			n := 1
			for !whole && n < len(entries) && entries[n].Offset <= h.LastOffset() {
				n++
			}
			if _, err := r.log.AppendAsFollowerNoCopy(raw, *r.clock); err != nil {
				if BadBytes(err) || errors.Is(err, kafkalog.ErrUnexpectedOffset) {
					// A batch whose offsets do not follow the log (a leader's
					// damaged base offset, which its CRC does not cover): Kafka
					// 3.7's UnifiedLog.append throws OffsetsOutOfOrderException
					// or UnexpectedAppendOffsetException, and the fetcher marks
					// the partition failed until its leader changes
					// (AbstractFetcherThread.processFetchRequest); here it is
					// refused as a corrupt batch and retried after
					// replica.fetch.backoff.ms: the follower stays where it is
					// all the same.
					return r.refused(err)
				}
				return r.tooLarge(err)
			}
			if whole {
				// a leader's lazy chunk, fetched as its bytes: the
				// follower's is lazy too, nothing decoded
				r.mirrorBatch(raw, h, nil, r.activeEnd(), true)
			} else {
				r.rememberFetched(raw, h, entries[:n])
			}
			entries = entries[n:]
			continue
		}
		n := 1
		r.buf = AppendBatch(r.buf[:0], entries[:n], *r.clock)
		if _, err := r.log.AppendAsFollower(r.buf, *r.clock); err != nil {
			return r.tooLarge(err)
		}
		r.remember(entries[:n], true)
		entries = entries[n:]
	}
	return nil
}

// leaderRefusal wraps the refusals of a leader's producer state checks
// (kafkalog's, Kafka 3.7's ProducerAppendInfo) in a [replica.RefusedError]
// with their protocol code, so that the leader answers the produce with it;
// other errors are returned as they are.
func leaderRefusal(err error) error {
	for _, c := range []struct {
		err  error
		code replica.ErrorCode
	}{
		{kafkalog.ErrInvalidProducerEpoch, replica.InvalidProducerEpoch},
		{kafkalog.ErrInvalidTxnState, replica.InvalidTxnState},
		{kafkalog.ErrCoordinatorFenced, replica.TransactionCoordinatorFenced},
	} {
		if errors.Is(err, c.err) {
			return &replica.RefusedError{Code: c.code, Err: err}
		}
	}
	return err
}

// tooLarge wraps a follower append's ErrAppendTooLarge (segment.bytes
// lowered below a batch the leader took before, by an altered topic
// config) in replica.ErrRecordBatchTooLarge: the follower retries; other
// errors are returned as they are.
func (r *Log) tooLarge(err error) error {
	if errors.Is(err, kafkalog.ErrAppendTooLarge) {
		return fmt.Errorf("%w: follower append to %s: %w", replica.ErrRecordBatchTooLarge, r.log.Dir(), err)
	}
	return err
}

// lastBatch is the index of the last entry that carries a batch's bytes,
// -1 if none.
func lastBatch(entries []replica.Entry) int {
	for k := len(entries) - 1; k >= 0; k-- {
		if entries[k].Batch != nil {
			return k
		}
	}
	return -1
}

// BadBytes reports whether err is kafkalog's finding that bytes do not
// hold a valid batch.
func BadBytes(err error) bool {
	for _, e := range []error{kafkalog.ErrCorruptBatch, kafkalog.ErrTruncated, kafkalog.ErrUnknownMagic,
		kafkalog.ErrInvalidRecord, kafkalog.ErrVarintOverflow, kafkalog.ErrUnknownCompression} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// refused is the error of a follower's append whose bytes fail their
// check: CorruptRecordException, or InvalidRecordException for records
// that do not parse in a batch whose CRC holds.
func (r *Log) refused(err error) error {
	if errors.Is(err, kafkalog.ErrInvalidRecord) || errors.Is(err, kafkalog.ErrVarintOverflow) {
		return fmt.Errorf("%w: follower append to %s: %w", replica.ErrInvalidRecord, r.log.Dir(), err)
	}
	return fmt.Errorf("%w: follower append to %s: %w", replica.ErrCorruptMessage, r.log.Dir(), err)
}

// remember adds one appended batch's entries to the mirror. With shared,
// the entries, their keys, values and batch bytes are immutable and owned
// by no caller that could change them (a leader's mirror entries a
// follower fetched), and the mirror keeps them as they are, without a
// copy; else entries is the caller's own new slice, which the mirror
// takes, and the keys and values are copied, into one buffer for the
// batch.
func (r *Log) remember(entries []replica.Entry, shared bool) {
	if !shared {
		size := 0
		for _, e := range entries {
			size += len(e.Key) + len(e.Value)
		}
		buf := make([]byte, 0, size)
		for i := range entries {
			e := &entries[i]
			if e.Key != nil {
				buf = append(buf, e.Key...)
				e.Key = buf[len(buf)-len(e.Key) : len(buf) : len(buf)]
			}
			if e.Value != nil {
				buf = append(buf, e.Value...)
				e.Value = buf[len(buf)-len(e.Value) : len(buf) : len(buf)]
			}
		}
	}
	r.m.add(entries, r.activeEnd())
}

// rememberFetched adds to the mirror the entries of batch raw (its header
// h) that a follower appended as fetched: a leader's entries, shared. When
// they are the whole batch at offsets that follow one another, the chunk
// is lazy, sharing the leader's bytes too, so that it forgets the decoded
// entries when its leader's does.
func (r *Log) rememberFetched(raw []byte, h kafkalog.BatchHeader, entries []replica.Entry) {
	n := len(entries)
	if int64(n) != int64(h.NumRecords) || entries[0].Offset != h.BaseOffset || entries[n-1].Offset != h.LastOffset() || h.LastOffset()-h.BaseOffset+1 != int64(n) {
		r.remember(entries, true)
		return
	}
	r.mirrorBatch(raw, h, entries, r.activeEnd(), true)
}

// activeEnd is where a batch just appended ends: at the end of the active
// segment.
func (r *Log) activeEnd() place {
	segs := r.log.Segments()
	active := segs[len(segs)-1]
	return place{segment: active.BaseOffset(), end: active.Size()}
}

// EncodedSize is the size of the record batch a leader's log writes for
// records (one batch, appended at nowMs): the batch AppendBatch encodes,
// byte for byte.
func EncodedSize(nowMs int64, records []replica.Record) int {
	entries := make([]replica.Entry, len(records))
	for i, r := range records {
		entries[i] = replica.Entry{Offset: int64(i), Key: r.Key, Value: r.Value, Producer: r.Producer}
	}
	return len(AppendBatch(nil, entries, nowMs))
}

// AppendBatch encodes entries as one v2 batch: with the idempotent
// producer's id, epoch and base sequence when the first entry has one
// (the records of a batch have consecutive sequences), else without.
func AppendBatch(dst []byte, entries []replica.Entry, nowMs int64) []byte {
	var b kafkalog.RecordBatch
	b.PartitionLeaderEpoch = entries[0].LeaderEpoch
	b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, -1
	if p := entries[0].Producer; p != nil {
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = p.ID, p.Epoch, p.Sequence
	}
	for _, e := range entries {
		b.AppendRecord(e.Offset, nowMs, e.Key, e.Value)
	}
	return b.AppendTo(dst)
}

// ProducerOf reads an idempotent producer's id, epoch and sequence of
// record r of batch b, nil for a batch without a producer id.
func ProducerOf(b *kafkalog.RecordBatch, r *kafkalog.Record) *replica.ProducerSequence {
	if b.ProducerID == kafkalog.NoProducerID || b.BaseSequence < 0 {
		return nil
	}
	return &replica.ProducerSequence{ID: b.ProducerID, Epoch: b.ProducerEpoch, Sequence: b.Sequence(r)}
}

// Read implements [replica.Log] from the mirror. Damaged bytes are sent as
// they are, as a Kafka leader's read does not check them: a read stops
// where damage begins, and one that starts at (or inside) damaged offsets
// gets them as one entry carrying the bytes as stored (damage.entry),
// which the follower's append refuses (AppendAsFollower); a reader of a
// segment whose header's length runs past its end reads on after it.
func (r *Log) Read(from int64, maxBytes int) ([]replica.Entry, error) {
	return r.read(from, maxBytes, r.m.Slice)
}

// ReadFetch implements [replica.FetchLog]: Read, except that a whole
// batch the mirror keeps as its bytes (a lazy chunk) is handed out as one
// entry carrying them (Entry.Count), undecoded, as Kafka's leader sends
// its followers the segment's bytes.
func (r *Log) ReadFetch(from int64, maxBytes int) ([]replica.Entry, error) {
	return r.read(from, maxBytes, r.m.sliceFetch)
}

// read is Read and ReadFetch: whole batches from from, at most maxBytes
// of them, handed out by slice where no damage lies.
func (r *Log) read(from int64, maxBytes int, slice func(i, j int) []replica.Entry) ([]replica.Entry, error) {
	start, end := r.log.LogStartOffset(), r.log.LogEndOffset()
	if from < start || from > end {
		return nil, fmt.Errorf("%w: read at %d, log has [%d, %d)", kafkalog.ErrOffsetOutOfRange, from, start, end)
	}
	if len(r.damaged) > 0 {
		if d := r.DamageFrom(from); d != nil {
			return r.readToDamage(from, maxBytes, d), nil
		}
	}
	i := r.Index(from)
	j, _ := r.m.readEnd(i, maxBytes, -1) // whole batches only
	return slice(i, j), nil
}

// readToDamage is Read at from when damage d holds an offset at or after
// from: the entries before d, and d's bytes when the read reaches them.
func (r *Log) readToDamage(from int64, maxBytes int, d *Damage) []replica.Entry {
	if from >= d.First {
		if d.EndsSegment {
			// Read as the segment's end: the read goes on after it.
			return r.readPast(d, maxBytes)
		}
		return []replica.Entry{d.Entry(from)}
	}
	i, end := r.Index(from), r.Index(d.First)
	j, size := r.m.readEnd(i, maxBytes, end)
	if j < end {
		return r.m.Slice(i, j) // full before the damage
	}
	out := r.m.Slice(i, j)
	if d.EndsSegment || size+len(d.raw) > maxBytes && j > i {
		return out
	}
	return append(slices.Clip(out), d.Entry(from))
}

// readPast reads from the first offset after damage d that reads as its
// segment's end.
func (r *Log) readPast(d *Damage, maxBytes int) []replica.Entry {
	if d.Last+1 >= r.log.LogEndOffset() {
		return nil
	}
	out, _ := r.Read(d.Last+1, maxBytes)
	return out
}

// Index is the mirror position of the first entry at or after offset.
// Offsets are consecutive unless the cleaner left gaps.
func (r *Log) Index(offset int64) int { return r.m.index(offset) }

// Reload rebuilds the mirror after retention or the cleaner rewrote the
// segments below it; the checker compares the log again from its start.
func (r *Log) Reload() error {
	r.gen++
	r.EpochsCheckedTo = 0
	return r.rebuild()
}

// TrimStart drops from the mirror what retention removed: the records
// below the log start offset, in the segments it deleted (or below a log
// start that DeleteRecords moved), the segments left being the same bytes
// as before. The mirror is then what a rebuild would make of them, without
// decoding them again; the checker compares the log again from its start.
func (r *Log) TrimStart() {
	start := r.log.LogStartOffset()
	r.m.dropFront(r.Index(start))
	kept := r.damaged[:0]
	for _, d := range r.damaged {
		if d.Last >= start {
			d.First = max(d.First, start)
			kept = append(kept, d)
		}
	}
	r.damaged = kept
	r.gen++
	r.EpochsCheckedTo = 0
}

var _ replica.LogStartRaiser = (*Log)(nil)

// RaiseLogStartOffset implements [replica.LogStartRaiser]: the log start
// moves forward (kafkalog's DeleteRecords, Kafka's
// UnifiedLog.maybeIncrementLogStartOffset) and the mirror drops what is
// below it.
func (r *Log) RaiseLogStartOffset(offset, highWatermark int64) error {
	if offset <= r.log.LogStartOffset() {
		return nil
	}
	if _, err := r.log.DeleteRecords(offset, highWatermark); err != nil {
		return err
	}
	r.TrimStart()
	return nil
}

// TruncateTo implements [replica.Log].
func (r *Log) TruncateTo(offset int64) error {
	if offset < r.log.LogEndOffset() {
		r.truncations++
	}
	if err := r.log.TruncateTo(offset, *r.clock); err != nil {
		return err
	}
	// kafkalog leaves the epoch cache alone when nothing is cut; the
	// replica.Log contract also drops an epoch cached at the LEO itself.
	if offset == r.log.LogEndOffset() {
		if err := r.log.LeaderEpochCache().TruncateFromEnd(offset); err != nil {
			return err
		}
	}
	i := r.Index(r.log.LogEndOffset())
	r.m.truncate(i)
	r.cutDamage(r.log.LogEndOffset())
	r.gen++
	r.EpochsCheckedTo = min(r.EpochsCheckedTo, i)
	return nil
}

// TruncateFullyAndStartAt implements [replica.Log].
func (r *Log) TruncateFullyAndStartAt(offset int64) error {
	r.truncations++
	if err := r.log.TruncateFullyAndStartAt(offset, *r.clock); err != nil {
		return err
	}
	r.m.reset()
	r.damaged = nil
	r.gen++
	r.EpochsCheckedTo = 0
	return nil
}

// AssignEpoch implements [replica.Log].
func (r *Log) AssignEpoch(epoch int32, startOffset int64) error {
	return r.log.LeaderEpochCache().Assign(epoch, startOffset)
}

// Epochs implements [replica.Log].
func (r *Log) Epochs() []replica.EpochEntry {
	c := r.log.LeaderEpochCache()
	same := r.epochs != nil && len(r.epochs) == c.Len()
	for i := 0; same && i < len(r.epochs); i++ {
		e := c.At(i)
		same = r.epochs[i] == replica.EpochEntry{Epoch: e.Epoch, StartOffset: e.StartOffset}
	}
	if !same {
		// a new slice: callers may hold the old one
		r.epochs = make([]replica.EpochEntry, c.Len())
		for i := range r.epochs {
			e := c.At(i)
			r.epochs[i] = replica.EpochEntry{Epoch: e.Epoch, StartOffset: e.StartOffset}
		}
	}
	return r.epochs
}

// MirrorProblem compares the mirror with the segment files, decoded from
// the log start offset on (filesHold): "" when they hold the same records
// (offsets, epochs, keys, values, producer fields), else the first
// difference.
func (r *Log) MirrorProblem() string {
	want, err := r.FilesHold()
	if err != nil {
		return err.Error()
	}
	cu := r.m.CursorAt(0)
	for _, f := range want {
		e := cu.Entry()
		switch {
		case e == nil:
			return fmt.Sprintf("the files hold offset %d, the mirror ends before it", f.Offset)
		case e.Offset != f.Offset || e.LeaderEpoch != f.LeaderEpoch || !bytes.Equal(e.Key, f.Key) || !bytes.Equal(e.Value, f.Value) ||
			(e.Producer == nil) != (f.Producer == nil) || e.Producer != nil && *e.Producer != *f.Producer:
			return fmt.Sprintf("the files hold offset %d (epoch %d), the mirror offset %d (epoch %d), or their records differ", f.Offset, f.LeaderEpoch, e.Offset, e.LeaderEpoch)
		}
		cu.Next()
	}
	if e := cu.Entry(); e != nil {
		return fmt.Sprintf("the mirror holds offset %d past what the files hold", e.Offset)
	}
	return ""
}

// FilesHold decodes the segment files: the records from the log start
// offset on, each batch's first carrying the batch's bytes when the batch
// starts at or after the log start, as the mirror holds them. A batch
// wholly below the log start (in the segment a follower's start moved
// into, [Log.RaiseLogStartOffset]) is passed over undecoded, as every
// reader passes it: damage there is no reader's business.
func (r *Log) FilesHold() ([]replica.Entry, error) {
	var out []replica.Entry
	start := r.log.LogStartOffset()
	for _, s := range r.log.Segments() {
		data, err := r.ReadSegment(s)
		if err != nil {
			return nil, err
		}
		for pos := 0; pos < len(data); {
			if h, err := kafkalog.ReadBatchHeader(data[pos:]); err == nil && h.LastOffset() < start && h.BatchLength >= kafkalog.MinBatchLength &&
				h.Size() <= int64(len(data)-pos) {
				pos += int(h.Size())
				continue
			}
			var dec kafkalog.Decoder
			var b kafkalog.RecordBatch
			n, err := dec.Decode(data[pos:], &b)
			if err != nil {
				return nil, fmt.Errorf("segment %d at byte %d: %w", s.BaseOffset(), pos, err)
			}
			for i := range b.Records {
				if b.Offset(&b.Records[i]) >= start {
					e := BatchEntries(&b, data[pos:pos+n], i, 1)[0]
					if i > 0 || b.BaseOffset < start {
						e.Batch = nil
					}
					out = append(out, e)
				}
			}
			pos += n
		}
	}
	return out, nil
}

// RecordsIn counts the mirrored entries in the segment with base offset
// segment. The places go segment after segment (appends go to the active
// segment, truncations cut the end), so the segment's entries are one run
// of them.
func (r *Log) RecordsIn(segment int64) int {
	cs := &r.m.chunks
	lo := sort.Search(cs.Len(), func(i int) bool { return cs.At(i).at.segment >= segment })
	n := 0
	for _, c := range cs.From(lo) {
		if c.at.segment != segment {
			break
		}
		n += c.n
	}
	return n
}

// DurableFrom reports, per mirrored entry from position from on, whether
// its batch is on the disk (not only in the page cache).
func (r *Log) DurableFrom(mem *vfs.MemFS, from int) []bool {
	from = min(max(from, 0), r.m.Len())
	out := make([]bool, r.m.Len()-from)
	sizes := map[int64]int64{}
	for span, p := range r.m.places(from) {
		d, ok := sizes[p.segment]
		if !ok {
			name := mem.PathJoin(r.log.Dir(), kafkalog.SegmentFileName(p.segment, kafkalog.LogSuffix))
			d, _, _ = mem.SizeOnDisk(name)
			sizes[p.segment] = d
		}
		for i := span[0]; i < span[1]; i++ {
			out[i-from] = p.end <= d
		}
	}
	return out
}
