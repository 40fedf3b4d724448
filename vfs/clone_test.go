package vfs_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs/vfstest"
)

func TestCloneIsIndependent(t *testing.T) {
	orig := newDurable(t, map[string]string{"a.log": "synced"})
	appendTo(t, orig, "d/a.log", "+cached")
	f, err := orig.OpenReadWrite("d/a.log")
	must(t, err)
	clone := orig.Clone()

	// Change both sides differently.
	_, err = f.WriteAt([]byte("ORIG"), 0) // through a handle opened before the clone
	must(t, err)
	appendTo(t, clone, "d/a.log", "+clone")
	appendTo(t, clone, "d/new", "x")
	clone.PowerCut(func(string, int64, int64) int64 { return 3 })

	gotOrig, err := vfstest.ReadTree(orig, "")
	must(t, err)
	gotClone, err := vfstest.ReadTree(clone, "")
	must(t, err)
	if diff := cmp.Diff(vfstest.Tree{"d/": "", "d/a.log": "ORIGed+cached"}, gotOrig); diff != "" {
		t.Errorf("the original (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(vfstest.Tree{"d/": "", "d/a.log": "synced+ca"}, gotClone); diff != "" {
		t.Errorf("the clone after its power cut (-want +got):\n%s", diff)
	}
	durable, cached, err := orig.SizeOnDisk("d/a.log")
	must(t, err)
	if durable != 6 || cached != 13 {
		t.Errorf("the original's sizes: %d durable, %d cached; want 6 and 13", durable, cached)
	}
}

func TestCloneKeepsDurability(t *testing.T) {
	orig := newDurable(t, map[string]string{"a": "synced"})
	appendTo(t, orig, "d/a", "+cached")
	must(t, orig.MkdirAll("d/unsynced", 0o755))
	clone := orig.Clone()
	orig.PowerCut(nil)
	clone.PowerCut(nil)
	a, err := vfstest.ReadTree(orig, "")
	must(t, err)
	b, err := vfstest.ReadTree(clone, "")
	must(t, err)
	if diff := cmp.Diff(vfstest.Tree{"d/": "", "d/a": "synced"}, a); diff != "" {
		t.Errorf("the original after a power cut (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("the clone after the same power cut (-original +clone):\n%s", diff)
	}
}

func TestCloneCopiesOnWrite(t *testing.T) {
	orig := newDurable(t, map[string]string{"a": "0123456789"})
	c1 := orig.Clone()
	c2 := c1.Clone()
	f, err := c1.OpenReadWrite("d/a")
	must(t, err)
	_, err = f.WriteAt([]byte("X"), 0)
	must(t, err)
	must(t, f.Sync())
	got := map[string]string{"orig": read(t, orig, "d/a"), "c1": read(t, c1, "d/a"), "c2": read(t, c2, "d/a")}
	want := map[string]string{"orig": "0123456789", "c1": "X123456789", "c2": "0123456789"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("d/a after a synced write to c1 only (-want +got):\n%s", diff)
	}
	c2.PowerCut(nil)
	if diff := cmp.Diff("0123456789", read(t, c2, "d/a")); diff != "" {
		t.Errorf("c2's durable d/a after c1 synced a write (-want +got):\n%s", diff)
	}
}

// TestPowerCutAfterShrinkInAClone is the case rapid found: a shrink leaves the page
// cache with less capacity than the durable size once copy-on-write has copied it.
func TestPowerCutAfterShrinkInAClone(t *testing.T) {
	m := newDurable(t, map[string]string{"a": "012345678"})
	f, err := m.OpenReadWrite("d/a")
	must(t, err)
	must(t, f.Truncate(0))
	_ = m.Clone()
	_, err = f.WriteAt([]byte("x"), 0)
	must(t, err)
	m.PowerCut(func(string, int64, int64) int64 { return 1 })
	if diff := cmp.Diff("012345678", read(t, m, "d/a")); diff != "" {
		t.Fatalf("after an unsynced shrink and a power cut d/a holds (-want +got):\n%s", diff)
	}
}
