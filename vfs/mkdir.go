package vfs

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
)

// MkdirAllDurable creates dir and any missing parents, as MkdirAll does, and then syncs
// the directory above each one it created, top down, so that the new directories survive
// a power cut. It is what Kafka does when it creates a log dir or a partition directory
// (LogManager.createLogDirectory: Files.createDirectories, then Utils.flushDir on the
// parent). Directories that already exist are left as they are and their parents are not
// synced (neither are Kafka's): a directory made with plain MkdirAll and never synced
// into its parent stays as fragile as it was.
//
// On MemFS a directory made with MkdirAll exists until a power cut, which removes it
// (and everything in it, however well synced) unless its parent was synced since;
// MkdirAllDurable is the way to make a new directory tree that a power cut keeps. dir is
// slash-separated, as every name given to an FS.
func MkdirAllDurable(fsys FS, dir string, perm fs.FileMode) error {
	var missing []string // deepest first
	for d := path.Clean(dir); d != "." && d != "/"; d = path.Dir(d) {
		_, err := fsys.Stat(d)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("vfs: mkdir durable %s: %w", dir, err)
		}
		missing = append(missing, d)
	}
	if err := fsys.MkdirAll(dir, perm); err != nil {
		return err
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := fsys.SyncDir(path.Dir(missing[i])); err != nil {
			return fmt.Errorf("vfs: mkdir durable %s: %w", dir, err)
		}
	}
	return nil
}
