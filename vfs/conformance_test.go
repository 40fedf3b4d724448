package vfs_test

import (
	"testing"

	"github.com/kafkalive/kafkalive/vfs"
	"github.com/kafkalive/kafkalive/vfs/vfstest"
)

func TestMemFSConformance(t *testing.T) {
	vfstest.TestFS(t, func() vfs.FS { return vfs.NewMem() })
}

func TestOSConformance(t *testing.T) {
	vfstest.TestFS(t, func() vfs.FS { return vfs.Sub(vfs.Default, t.TempDir()) })
}

func TestSubMemConformance(t *testing.T) {
	vfstest.TestFS(t, func() vfs.FS {
		m := vfs.NewMem()
		if err := m.MkdirAll("brokers/0", 0o755); err != nil {
			t.Fatal(err)
		}
		return vfs.Sub(m, "brokers/0")
	})
}
