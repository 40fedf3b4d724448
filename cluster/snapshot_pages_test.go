package cluster

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/replica"
)

// TestCloneSharesFilePages: a snapshot of a world whose brokers hold 24 MB
// of files costs far less than the files: their pages are shared with the
// clone (vfs.MemFS.Clone shares their page tables), and the clone reads the
// same bytes, while a write on either side leaves the other's alone.
func TestCloneSharesFilePages(t *testing.T) {
	w, err := New(Config{Seed: 1, Brokers: 3, Rules: replica.Modern, MinInsyncReplicas: 2})
	require.NoError(t, err)
	big := make([]byte, 8<<20)
	for i := range big {
		big[i] = byte(i * 7)
	}
	for _, b := range w.brokers {
		f, err := b.FS().Create("big")
		require.NoError(t, err)
		_, err = f.WriteAt(big, 0)
		require.NoError(t, err)
		require.NoError(t, f.Sync())
		require.NoError(t, f.Close())
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c := w.Clone()
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
		t.Fatalf("a clone of a world with 24 MB of files allocated %d bytes: the files were copied", grew)
	}
	f, err := c.brokers[0].FS().OpenReadWrite("big")
	require.NoError(t, err)
	_, err = f.WriteAt([]byte("clone"), 100)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	for _, fsys := range []struct {
		name string
		w    *World
		want string
	}{{"original", w, string(big[100:105])}, {"clone", c, "clone"}} {
		f, err := fsys.w.brokers[0].FS().Open("big")
		require.NoError(t, err)
		got := make([]byte, 5)
		_, err = f.ReadAt(got, 100)
		require.NoError(t, err)
		require.Equal(t, fsys.want, string(got), "%s's bytes at 100", fsys.name)
		require.NoError(t, f.Close())
	}
}
