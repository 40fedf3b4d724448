package vfs_test

import (
	"fmt"
	"testing"

	"github.com/kafkalive/kafkalive/vfs"
)

// BenchmarkMemFSAppend appends 4 KiB records to 1 MiB segments, syncing every 16.
func BenchmarkMemFSAppend(b *testing.B) {
	m := vfs.NewMem()
	must(b, m.MkdirAll("topic-0", 0o755))
	rec := make([]byte, 4096)
	var f vfs.File
	var size int64
	b.SetBytes(int64(len(rec)))
	for i := range b.N {
		if size%(1<<20) == 0 {
			var err error
			f, err = m.Create(fmt.Sprintf("topic-0/%020d.log", i))
			must(b, err)
			size = 0
		}
		_, err := f.WriteAt(rec, size)
		must(b, err)
		size += int64(len(rec))
		if i%16 == 15 {
			must(b, f.Sync())
		}
	}
}

// newBig returns a MemFS with files files of size bytes each, half synced.
func newBig(b *testing.B, files, size int) *vfs.MemFS {
	m := vfs.NewMem()
	must(b, m.MkdirAll("d", 0o755))
	for i := range files {
		f, err := m.Create(fmt.Sprintf("d/%04d", i))
		must(b, err)
		_, err = f.WriteAt(make([]byte, size), 0)
		must(b, err)
		if i%2 == 0 {
			must(b, f.Sync())
		}
	}
	must(b, m.SyncDir("d"))
	must(b, m.SyncDir(""))
	return m
}

// BenchmarkMemFSClone forks 100 files of 64 KiB and writes one record to one of them.
func BenchmarkMemFSClone(b *testing.B) {
	m := newBig(b, 100, 64<<10)
	for b.Loop() {
		c := m.Clone()
		f, err := c.OpenReadWrite("d/0000")
		must(b, err)
		_, err = f.WriteAt([]byte("x"), 64<<10)
		must(b, err)
	}
}

// BenchmarkMemFSPowerCut cuts the power on 100 files of 64 KiB.
func BenchmarkMemFSPowerCut(b *testing.B) {
	m := newBig(b, 100, 64<<10)
	for b.Loop() {
		c := m.Clone()
		c.PowerCut(func(_ string, durable, cached int64) int64 { return (cached - durable) / 2 })
	}
}

// BenchmarkMemFSCloneFiles forks a file system of n segment-like files of
// 16 KiB (the world's segment.bytes), all synced, then appends one record to
// one of them, as a live world's next tick does: the clone shares every
// file's bytes, so its cost is a small copy per file, the same whatever the
// files hold, and the append copies one page table and one page.
func BenchmarkMemFSCloneFiles(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		for _, size := range []int{16 << 10, 1 << 20} {
			m := newBig(b, n, size)
			b.Run(fmt.Sprintf("files=%d/size=%dKiB", n, size>>10), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					c := m.Clone()
					f, err := c.OpenReadWrite("d/0000")
					must(b, err)
					_, err = f.WriteAt([]byte("x"), int64(size))
					must(b, err)
				}
			})
		}
	}
}
