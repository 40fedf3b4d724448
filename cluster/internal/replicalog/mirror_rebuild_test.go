package replicalog

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/vfs"
)

// TestMirrorHoldsTheFiles: a replica log's mirror, built append by append
// (a client's batch, a fetched batch with or without offset gaps, the
// world's own records, compressed or not, idempotent or not), cut by
// truncations and by a log start moved forward (segments deleted below it,
// the mirror trimmed or rebuilt), holds at every step the
// records its segment files hold from the log start on, with the same
// offsets, epochs, keys, values, producer fields and batch bytes; and a log
// opened again on those files (recovery's rebuild, lazy where it can be)
// mirrors the same. A small cache budget makes the mirror forget and decode
// its lazy chunks again and again.
func TestMirrorHoldsTheFiles(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fsys := vfs.NewMem()
		cfg := kafkalog.DefaultConfig()
		cfg.SegmentBytes = int64(rapid.IntRange(800, 4000).Draw(t, "segment.bytes"))
		cfg.SegmentIndexBytes = 4096
		clock := int64(1000)
		const dir = "t-0"
		r, err := Open(fsys, dir, cfg, &clock)
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		r.m.cache.budget = rapid.IntRange(1, 2000).Draw(t, "cache budget")
		epoch := int32(0)
		// logs are r and its clones (a snapshot's, on a clone of the file
		// system), each changed on its own in turn: every one must hold its
		// own files at every step, whatever the others do.
		type side struct {
			r    *Log
			fsys *vfs.MemFS
		}
		sides := []side{{r, fsys}}
		for step := range rapid.IntRange(1, 25).Draw(t, "steps") {
			if rapid.IntRange(0, 5).Draw(t, "clone") == 0 {
				from := sides[rapid.IntRange(0, len(sides)-1).Draw(t, "clone of")]
				cfs := from.fsys.Clone()
				sides = append(sides, side{from.r.Clone(cfs, &clock, nil), cfs})
			}
			s := sides[rapid.IntRange(0, len(sides)-1).Draw(t, "side")]
			r, fsys = s.r, s.fsys
			clock++
			leo := r.LogEndOffset()
			switch action := rapid.IntRange(0, 9).Draw(t, "action"); {
			case action <= 1: // a client's batch, as the leader takes it
				n := rapid.IntRange(1, 6).Draw(t, "records")
				raw := mirrorTestBatch(t, 0, n, epoch)
				if _, err := r.AppendBatchAsLeader(replica.ProducerBatch{Count: n, Bytes: raw}, epoch); err != nil {
					t.Fatalf("step %d: leader append: %v", step, err)
				}
			case action == 2: // a leader's whole batch, fetched undecoded (ReadFetch)
				n := rapid.IntRange(1, 6).Draw(t, "records")
				raw := mirrorTestBatch(t, leo, n, epoch)
				e := replica.Entry{Offset: leo, LeaderEpoch: epoch, Count: int32(n), Batch: raw}
				if err := r.AppendAsFollower([]replica.Entry{e}); err != nil {
					t.Fatalf("step %d: follower append of a whole batch: %v", step, err)
				}
			case action <= 5: // a fetched batch, maybe with gaps the cleaner left
				raw := gappedBatch(t, leo, epoch)
				var dec kafkalog.Decoder
				var rb kafkalog.RecordBatch
				if _, err := dec.Decode(raw, &rb); err != nil {
					t.Fatalf("decode: %v", err)
				}
				if err := r.AppendAsFollower(BatchEntries(&rb, raw, 0, len(rb.Records))); err != nil {
					t.Fatalf("step %d: follower append: %v", step, err)
				}
			case action == 6: // the world's own producer
				recs := make([]replica.Record, rapid.IntRange(1, 4).Draw(t, "records"))
				for i := range recs {
					recs[i].Value = fmt.Appendf(nil, "w%d-%d", step, i)
				}
				if _, err := r.AppendAsLeader(recs, epoch); err != nil {
					t.Fatalf("step %d: world append: %v", step, err)
				}
			case action == 7:
				to := rapid.Int64Range(r.LogStartOffset(), leo).Draw(t, "truncate to")
				if err := r.TruncateTo(to); err != nil {
					t.Fatalf("step %d: truncate to %d: %v", step, to, err)
				}
				epoch++
			case action == 8:
				to := rapid.Int64Range(r.LogStartOffset(), leo).Draw(t, "log start")
				if _, err := r.log.DeleteRecords(to, leo); err != nil {
					t.Fatalf("step %d: delete records before %d: %v", step, to, err)
				}
				if _, err := r.log.DeleteOldSegments(to, clock); err != nil {
					t.Fatalf("step %d: delete old segments: %v", step, err)
				}
				if rapid.Bool().Draw(t, "rebuild") {
					if err := r.Reload(); err != nil {
						t.Fatalf("step %d: reload: %v", step, err)
					}
				} else {
					r.TrimStart()
				}
			default:
				epoch++
			}
			for k, s := range sides {
				want, err := s.r.FilesHold()
				if err != nil {
					t.Fatalf("step %d: log %d: the files: %v", step, k, err)
				}
				if d := cmp.Diff(want, mirrored(&s.r.m)); d != "" {
					t.Fatalf("step %d: log %d of %d: the mirror against the files (-files +mirror):\n%s", step, k, len(sides), d)
				}
				checkCache(t, &s.r.m)
			}
			if r.LogStartOffset() < r.LogEndOffset() {
				from := rapid.Int64Range(r.LogStartOffset(), r.LogEndOffset()).Draw(t, "read from")
				maxBytes := rapid.IntRange(1, 2000).Draw(t, "read max bytes")
				requireFetchIsRead(t, r, from, maxBytes)
			}
		}
		again, err := Open(fsys, dir, cfg, &clock, kafkalog.WithRecoveryPoint(r.log.LogEndOffset()), kafkalog.WithLogStartOffset(r.LogStartOffset()))
		if err != nil {
			t.Fatalf("open again: %v", err)
		}
		if d := cmp.Diff(mirrored(&r.m), mirrored(&again.m)); d != "" {
			t.Fatalf("opened again (-before +after):\n%s", d)
		}
	})
}

// requireFetchIsRead checks that what a follower's fetch at from gets
// (ReadFetch: whole batches undecoded) is Read's entries, once its whole
// batches are decoded, and that each whole batch is a lazy chunk's bytes.
func requireFetchIsRead(t *rapid.T, r *Log, from int64, maxBytes int) {
	want, err := r.Read(from, maxBytes)
	if err != nil {
		t.Fatalf("read at %d: %v", from, err)
	}
	got, err := r.ReadFetch(from, maxBytes)
	if err != nil {
		t.Fatalf("fetch read at %d: %v", from, err)
	}
	var expanded []replica.Entry
	for _, e := range got {
		if e.Count == 0 {
			expanded = append(expanded, e)
			continue
		}
		var dec kafkalog.Decoder
		var rb kafkalog.RecordBatch
		if _, err := dec.Decode(e.Batch, &rb); err != nil {
			t.Fatalf("fetch read at %d: a whole batch does not decode: %v", from, err)
		}
		if len(rb.Records) != int(e.Count) || rb.BaseOffset != e.Offset || rb.PartitionLeaderEpoch != e.LeaderEpoch {
			t.Fatalf("fetch read at %d: a whole batch entry (offset %d, epoch %d, %d records) holds %d records at %d, epoch %d",
				from, e.Offset, e.LeaderEpoch, e.Count, len(rb.Records), rb.BaseOffset, rb.PartitionLeaderEpoch)
		}
		expanded = append(expanded, BatchEntries(&rb, e.Batch, 0, len(rb.Records))...)
	}
	if d := cmp.Diff(want, expanded, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("fetch read at %d, %d bytes, against Read (-read +fetch):\n%s", from, maxBytes, d)
	}
	// a follower whose log ends at from appends what the fetch handed out
	// and then holds those records in its files
	if len(got) == 0 {
		return
	}
	clock := int64(1000)
	f, err := Open(vfs.NewMem(), "f-0", kafkalog.DefaultConfig(), &clock, kafkalog.WithLogStartOffset(got[0].Offset))
	if err != nil {
		t.Fatalf("open a follower at %d: %v", got[0].Offset, err)
	}
	if f.LogEndOffset() != got[0].Offset {
		t.Fatalf("a follower opened at %d ends at %d", got[0].Offset, f.LogEndOffset())
	}
	if err := f.AppendAsFollower(got); err != nil {
		t.Fatalf("follower append of the fetch at %d: %v", from, err)
	}
	held, err := f.FilesHold()
	if err != nil {
		t.Fatalf("the follower's files: %v", err)
	}
	// records read from inside a batch are written again, a batch each;
	// whole batches are stored as the leader stores them
	if d := cmp.Diff(expanded, held, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(replica.Entry{}, "Batch", "BatchStart")); d != "" {
		t.Fatalf("the follower of the fetch at %d (-fetched +follower's files):\n%s", from, d)
	}
	for _, e := range got {
		if e.Count == 0 {
			continue
		}
		i := slices.IndexFunc(held, func(h replica.Entry) bool { return h.Offset >= e.Offset })
		if i < 0 || !bytes.Equal(held[i].Batch, e.Batch) {
			t.Fatalf("the follower of the fetch at %d does not store the whole batch at %d as its leader does", from, e.Offset)
		}
	}
}

// gappedBatch is a batch of drawn records from offset base on, whose
// offsets may skip some (as the cleaner leaves them).
func gappedBatch(t *rapid.T, base int64, epoch int32) []byte {
	var b kafkalog.RecordBatch
	b.BaseOffset, b.PartitionLeaderEpoch = base, epoch
	b.Attributes = b.Attributes.WithCompression(kafkalog.Compression(rapid.IntRange(0, 4).Draw(t, "codec")))
	b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, -1
	off := base + int64(rapid.IntRange(0, 2).Draw(t, "first gap"))
	for i := range rapid.IntRange(1, 5).Draw(t, "records") {
		b.AppendRecord(off, 0, []byte{byte(i)}, fmt.Appendf(nil, "v%d", off))
		off += 1 + int64(rapid.IntRange(0, 2).Draw(t, "gap"))
	}
	// the cleaner may also have removed the batch's last records: its
	// header keeps the last offset delta
	b.LastOffsetDelta += int32(rapid.IntRange(0, 2).Draw(t, "trailing gap"))
	return b.AppendTo(nil)
}

// mirrored is every entry of m.
func mirrored(m *Mirror) []replica.Entry {
	var out []replica.Entry
	for _, e := range m.From(0) {
		out = append(out, *e)
	}
	return out
}
