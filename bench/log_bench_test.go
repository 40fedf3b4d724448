package bench

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/vfs"
)

// appendLapBytes is how much one lap of BenchmarkAppend writes before the file is
// removed and a fresh one started (outside the timer), so that a long run
// neither fills the disk nor grows one file without bound.
const appendLapBytes = 64 << 20

// nowMs is the wall-clock time the log benchmarks pass to kafkalog.
const nowMs = BaseTimestamp

// appendBatch is the 16 KiB batch of BenchmarkAppend: 130 records of 100 bytes,
// 16,443 bytes on disk, about what a producer's batch.size=16384 fills.
func appendBatch() []byte { return Workload{Records: 130, ValueBytes: 100}.Batch().AppendTo(nil) }

func benchDir(b *testing.B) string {
	b.Helper()
	dir, err := os.MkdirTemp("", "kafkalive-bench")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// BenchmarkAppend appends an already-encoded 16 KiB batch to a partition log on
// vfs.Default (a temp dir), index upkeep included, beside the floor limit-write:
// the same bytes written with one WriteAt each at the end of a plain file.
// Neither syncs while timed. Every appendLapBytes the file or log is synced
// (kafkalog's Close flushes), closed and started afresh, outside the timer; both
// sides do that, since writeback left behind by a lap slows the next one's
// writes in wall-clock time.
func BenchmarkAppend(b *testing.B) {
	batch := appendBatch()
	root := benchDir(b)
	b.Run("batch=16KiB", func(b *testing.B) {
		b.Run("impl=kafkalog", func(b *testing.B) { appendKafkalog(b, root, batch) })
		b.Run("impl=limit-write", func(b *testing.B) { appendWrite(b, root, batch) })
	})
}

func openBenchLog(b *testing.B, dir string) *kafkalog.Log {
	b.Helper()
	if err := os.RemoveAll(dir); err != nil {
		b.Fatal(err)
	}
	l, err := kafkalog.Open(vfs.Default, dir, kafkalog.DefaultConfig(), nowMs)
	if err != nil {
		b.Fatal(err)
	}
	return l
}

func appendKafkalog(b *testing.B, root string, batch []byte) {
	dir := filepath.Join(root, "bench-0")
	l := openBenchLog(b, dir)
	appendOne := func() {
		if _, err := l.AppendAsLeader(batch, 0, nowMs); err != nil {
			b.Fatal(err)
		}
	}
	for l.Size() < appendLapBytes { // warm-up lap: the page cache's pages get touched once
		appendOne()
	}
	clk := start(b, len(batch))
	for b.Loop() {
		if l.Size() >= appendLapBytes {
			clk.pause(b)
			if err := l.Close(); err != nil {
				b.Fatal(err)
			}
			l = openBenchLog(b, dir)
			clk.resume(b)
		}
		appendOne()
	}
	clk.report(b)
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
}

func appendWrite(b *testing.B, root string, batch []byte) {
	name := filepath.Join(root, "raw.log")
	create := func() vfs.File {
		f, err := vfs.Default.Create(name)
		if err != nil {
			b.Fatal(err)
		}
		return f
	}
	f, pos := create(), int64(0)
	write := func() {
		if _, err := f.WriteAt(batch, pos); err != nil {
			b.Fatal(err)
		}
		pos += int64(len(batch))
	}
	for pos < appendLapBytes {
		write()
	}
	clk := start(b, len(batch))
	for b.Loop() {
		if pos >= appendLapBytes {
			clk.pause(b)
			if err := f.Sync(); err != nil { // as kafkalog's Close does at its lap end
				b.Fatal(err)
			}
			f.Close()
			f, pos = create(), 0
			clk.resume(b)
		}
		write()
	}
	clk.report(b)
	f.Close()
}

// indexEntries is a full 10 MiB .index (Kafka's default segment.index.bytes):
// 1,310,720 entries.
const indexEntries = 10 << 20 / kafkalog.OffsetIndexEntrySize

// indexFixture is one full offset index, as kafkalog opens it and as the plain
// array the floor searches, with lookup targets.
type indexFixture struct {
	ix      *kafkalog.OffsetIndex
	offsets []int64 // absolute offset of each entry
	full    []int64 // targets anywhere in the index
	tail    []int64 // targets within the last 8 KiB (1024 entries)
}

const indexBase = 1_000_000

func newIndexFixture(b *testing.B) *indexFixture {
	b.Helper()
	raw := make([]byte, indexEntries*kafkalog.OffsetIndexEntrySize)
	f := &indexFixture{offsets: make([]int64, indexEntries)}
	for i := range indexEntries {
		rel := int32(i * 16) // a 16 KiB batch of ~130 records... every 16 offsets
		binary.BigEndian.PutUint32(raw[i*8:], uint32(rel))
		binary.BigEndian.PutUint32(raw[i*8+4:], uint32(i*4096))
		f.offsets[i] = indexBase + int64(rel)
	}
	fs := vfs.NewMem()
	file, err := fs.Create("00000000000001000000.index")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := file.WriteAt(raw, 0); err != nil {
		b.Fatal(err)
	}
	if f.ix, err = kafkalog.OpenOffsetIndex(file, indexBase, len(raw), false); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	last := f.offsets[indexEntries-1] + 15
	for range 4096 {
		f.full = append(f.full, indexBase+rng.Int64N(last-indexBase+1))
		f.tail = append(f.tail, f.offsets[indexEntries-1024]+rng.Int64N(1024*16))
	}
	return f
}

// searchFloor is the plain binary search the goal is measured against: the
// largest offset ≤ target in offsets, as an index into it (-1 if none).
func searchFloor(offsets []int64, target int64) int {
	lo, hi := 0, len(offsets)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if offsets[mid] <= target {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo - 1
}

// BenchmarkIndexLookup looks random offsets up in a full 10 MiB offset index:
// anywhere in it (index=full) and within its last 8 KiB (index=tail, where a
// caught-up reader looks), beside a plain binary search over the same entries
// (for the tail, over the last 1024 entries only, where a plain binary search takes about 70 ns).
func BenchmarkIndexLookup(b *testing.B) {
	f := newIndexFixture(b)
	tailOffsets := f.offsets[indexEntries-1024:]
	for _, w := range []struct {
		name    string
		targets []int64
		floor   []int64
	}{{"full", f.full, f.offsets}, {"tail", f.tail, tailOffsets}} {
		b.Run("index="+w.name, func(b *testing.B) {
			b.Run("impl=kafkalog", func(b *testing.B) {
				var sink int64
				clk := start(b, 0)
				i := 0
				for b.Loop() {
					sink += f.ix.Lookup(w.targets[i&4095]).Position
					i++
				}
				clk.report(b)
				_ = sink
			})
			b.Run("impl=limit-binarysearch", func(b *testing.B) {
				sink := 0
				clk := start(b, 0)
				i := 0
				for b.Loop() {
					sink += searchFloor(w.floor, w.targets[i&4095])
					i++
				}
				clk.report(b)
				_ = sink
			})
		})
	}
}

// recoverySegmentBytes is the size of BenchmarkRecovery's segment: 256 MiB, or
// KAFKALIVE_BENCH_SEGMENT_MIB MiB (1024 for the 1 GiB).
func recoverySegmentBytes() int64 {
	if v, err := strconv.Atoi(os.Getenv("KAFKALIVE_BENCH_SEGMENT_MIB")); err == nil && v > 0 {
		return int64(v) << 20
	}
	return 256 << 20
}

// BenchmarkRecovery recovers one large segment of 12.6 KB batches
// (100 records of 100 B) after an unclean shutdown: kafkalog.Open with recovery
// point 0 validates every batch by header and CRC, rebuilds the indexes and
// does not decode records. The floor limit-readcrc reads the same .log through
// one 1 MiB buffer and CRCs every batch. Closing the log is outside the timer.
func BenchmarkRecovery(b *testing.B) {
	size := recoverySegmentBytes()
	dir := filepath.Join(benchDir(b), "bench-0")
	l := openBenchLog(b, dir)
	batch := Workload{Records: 100, ValueBytes: 100}.Batch().AppendTo(nil)
	for l.Size()+int64(len(batch)) <= size {
		if _, err := l.AppendAsLeader(batch, 0, nowMs); err != nil {
			b.Fatal(err)
		}
	}
	segSize := l.Size()
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
	logFile := filepath.Join(dir, "00000000000000000000.log")
	b.Run("segment="+strconv.FormatInt(size>>20, 10)+"MiB", func(b *testing.B) {
		b.Run("impl=kafkalog", func(b *testing.B) { recoverKafkalog(b, dir, segSize) })
		b.Run("impl=limit-readcrc", func(b *testing.B) { recoverFloor(b, logFile, segSize) })
	})
}

func recoverKafkalog(b *testing.B, dir string, segSize int64) {
	open := func() *kafkalog.Log {
		l, err := kafkalog.Open(vfs.Default, dir, kafkalog.DefaultConfig(), nowMs, kafkalog.WithRecoveryPoint(0))
		if err != nil {
			b.Fatal(err)
		}
		return l
	}
	check := func(l *kafkalog.Log) {
		if r := l.RecoveryReport(); r.SegmentsRecovered != 1 || len(r.Truncations) != 0 || l.Size() != segSize {
			b.Fatalf("recovery did not run as set up: %+v, size %d of %d", r, l.Size(), segSize)
		}
		if err := l.Close(); err != nil {
			b.Fatal(err)
		}
	}
	check(open())
	clk := start(b, int(segSize))
	for b.Loop() {
		l := open()
		clk.pause(b)
		check(l)
		clk.resume(b)
	}
	clk.report(b)
}

func recoverFloor(b *testing.B, logFile string, segSize int64) {
	f, err := vfs.Default.Open(logFile)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	buf := Prewarm(kafkalog.RecoveryBufferSize)[:kafkalog.RecoveryBufferSize]
	if _, err := ReadCRC(f, segSize, buf); err != nil {
		b.Fatal(err)
	}
	clk := start(b, int(segSize))
	for b.Loop() {
		if _, err := ReadCRC(f, segSize, buf); err != nil {
			b.Fatal(err)
		}
	}
	clk.report(b)
}
