package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/cluster/defaultworld"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/vfs"
)

const damageRoot = "/data"

// A log dir written by kafkalog (leader and follower appends, one batch or
// several at a time, any codec and timestamps, segments and index entries
// of drawn sizes, shut down cleanly) verifies without a problem; then one
// drawn damage is done to it: a bit flipped anywhere in a segment, an
// index, a time index or the recovery points, a file cut anywhere, or two
// segments' files swapped. log-dirs then reports a problem whenever a
// broker would read the directory wrong: unless it reports one, every
// batch checks (CRC, length), offsets increase within and across
// segments, each partition's log ends at its recovery point, and a lookup
// of every offset and of every batch's timestamp through the indexes finds
// what a scan of the log finds. A flipped bit under a batch's CRC, a
// segment cut inside a batch and swapped segments are always reported.
//
// Replay a failure with go test ./cmd/kafkalive -run TestLogDirsFindsRandomDamage -rapid.seed=SEED.
func TestLogDirsFindsRandomDamage(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fsys := writeDataDir(t)
		if d := describeMem(t, fsys); len(d.problems) > 0 {
			t.Fatalf("an undamaged log dir has problems:\n%s", strings.Join(d.problems, "\n"))
		}
		damaged := fsys.Clone()
		what, mustFind := damage(t, damaged)
		d := describeMem(t, damaged)
		if len(d.problems) > 0 {
			return
		}
		if mustFind {
			t.Fatalf("%s: log-dirs found nothing", what)
		}
		if why := readsWrong(damaged); why != "" {
			t.Fatalf("%s: log-dirs found nothing, yet %s", what, why)
		}
	})
}

// describeMem runs log-dirs' description on the log dir of fsys.
func describeMem(t *rapid.T, fsys vfs.FS) *logDirDesc {
	d, err := describeLogDir(fsys, damageRoot)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// writeDataDir writes a log dir of one to three partitions and shuts it
// down cleanly.
func writeDataDir(t *rapid.T) *vfs.MemFS {
	fsys := vfs.NewMem()
	cfg := kafkalog.DefaultConfig()
	cfg.SegmentBytes = rapid.Int64Range(3000, 8000).Draw(t, "segment.bytes")
	cfg.IndexIntervalBytes = rapid.Int64Range(1, 1500).Draw(t, "index.interval.bytes")
	dd, err := kafkalog.OpenDataDir(fsys, damageRoot, 0, kafkalog.DataDirOptions{Config: func(kafkalog.TopicPartition) kafkalog.Config { return cfg }})
	if err != nil {
		t.Fatal(err)
	}
	now := int64(1_700_000_000_000)
	for p := range int32(rapid.IntRange(1, 3).Draw(t, "partitions")) {
		l, err := dd.CreateLog(kafkalog.TopicPartition{Topic: "t", Partition: p}, cfg, now)
		if err != nil {
			t.Fatal(err)
		}
		for i := range rapid.IntRange(0, 40).Draw(t, "appends") {
			now += rapid.Int64Range(-2000, 5000).Draw(t, "clock step")
			chunk, epoch := drawChunk(t, i, l.LogEndOffset(), now)
			if rapid.Bool().Draw(t, "as leader") {
				_, err = l.AppendAsLeader(chunk[0], epoch, now)
			} else {
				_, err = l.AppendAsFollower(slices.Concat(chunk...), now)
			}
			if err != nil {
				t.Fatalf("append %d: %v", i, err)
			}
		}
	}
	if err := dd.Close(7); err != nil {
		t.Fatal(err)
	}
	return fsys
}

// drawChunk draws one to four batches that follow offset next, of up to
// eight records each (only the first is appended as a leader's).
func drawChunk(t *rapid.T, i int, next, now int64) ([][]byte, int32) {
	epoch := int32(rapid.IntRange(0, 3).Draw(t, "leader epoch"))
	var out [][]byte
	for range rapid.IntRange(1, 4).Draw(t, "batches") {
		var b kafkalog.RecordBatch
		b.BaseOffset, b.PartitionLeaderEpoch, b.ProducerID, b.ProducerEpoch, b.BaseSequence = next, epoch, -1, -1, -1
		b.Attributes = b.Attributes.WithCompression(kafkalog.Compression(rapid.IntRange(0, 4).Draw(t, "codec")))
		for r := range int64(rapid.IntRange(1, 8).Draw(t, "records")) {
			ts := now + rapid.Int64Range(-1000, 1000).Draw(t, "timestamp skew")
			b.AppendRecord(next+r, ts, []byte(fmt.Sprint(i)), make([]byte, rapid.IntRange(0, 60).Draw(t, "value bytes")))
		}
		out = append(out, b.AppendTo(nil))
		next += int64(len(b.Records))
	}
	return out, epoch
}

// damage does one drawn damage to the log dir; it says what, and whether
// log-dirs must find it whatever else holds.
func damage(t *rapid.T, fsys *vfs.MemFS) (string, bool) {
	var files []string
	parts, _ := fsys.List(damageRoot)
	for _, p := range parts {
		if _, ok := kafkalog.ParseTopicPartitionDir(p); !ok {
			continue
		}
		names, _ := fsys.List(fsys.PathJoin(damageRoot, p))
		for _, n := range names {
			if _, suffix, ok := kafkalog.ParseSegmentFileName(n); ok && suffix != kafkalog.SnapshotSuffix {
				files = append(files, fsys.PathJoin(damageRoot, p, n))
			}
		}
	}
	files = append(files, fsys.PathJoin(damageRoot, kafkalog.RecoveryPointCheckpointFile))
	path := rapid.SampledFrom(files).Draw(t, "file")
	b := readMem(t, fsys, path)
	switch rapid.IntRange(0, 2).Draw(t, "damage") {
	case 0:
		if len(b) == 0 {
			return "nothing", false
		}
		at := rapid.IntRange(0, len(b)-1).Draw(t, "byte")
		b[at] ^= 1 << rapid.IntRange(0, 7).Draw(t, "bit")
		writeMem(t, fsys, path, b)
		return fmt.Sprintf("bit flipped at byte %d of %s", at, path), strings.HasSuffix(path, kafkalog.LogSuffix) && underCRC(b, at)
	case 1:
		n := rapid.IntRange(0, len(b)).Draw(t, "cut at")
		writeMem(t, fsys, path, b[:n])
		return fmt.Sprintf("%s cut to %d of %d bytes", path, n, len(b)), strings.HasSuffix(path, kafkalog.LogSuffix) && !atBatchBoundary(b, n)
	default:
		dir := path[:strings.LastIndexByte(path, '/')]
		var logs []string
		names, _ := fsys.List(dir)
		for _, n := range names {
			if strings.HasSuffix(n, kafkalog.LogSuffix) {
				logs = append(logs, fsys.PathJoin(dir, n))
			}
		}
		if len(logs) < 2 {
			return "nothing", false
		}
		i := rapid.IntRange(0, len(logs)-2).Draw(t, "swap")
		a, c := readMem(t, fsys, logs[i]), readMem(t, fsys, logs[i+1])
		writeMem(t, fsys, logs[i], c)
		writeMem(t, fsys, logs[i+1], a)
		return fmt.Sprintf("%s and %s swapped", logs[i], logs[i+1]), len(a) > 0 && len(c) > 0
	}
}

// underCRC reports whether byte at of the segment b (before the flip: the
// header fields are where they were) lies where a batch's CRC covers it
// or is the CRC itself.
func underCRC(b []byte, at int) bool {
	for pos := 0; pos < len(b); {
		h, err := kafkalog.ReadBatchHeader(b[pos:])
		if err != nil {
			return false
		}
		end := pos + int(h.Size())
		if at < end {
			return at >= pos+17 // crc, attributes and on
		}
		pos = end
	}
	return false
}

// atBatchBoundary reports whether n bytes of segment b end between two
// batches.
func atBatchBoundary(b []byte, n int) bool {
	for pos := 0; pos <= n; {
		if pos == n {
			return true
		}
		h, err := kafkalog.ReadBatchHeader(b[pos:])
		if err != nil {
			return false
		}
		pos += int(h.Size())
	}
	return false
}

// readsWrong says how a broker would read the log dir wrong ("" if it
// would not): a reader independent of log-dirs' own.
func readsWrong(fsys *vfs.MemFS) string {
	clean, _ := kafkalog.ReadCleanShutdownMarker(fsys, damageRoot)
	rps, _ := kafkalog.ReadOffsetCheckpoint(fsys, fsys.PathJoin(damageRoot, kafkalog.RecoveryPointCheckpointFile))
	parts, _ := fsys.List(damageRoot)
	for _, p := range parts {
		tp, ok := kafkalog.ParseTopicPartitionDir(p)
		if !ok {
			continue
		}
		dir := fsys.PathJoin(damageRoot, p)
		names, _ := fsys.List(dir)
		end := int64(-1)
		var bases []int64
		for _, n := range names {
			if base, suffix, ok := kafkalog.ParseSegmentFileName(n); ok && suffix == kafkalog.LogSuffix {
				bases = append(bases, base)
			}
		}
		for i, base := range bases {
			next := int64(1) << 62
			if i+1 < len(bases) {
				next = bases[i+1]
			}
			batches, why := readBatches(fsys, dir, base, next, end)
			if why != "" {
				return why
			}
			if why := lookupsWrong(fsys, dir, base, batches); why != "" {
				return why
			}
			end = base - 1
			if len(batches) > 0 {
				end = batches[len(batches)-1].last
			}
		}
		if rp, ok := rps[tp]; clean.Present && ok && len(bases) > 0 && rp != end+1 {
			return fmt.Sprintf("%s ends at %d while its recovery point after a clean shutdown is %d", tp, end+1, rp)
		}
	}
	return ""
}

// readBatches reads the segment based at base, whose offsets must lie
// after prevLast and below next.
func readBatches(fsys *vfs.MemFS, dir string, base, next, prevLast int64) ([]span, string) {
	b, _ := readFile(fsys, fsys.PathJoin(dir, kafkalog.SegmentFileName(base, kafkalog.LogSuffix)))
	var out []span
	for pos := 0; pos < len(b); {
		h, n, err := kafkalog.CheckBatch(b[pos:])
		if err != nil {
			return nil, fmt.Sprintf("segment %d at position %d: %v", base, pos, err)
		}
		if h.BaseOffset <= prevLast || h.BaseOffset < base || h.LastOffset() >= next || h.LastOffset() < h.BaseOffset {
			return nil, fmt.Sprintf("segment %d at position %d holds offsets %d..%d out of order", base, pos, h.BaseOffset, h.LastOffset())
		}
		out = append(out, span{pos: int64(pos), first: h.BaseOffset, last: h.LastOffset(), maxTimestamp: h.MaxTimestamp})
		prevLast = h.LastOffset()
		pos += n
	}
	return out, ""
}

// lookupsWrong looks up every offset and every batch's max timestamp of
// the segment through its indexes, as Kafka's LogSegment.read and
// findOffsetByTimestamp do, and compares with a scan.
func lookupsWrong(fsys *vfs.MemFS, dir string, base int64, batches []span) string {
	oidx, _ := readFile(fsys, fsys.PathJoin(dir, kafkalog.SegmentFileName(base, kafkalog.IndexSuffix)))
	tidx, _ := readFile(fsys, fsys.PathJoin(dir, kafkalog.SegmentFileName(base, kafkalog.TimeIndexSuffix)))
	position := func(off int64) int64 { // OffsetIndex.lookup: the greatest entry at or below off
		pos := int64(0)
		for i := 0; i+8 <= len(oidx); i += 8 {
			e, p := base+int64(beUint32(oidx[i:])), int64(beUint32(oidx[i+4:]))
			if i > 0 && e == base {
				break // a preallocated slot
			}
			if e > off {
				break
			}
			pos = p
		}
		return pos
	}
	scanFrom := func(pos int64, found func(span) bool) (span, bool) {
		i := slices.IndexFunc(batches, func(b span) bool { return b.pos == pos })
		if i < 0 {
			return span{}, false
		}
		for _, b := range batches[i:] {
			if found(b) {
				return b, true
			}
		}
		return span{}, false
	}
	for _, b := range batches {
		for off := b.first; off <= b.last; off++ {
			got, ok := scanFrom(position(off), func(s span) bool { return s.last >= off })
			if !ok || got.pos != b.pos {
				return fmt.Sprintf("segment %d: offset %d, at position %d, is looked up at %d", base, off, b.pos, got.pos)
			}
		}
		ts := b.maxTimestamp
		want := batches[slices.IndexFunc(batches, func(s span) bool { return s.maxTimestamp >= ts })]
		from := base // TimeIndex.lookup: the greatest entry at or below ts
		for i := 0; i+12 <= len(tidx); i += 12 {
			e, o := int64(beUint64(tidx[i:])), base+int64(beUint32(tidx[i+8:]))
			if i > 0 && o == base || e > ts {
				break
			}
			from = o
		}
		got, ok := scanFrom(position(from), func(s span) bool { return s.maxTimestamp >= ts })
		if !ok || got.pos != want.pos {
			return fmt.Sprintf("segment %d: timestamp %d, first reached at position %d, is looked up at %d", base, ts, want.pos, got.pos)
		}
	}
	return ""
}

func beUint32(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}
func beUint64(b []byte) uint64 { return uint64(beUint32(b))<<32 | uint64(beUint32(b[4:])) }

func readFile(fsys vfs.FS, path string) ([]byte, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n, err := f.Size()
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	return b, vfs.ReadAtFull(f, b, 0)
}

func readMem(t *rapid.T, fsys vfs.FS, path string) []byte {
	b, err := readFile(fsys, path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeMem(t *rapid.T, fsys vfs.FS, path string, b []byte) {
	f, err := fsys.Create(path)
	if err == nil {
		_, err = f.WriteAt(b, 0)
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
}

// The brokers of the default world, running, stopped cleanly, killed and
// started again, and their topics compacted, deleted and grown by clients:
// log-dirs finds nothing wrong in any of their log dirs, at any moment
// drawn.
//
// Replay a failure with go test ./cmd/kafkalive -run TestLogDirsTrustsTheWorldsBrokers -rapid.seed=SEED.
func TestLogDirsTrustsTheWorldsBrokers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w, err := defaultworld.New(rapid.Uint64Range(1, 1000).Draw(t, "seed"))
		if err != nil {
			t.Fatal(err)
		}
		for i := range rapid.IntRange(1, 4).Draw(t, "steps") {
			b := rapid.Int32Range(1, 3).Draw(t, fmt.Sprintf("broker %d", i))
			switch rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("action %d", i)) {
			case 0:
				err = w.Stop(b)
			case 1:
				err = w.Kill(b)
			case 2:
				err = w.Start(b)
			}
			_ = err // a broker already in that state refuses: nothing happens
			if err := w.RunFor(rapid.Int64Range(0, 60_000).Draw(t, fmt.Sprintf("run ms %d", i))); err != nil {
				t.Fatal(err)
			}
			for id := int32(1); id <= 3; id++ {
				fsys, err := w.BrokerFS(id)
				if err != nil {
					t.Fatal(err)
				}
				d, err := describeLogDir(fsys, cluster.LogDir)
				if err != nil {
					t.Fatal(err)
				}
				if len(d.problems) > 0 {
					t.Fatalf("step %d: broker %d (%s): %s", i, id, w.State().Brokers[id-1].State, strings.Join(d.problems, "\n"))
				}
			}
		}
	})
}
