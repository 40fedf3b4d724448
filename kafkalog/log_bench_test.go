package kafkalog

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/kafkalive/kafkalive/vfs"
)

// benchFS returns the file system a benchmark runs on: the OS in a temporary
// directory, or a MemFS.
func benchFS(b *testing.B, os bool) (vfs.FS, string) {
	if os {
		return vfs.Default, b.TempDir()
	}
	return vfs.NewMem(), "bench"
}

const benchWindow = 64 << 20 // bytes written before the benchmark starts over (timer stopped)

// BenchmarkAppend16KiB appends already-encoded 16 KiB batches as leader (validation,
// offset assignment, index upkeep included), against a plain WriteAt loop of the same
// bytes on the same file system.
func BenchmarkAppend16KiB(b *testing.B) {
	batch := valueBatch(1, string(make([]byte, 16<<10-80)))
	for _, fsName := range []string{"mem", "os"} {
		b.Run(fsName+"/log", func(b *testing.B) {
			runtime.GC()
			fsys, root := benchFS(b, fsName == "os")
			cfg := DefaultConfig()
			cfg.SegmentBytes = benchWindow
			l, err := Open(fsys, fsys.PathJoin(root, "topic-0"), cfg, 0)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(batch)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if l.Size() >= benchWindow-int64(len(batch)) {
					b.StopTimer()
					if err := l.TruncateFullyAndStartAt(l.LogEndOffset(), 0); err != nil {
						b.Fatal(err)
					}
					if _, err := l.DeleteExpiredFiles(1 << 40); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				if _, err := l.AppendAsLeader(batch, 0, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fsName+"/raw", func(b *testing.B) {
			runtime.GC()
			fsys, root := benchFS(b, fsName == "os")
			if err := fsys.MkdirAll(root, 0o755); err != nil {
				b.Fatal(err)
			}
			f, err := fsys.Create(fsys.PathJoin(root, "raw.log"))
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			b.SetBytes(int64(len(batch)))
			b.ResetTimer()
			var pos int64
			for i := 0; i < b.N; i++ {
				if pos >= benchWindow-int64(len(batch)) {
					b.StopTimer()
					if err := f.Truncate(0); err != nil {
						b.Fatal(err)
					}
					pos = 0
					b.StartTimer()
				}
				if _, err := f.WriteAt(batch, pos); err != nil {
					b.Fatal(err)
				}
				pos += int64(len(batch))
			}
		})
	}
}

// BenchmarkRecovery recovers a 64 MiB segment of 16 KiB batches (validate every batch
// by header and CRC, rebuild the indexes: Open after an unclean shutdown; the Close
// after it is not timed), against reading the file through the same 1 MiB buffer and
// CRC-ing it.
func BenchmarkRecovery(b *testing.B) {
	fsys, root := benchFS(b, true)
	dir := fsys.PathJoin(root, "topic-0")
	cfg := DefaultConfig()
	l, err := Open(fsys, dir, cfg, 0)
	if err != nil {
		b.Fatal(err)
	}
	batch := valueBatch(1, string(make([]byte, 16<<10-80)))
	for l.Size() < benchWindow {
		if _, err := l.AppendAsLeader(batch, 0, 0); err != nil {
			b.Fatal(err)
		}
	}
	size := l.Size()
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
	b.Run("recover", func(b *testing.B) {
		runtime.GC()
		b.SetBytes(size)
		for i := 0; i < b.N; i++ {
			l, err := Open(fsys, dir, cfg, 0)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer() // closing (the flush of a clean shutdown) is not recovery
			if r := l.RecoveryReport(); r.SegmentsRecovered != 1 || l.Size() != size {
				b.Fatalf("recovery did not run as set up: %+v, %d of %d bytes", r, l.Size(), size)
			}
			if err := l.Close(); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	})
	b.Run("read+crc", func(b *testing.B) {
		runtime.GC()
		b.SetBytes(size)
		buf := make([]byte, RecoveryBufferSize)
		for i := 0; i < b.N; i++ {
			f, err := fsys.Open(fsys.PathJoin(dir, SegmentFileName(0, LogSuffix)))
			if err != nil {
				b.Fatal(err)
			}
			var crc uint32
			for p := int64(0); p < size; {
				n, _ := f.ReadAt(buf, p)
				if n == 0 {
					break
				}
				crc = UpdateCRC32C(crc, buf[:n])
				p += int64(n)
			}
			f.Close()
			if crc == 1 {
				b.Log(crc)
			}
		}
	})
}

// cloneBenchLog returns a log on a MemFS of segments segments of segBytes
// each, filled with 1 KiB batches, the last one half full.
func cloneBenchLog(b *testing.B, segments int, segBytes int64) (*vfs.MemFS, *Log) {
	fsys := vfs.NewMem()
	cfg := DefaultConfig()
	cfg.SegmentBytes = segBytes
	l, err := Open(fsys, "bench/topic-0", cfg, 0)
	if err != nil {
		b.Fatal(err)
	}
	batch := valueBatch(1, string(make([]byte, 1<<10)))
	for len(l.segments) < segments || l.active().size < segBytes/2 {
		if _, err := l.AppendAsLeaderNoCopy(slices.Clone(batch), 0, 0); err != nil {
			b.Fatal(err)
		}
	}
	return fsys, l
}

// BenchmarkLogClone clones a log of 1 or 100 segments of 16 KiB (the world's
// segment.bytes) or 1 MiB: the log alone (its file system cloned once
// before), the log with its file system, and that followed by the append
// that a live log makes next, which copies what it changes (the active
// segment's page table and last page, its files opened on the clone).
func BenchmarkLogClone(b *testing.B) {
	batch := valueBatch(1, string(make([]byte, 1<<10)))
	for _, segBytes := range []int64{16 << 10, 1 << 20} {
		for _, segments := range []int{1, 100} {
			fsys, l := cloneBenchLog(b, segments, segBytes)
			name := fmt.Sprintf("segments=%d/segment.bytes=%dKiB", segments, segBytes>>10)
			b.Run(name+"/log", func(b *testing.B) {
				b.ReportAllocs()
				cfs := fsys.Clone()
				for b.Loop() {
					l.Clone(cfs, nil)
				}
			})
			b.Run(name+"/log+fs", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					l.Clone(fsys.Clone(), nil)
				}
			})
			b.Run(name+"/log+fs+append", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					c := l.Clone(fsys.Clone(), nil)
					if _, err := c.AppendAsLeader(slices.Clone(batch), 0, 0); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
