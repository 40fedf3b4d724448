package vfs_test

import (
	"fmt"

	"github.com/kafkalive/kafkalive/vfs"
)

// A log segment appended to after its last fsync loses the unsynced records in a power
// cut, here torn three bytes into them. A process crash would have lost nothing.
func ExampleMemFS_PowerCut() {
	m := vfs.NewMem()
	_ = m.MkdirAll("topic-0", 0o755)
	_ = m.SyncDir("") // the new directory's entry is durable
	f, _ := m.Create("topic-0/00000000000000000000.log")
	_ = m.SyncDir("topic-0") // and so is the new file's
	_, _ = f.WriteAt([]byte("synced|"), 0)
	_ = f.Sync()
	_, _ = f.WriteAt([]byte("appended"), 7)
	fmt.Println("durable:", m.DurableBytes("topic-0"), "page cache only:", m.CacheBytes("topic-0"))

	m.PowerCut(func(name string, durable, cached int64) int64 {
		fmt.Printf("power cut: %s has %d durable bytes of %d\n", name, durable, cached)
		return 3 // keep 3 unsynced bytes: a torn write
	})
	if _, err := f.WriteAt([]byte("x"), 0); err != nil {
		fmt.Println("old handle:", err)
	}
	g, _ := m.Open("topic-0/00000000000000000000.log")
	buf := make([]byte, 16)
	n, _ := g.ReadAt(buf, 0)
	fmt.Printf("after reboot: %q\n", buf[:n])
	// Output:
	// durable: 7 page cache only: 8
	// power cut: topic-0/00000000000000000000.log has 7 durable bytes of 15
	// old handle: write topic-0/00000000000000000000.log: vfs: file handle lost in a process crash: file already closed
	// after reboot: "synced|app"
}

// A hook fails the third write, as a dying disk would.
func ExampleFailAfter() {
	m := vfs.NewMem()
	m.SetHook(vfs.FailAfter(vfs.OpWrite, 2, fmt.Errorf("EIO")))
	f, _ := m.Create("a.log")
	for i := range 3 {
		_, err := f.WriteAt([]byte("rec"), int64(3*i))
		fmt.Println(i, err)
	}
	// Output:
	// 0 <nil>
	// 1 <nil>
	// 2 write a.log: EIO
}
