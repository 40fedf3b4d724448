package vfs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/kafkalive/kafkalive/vfs/vfstest"
)

// newDurable returns a MemFS holding durable directory d with durable, synced files.
func newDurable(t *testing.T, files map[string]string) *vfs.MemFS {
	t.Helper()
	m := vfs.NewMem()
	must(t, m.MkdirAll("d", 0o755))
	must(t, m.SyncDir(""))
	for name, content := range files {
		f, err := m.Create("d/" + name)
		must(t, err)
		_, err = f.WriteAt([]byte(content), 0)
		must(t, err)
		must(t, f.Sync())
		must(t, f.Close())
	}
	must(t, m.SyncDir("d"))
	return m
}

// appendTo appends p to the named file without syncing.
func appendTo(t *testing.T, m *vfs.MemFS, name, p string) {
	t.Helper()
	f, err := m.OpenReadWrite(name)
	must(t, err)
	size, err := f.Size()
	must(t, err)
	_, err = f.WriteAt([]byte(p), size)
	must(t, err)
	must(t, f.Close())
}

func read(t *testing.T, m vfs.FS, name string) string {
	t.Helper()
	content, err := vfstest.ReadFile(m, name)
	must(t, err)
	return content
}

// TestPowerCutTearsAtEveryByte cuts the power once for every length of an unsynced
// append that could survive, and once each for lengths out of range.
func TestPowerCutTearsAtEveryByte(t *testing.T) {
	const synced, unsynced = "synced|", "0123456789"
	for k := int64(-1); k <= int64(len(unsynced))+1; k++ {
		m := newDurable(t, map[string]string{"a.log": synced})
		appendTo(t, m, "d/a.log", unsynced)
		var asked []string
		m.PowerCut(func(name string, durable, cached int64) int64 {
			asked = append(asked, fmt.Sprintf("%s %d %d", name, durable, cached))
			return k
		})
		kept := unsynced[:min(max(k, 0), int64(len(unsynced)))]
		if diff := cmp.Diff([]string{"d/a.log 7 17"}, asked); diff != "" {
			t.Fatalf("keep=%d: the callback was asked (-want +got):\n%s", k, diff)
		}
		if diff := cmp.Diff(synced+kept, read(t, m, "d/a.log")); diff != "" {
			t.Fatalf("keep=%d: after the power cut the log holds (-want +got):\n%s", k, diff)
		}
	}
}

// TestPowerCutEnumeratesEveryOutcome shows the exhaustive use: two files with unsynced
// tails give (1+len1)*(1+len2) distinct outcomes, and each is reachable exactly once.
func TestPowerCutEnumeratesEveryOutcome(t *testing.T) {
	base := newDurable(t, map[string]string{"a": "A", "b": "B"})
	appendTo(t, base, "d/a", "12")
	appendTo(t, base, "d/b", "345")
	seen := map[string]int{}
	for ka := int64(0); ka <= 2; ka++ {
		for kb := int64(0); kb <= 3; kb++ {
			m := base.Clone()
			m.PowerCut(func(name string, _, _ int64) int64 {
				if name == "d/a" {
					return ka
				}
				return kb
			})
			seen[read(t, m, "d/a")+"|"+read(t, m, "d/b")]++
		}
	}
	want := map[string]int{}
	for _, a := range []string{"A", "A1", "A12"} {
		for _, b := range []string{"B", "B3", "B34", "B345"} {
			want[a+"|"+b] = 1
		}
	}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Fatalf("outcomes of the power cuts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("A12", read(t, base, "d/a")); diff != "" {
		t.Fatalf("the original, never cut, changed (-want +got):\n%s", diff)
	}
}

func TestPowerCutRandIsDeterministic(t *testing.T) {
	outcome := func(seed uint64) string {
		m := newDurable(t, map[string]string{"a": "", "b": "", "c": ""})
		for _, name := range []string{"d/a", "d/b", "d/c"} {
			appendTo(t, m, name, "0123456789abcdef")
		}
		m.PowerCutRand(newRand(seed))
		tree, err := vfstest.ReadTree(m, "")
		must(t, err)
		return fmt.Sprint(tree)
	}
	seen := map[string]bool{}
	for seed := uint64(0); seed < 20; seed++ {
		first := outcome(seed)
		if diff := cmp.Diff(first, outcome(seed)); diff != "" {
			t.Fatalf("seed %d gave two different power cuts (-first +second):\n%s", seed, diff)
		}
		seen[first] = true
	}
	if len(seen) < 10 {
		t.Fatalf("20 seeds gave only %d different power cuts of 3 files with 16 unsynced bytes each", len(seen))
	}
}

func TestCrashKillsHandlesAndKeepsThePageCache(t *testing.T) {
	m := newDurable(t, map[string]string{"a": "durable"})
	f, err := m.OpenReadWrite("d/a")
	must(t, err)
	_, err = f.WriteAt([]byte("+cached"), 7)
	must(t, err)
	r, err := m.Open("d/a")
	must(t, err)
	m.Crash()
	uses := map[string]func() error{
		"ReadAt":   func() error { _, err := r.ReadAt(make([]byte, 1), 0); return err },
		"WriteAt":  func() error { _, err := f.WriteAt([]byte("x"), 0); return err },
		"Sync":     f.Sync,
		"Truncate": func() error { return f.Truncate(0) },
		"Size":     func() error { _, err := f.Size(); return err },
		"Close":    r.Close,
	}
	for name, use := range uses {
		err := use()
		if !errors.Is(err, vfs.ErrCrashed) || !errors.Is(err, fs.ErrClosed) {
			t.Errorf("%s on a handle from before the crash: got %v, want ErrCrashed (an fs.ErrClosed)", name, err)
		}
	}
	if diff := cmp.Diff("durable+cached", read(t, m, "d/a")); diff != "" {
		t.Fatalf("after a process crash the file holds (-want +got):\n%s", diff)
	}
	durable, cached, err := m.SizeOnDisk("d/a")
	must(t, err)
	if diff := cmp.Diff([2]int64{7, 14}, [2]int64{durable, cached}); diff != "" {
		t.Fatalf("durable and cached sizes after a crash (-want +got):\n%s", diff)
	}
}

func TestDurableAndCacheBytes(t *testing.T) {
	m := newDurable(t, map[string]string{"a.log": "12345", "b.log": "123"})
	must(t, m.MkdirAll("d/e", 0o755))
	f, err := m.Create("d/e/c.log")
	must(t, err)
	_, err = f.WriteAt([]byte("1234"), 0)
	must(t, err)
	appendTo(t, m, "d/a.log", "67")
	must(t, m.MkdirAll("de", 0o755))
	appendTo(t, m, "de/x.log", "not under d")
	for _, tc := range []struct {
		prefix         string
		durable, cache int64
	}{
		{"", 8, 17},
		{"/", 8, 17},
		{"d", 8, 6},
		{"d/", 8, 6},
		{"d/a.log", 5, 2},
		{"d/e", 0, 4},
		{"d/e/c.log", 0, 4},
		{"d/missing", 0, 0},
		{"d/a", 0, 0}, // a prefix of a name, not a path: no file
	} {
		got := [2]int64{m.DurableBytes(tc.prefix), m.CacheBytes(tc.prefix)}
		if diff := cmp.Diff([2]int64{tc.durable, tc.cache}, got); diff != "" {
			t.Errorf("DurableBytes, CacheBytes(%q) (-want +got):\n%s", tc.prefix, diff)
		}
	}
	must(t, f.Sync())
	if got := m.CacheBytes("d/e"); got != 0 {
		t.Fatalf("CacheBytes after Sync = %d, want 0", got)
	}
}

func TestModTimeComesFromSetNow(t *testing.T) {
	m := vfs.NewMem()
	f, err := m.Create("a")
	must(t, err)
	m.SetNow(1_700_000_000_123)
	_, err = f.WriteAt([]byte("x"), 0)
	must(t, err)
	fi, err := m.Stat("a")
	must(t, err)
	if diff := cmp.Diff(time.UnixMilli(1_700_000_000_123).UTC(), fi.ModTime()); diff != "" {
		t.Fatalf("ModTime after a write at SetNow(1700000000123) (-want +got):\n%s", diff)
	}
	fi, err = m.Stat("/")
	must(t, err)
	if !fi.IsDir() || fi.ModTime().UnixMilli() != 0 {
		t.Fatalf("the root: IsDir %v, ModTime %v; want a directory stamped 0", fi.IsDir(), fi.ModTime())
	}
}

func TestMemFSString(t *testing.T) {
	m := newDurable(t, map[string]string{"a.log": "synced|"})
	appendTo(t, m, "d/a.log", "appended")
	appendTo(t, m, "d/b.log", "bbbb")
	must(t, m.MkdirAll("d/e/f", 0o755))
	must(t, m.SyncDir("d/e")) // durable in e, but e itself is not in d
	want := "d/\n" +
		"d/a.log  durable=7 cached=15\n" +
		"d/b.log  durable=0 cached=4  (entry not synced)\n" +
		"d/e/  (entry not synced)\n" +
		"d/e/f/  (entry not synced)\n"
	if diff := cmp.Diff(want, m.String()); diff != "" {
		t.Fatalf("String (-want +got):\n%s", diff)
	}
}
