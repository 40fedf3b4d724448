// Package vfstest is the conformance suite every vfs.FS passes (TestFS), helpers to write
// and read a whole tree of files (Tree), and PowerCuts, which interrupts a workload on a
// vfs.MemFS at every operation with a process crash and with every torn tail, for the
// crash tests of packages built on vfs.
//
//	func TestMyFS(t *testing.T) {
//		vfstest.TestFS(t, func() vfs.FS { return vfs.NewMem() })
//	}
//
// A recovery test in the style of kafkalog's:
//
//	err := vfstest.PowerCuts(vfs.NewMem(), appendRecords, func(cut vfstest.Cut, m *vfs.MemFS) error {
//		log, err := Open(m, dir)     // recovery runs here
//		...                          // every synced record is there, the rest is a prefix
//		return err
//	})
package vfstest
