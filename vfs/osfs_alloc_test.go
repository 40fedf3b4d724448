package vfs_test

import (
	"path/filepath"
	"testing"

	"github.com/kafkalive/kafkalive/vfs"
)

// A successful write on the OS file system allocates nothing: the log's append
// path calls it once per append.
func TestOSWriteAtDoesNotAllocate(t *testing.T) {
	f, err := vfs.Default.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 512)
	var off int64
	if n := testing.AllocsPerRun(100, func() {
		if _, err := f.WriteAt(buf, off); err != nil {
			t.Fatal(err)
		}
		off += int64(len(buf))
	}); n != 0 {
		t.Errorf("WriteAt on vfs.Default allocates %v times per call, want 0", n)
	}
}
