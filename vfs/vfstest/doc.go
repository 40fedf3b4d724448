// Package vfstest is the conformance suite every vfs.FS passes, and helpers to write and
// read a whole tree of files, for tests of packages built on vfs.
//
//	func TestMyFS(t *testing.T) {
//		vfstest.TestFS(t, func() vfs.FS { return vfs.NewMem() })
//	}
package vfstest
