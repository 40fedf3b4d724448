package vfs

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// DamageDisk changes the durable bytes and the clean page cache over them; a dirty
// page keeps what was written, and a power cut brings the damaged disk back.
func TestDamageDisk(t *testing.T) {
	m := NewMem()
	f, err := m.Create("a")
	require.NoError(t, err)
	_, err = f.WriteAt([]byte("abcdef"), 0)
	require.NoError(t, err)
	require.NoError(t, f.Sync())
	require.NoError(t, m.SyncDir("/"))
	_, err = f.WriteAt([]byte("X"), 5) // dirty, not synced
	require.NoError(t, err)
	before := m.ContentVersion()
	require.NoError(t, m.DamageDisk("a", 1, 5, func(b []byte) { clear(b) }))
	require.NotEqual(t, before, m.ContentVersion(), "damage changed the page cache: ContentVersion must change")
	read := func() string {
		got := make([]byte, 6)
		g, err := m.Open("a")
		require.NoError(t, err)
		_, err = g.ReadAt(got, 0)
		require.NoError(t, err)
		return string(got)
	}
	if diff := cmp.Diff("a\x00\x00\x00\x00X", read()); diff != "" {
		t.Errorf("page cache after the damage (-want +got):\n%s", diff)
	}
	m.PowerCut(nil)
	if diff := cmp.Diff("a\x00\x00\x00\x00\x00", read()); diff != "" {
		t.Errorf("disk after a power cut (-want +got):\n%s", diff)
	}
	for _, c := range []struct{ off, n int64 }{{-1, 1}, {0, 0}, {5, 2}} {
		if err := m.DamageDisk("a", c.off, c.n, func([]byte) {}); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("damage [%d, +%d): %v, want ErrInvalid", c.off, c.n, err)
		}
	}
	if err := m.DamageDisk("b", 0, 1, func([]byte) {}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("damage of a missing file: %v, want ErrNotExist", err)
	}
}
