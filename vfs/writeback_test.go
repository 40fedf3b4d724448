package vfs_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/kafkalive/kafkalive/vfs/vfstest"
)

// flushUntil wakes the flusher every LinuxDirtyWritebackIntervalMs from fromMs up to
// and including toMs with Linux's expiry, and returns the wakes that wrote something.
func flushUntil(m *vfs.MemFS, fromMs, toMs int64) []int64 {
	var wrote []int64
	for now := fromMs; now <= toMs; now += vfs.LinuxDirtyWritebackIntervalMs {
		m.SetNow(now)
		if n, _ := m.WritebackExpired(now, vfs.LinuxDirtyExpireMs); n > 0 {
			wrote = append(wrote, now)
		}
	}
	return wrote
}

// TestWritebackAtTheFirstWakeAfterExpiry: a file dirtied at 12 s is written back by
// the flusher's wake at 45 s, the first at or after 12+30 s, and not by the one at 40 s.
func TestWritebackAtTheFirstWakeAfterExpiry(t *testing.T) {
	m := newDurable(t, map[string]string{"a.log": "synced|"})
	m.SetNow(12_000)
	appendTo(t, m, "d/a.log", "appended")

	if got := flushUntil(m, 15_000, 40_000); len(got) != 0 {
		t.Fatalf("the flusher wrote the file back at %v, before it was dirty for 30 s", got)
	}
	if d, c, _ := m.SizeOnDisk("d/a.log"); d != 7 || c != 15 {
		t.Fatalf("at 40 s: %d durable bytes of %d, want 7 of 15", d, c)
	}
	m.SetNow(45_000)
	inodes, bytes := m.WritebackExpired(45_000, vfs.LinuxDirtyExpireMs)
	if diff := cmp.Diff([2]int64{1, 8}, [2]int64{int64(inodes), bytes}); diff != "" {
		t.Errorf("the wake at 45 s wrote back [inodes bytes] (-want +got):\n%s", diff)
	}
	m.PowerCut(nil)
	if diff := cmp.Diff(vfstest.Tree{"d/": "", "d/a.log": "synced|appended"}, readTree(t, m)); diff != "" {
		t.Errorf("after the wake at 45 s, a power cut leaves (-want +got):\n%s", diff)
	}
}

// TestRedirtiedFileKeepsItsFirstDirtiedTime: writes at 1 s, 20 s and 29 s keep the
// file's dirtied time at 1 s, so the first wake at or after 31 s (35 s) writes all
// three back, the one 6 s old too; a write after that writeback starts a new dirtied
// time.
func TestRedirtiedFileKeepsItsFirstDirtiedTime(t *testing.T) {
	m := newDurable(t, map[string]string{"a.log": ""})
	for _, at := range []int64{1_000, 20_000, 29_000} {
		m.SetNow(at)
		appendTo(t, m, "d/a.log", "x")
		if got, dirty, err := m.Dirtied("d/a.log"); err != nil || !dirty || got != 1_000 {
			t.Fatalf("after a write at %d ms: Dirtied = %d, %v, %v; want 1000, true", at, got, dirty, err)
		}
	}
	if got := flushUntil(m, 5_000, 30_000); len(got) != 0 {
		t.Fatalf("the flusher wrote back at %v, before 31 s", got)
	}
	if got := flushUntil(m, 35_000, 35_000); len(got) != 1 {
		t.Fatalf("the wake at 35 s wrote nothing back")
	}
	if _, dirty, _ := m.Dirtied("d/a.log"); dirty {
		t.Errorf("after its writeback the file is still dirty")
	}
	if d, _, _ := m.SizeOnDisk("d/a.log"); d != 3 {
		t.Errorf("after the wake at 35 s: %d durable bytes, want all 3 (the young write goes with the old)", d)
	}
	m.SetNow(36_000)
	appendTo(t, m, "d/a.log", "y")
	if got, dirty, _ := m.Dirtied("d/a.log"); !dirty || got != 36_000 {
		t.Errorf("a write after the writeback: Dirtied = %d, %v; want 36000, true", got, dirty)
	}
	if got := flushUntil(m, 40_000, 65_000); len(got) != 0 {
		t.Errorf("the flusher wrote the new write back at %v, before 66 s", got)
	}
}

// TestSyncCleansTheDirtiedTime: a Sync makes the file clean, so a write after it is
// dirty from its own time.
func TestSyncCleansTheDirtiedTime(t *testing.T) {
	m := newDurable(t, map[string]string{"a.log": ""})
	m.SetNow(1_000)
	f, err := m.OpenReadWrite("d/a.log")
	must(t, err)
	_, err = f.WriteAt([]byte("one"), 0)
	must(t, err)
	must(t, f.Sync())
	if _, dirty, _ := m.Dirtied("d/a.log"); dirty {
		t.Fatalf("dirty after Sync")
	}
	m.SetNow(25_000)
	_, err = f.WriteAt([]byte("two"), 3)
	must(t, err)
	if got := flushUntil(m, 35_000, 50_000); len(got) != 0 {
		t.Errorf("the flusher wrote back at %v a file dirty since 25 s (the Sync at 1 s cleaned it)", got)
	}
	if got := flushUntil(m, 55_000, 55_000); len(got) != 1 {
		t.Errorf("the wake at 55 s wrote nothing back")
	}
}

// TestWritebackExpiredDirectories: a new file's directory entry is dirty from the
// Create; the flusher makes it durable after the expiry, as it does the file's bytes.
func TestWritebackExpiredDirectories(t *testing.T) {
	m := newDurable(t, nil)
	m.SetNow(2_000)
	appendTo(t, m, "d/new.log", "bytes")
	if got, dirty, err := m.Dirtied("d"); err != nil || !dirty || got != 2_000 {
		t.Fatalf("Dirtied(d) = %d, %v, %v; want 2000, true", got, dirty, err)
	}
	if m.EntryDurable("d/new.log") {
		t.Fatalf("the new entry is durable before any writeback")
	}
	inodes, bytes := m.WritebackExpired(30_000, vfs.LinuxDirtyExpireMs)
	if inodes != 0 || m.EntryDurable("d/new.log") {
		t.Fatalf("at 30 s the flusher wrote back %d inodes (%d bytes), before the expiry", inodes, bytes)
	}
	inodes, bytes = m.WritebackExpired(35_000, vfs.LinuxDirtyExpireMs)
	if diff := cmp.Diff([2]int64{2, 5}, [2]int64{int64(inodes), bytes}); diff != "" {
		t.Errorf("the wake at 35 s wrote back [inodes bytes] (-want +got):\n%s", diff)
	}
	m.PowerCut(nil)
	if diff := cmp.Diff(vfstest.Tree{"d/": "", "d/new.log": "bytes"}, readTree(t, m)); diff != "" {
		t.Errorf("after the wake, a power cut leaves (-want +got):\n%s", diff)
	}
}

// TestCloneKeepsDirtiedTimes: a clone writes back on the same schedule as the original.
func TestCloneKeepsDirtiedTimes(t *testing.T) {
	m := newDurable(t, map[string]string{"a.log": ""})
	m.SetNow(3_000)
	appendTo(t, m, "d/a.log", "x")
	c := m.Clone()
	for name, fsys := range map[string]*vfs.MemFS{"original": m, "clone": c} {
		if got, dirty, _ := fsys.Dirtied("d/a.log"); !dirty || got != 3_000 {
			t.Errorf("%s: Dirtied = %d, %v; want 3000, true", name, got, dirty)
		}
	}
	c.WritebackExpired(35_000, vfs.LinuxDirtyExpireMs)
	if _, dirty, _ := m.Dirtied("d/a.log"); !dirty {
		t.Errorf("the clone's writeback cleaned the original")
	}
	if _, dirty, _ := c.Dirtied("d/a.log"); dirty {
		t.Errorf("the clone is still dirty after its writeback")
	}
}

func readTree(t *testing.T, m *vfs.MemFS) vfstest.Tree {
	t.Helper()
	tree, err := vfstest.ReadTree(m, "")
	must(t, err)
	return tree
}
