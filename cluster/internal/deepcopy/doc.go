// Package deepcopy copies a graph of Go values, unexported fields
// included, so that the cluster can snapshot a world whose state lives in
// other packages' structs (kafkalog logs, replica nodes, group
// coordinators, vfs file systems) without each of them offering a Clone.
//
// Pointers reached twice stay one pointer in the copy (a memo keyed by
// address and type), so a file handle and its file system, or a replica
// node and the log it was built on, keep pointing at each other. Slices,
// maps and interfaces are copied element by element; strings and
// functions are shared (strings are immutable; the world holds no
// closures over its own state). Two slices over one backing array become
// two arrays: the world's state must not rely on such aliasing, and the
// cluster's clone test checks that a clone evolves as its original does.
//
// One exception keeps snapshots small: a struct field of a type T whose
// pointer has a method CopyShared() T is copied by calling it on the
// original, which gives a copy sharing what the type says it may share.
// That is the contract of vfs's in-memory files (MemFS.Clone does the
// same): their pages are shared, and either side copies a page before it
// first writes it.
//
// It lives in its own package because it needs unsafe to set unexported
// fields, and the cluster package itself must not import unsafe.
package deepcopy
