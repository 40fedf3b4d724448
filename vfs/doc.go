// Package vfs is the file system a Kafka log lives on: the operating system's (Default),
// or MemFS, an in-memory one with a page cache, a process crash and a power cut.
package vfs
