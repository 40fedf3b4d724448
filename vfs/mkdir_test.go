package vfs_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/vfs"
)

// writeSynced creates name with content, fsyncs it and syncs its directory: the file is
// as durable as a file can be, if its directory is.
func writeSynced(t *testing.T, m *vfs.MemFS, dir, name, content string) {
	t.Helper()
	f, err := m.Create(dir + "/" + name)
	must(t, err)
	_, err = f.WriteAt([]byte(content), 0)
	must(t, err)
	must(t, f.Sync())
	must(t, f.Close())
	must(t, m.SyncDir(dir))
}

// A directory made with MkdirAll vanishes in a power cut, with the synced files in it,
// unless its parent was synced; MkdirAllDurable makes the whole new tree durable.
func TestMkdirAllDurableSurvivesPowerCut(t *testing.T) {
	cases := []struct {
		name  string
		mkdir func(m *vfs.MemFS, dir string) error
		want  bool // the file survives
	}{
		{"MkdirAll", func(m *vfs.MemFS, dir string) error { return m.MkdirAll(dir, 0o755) }, false},
		{"MkdirAll then SyncDir of the new dir only", func(m *vfs.MemFS, dir string) error {
			if err := m.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			return m.SyncDir(dir)
		}, false},
		{"MkdirAllDurable", func(m *vfs.MemFS, dir string) error { return vfs.MkdirAllDurable(m, dir, 0o755) }, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := vfs.NewMem()
			must(t, c.mkdir(m, "data/logs/topic-0"))
			writeSynced(t, m, "data/logs/topic-0", "00000000000000000000.log", "batch")
			if got := m.EntryDurable("data/logs/topic-0/00000000000000000000.log"); got != c.want {
				t.Fatalf("EntryDurable = %v, want %v", got, c.want)
			}
			m.PowerCut(nil)
			_, err := m.Stat("data/logs/topic-0/00000000000000000000.log")
			if got := err == nil; got != c.want {
				t.Fatalf("after the power cut the file exists = %v (%v), want %v", got, err, c.want)
			}
		})
	}
}

// MkdirAllDurable syncs the parent of each directory it creates, top down, and nothing
// else: an existing directory is not synced again (Kafka's createLogDirectory flushes
// the parent only of a directory it created).
func TestMkdirAllDurableSyncsParentsOfNewDirectories(t *testing.T) {
	m := vfs.NewMem()
	must(t, m.MkdirAll("data", 0o755))
	must(t, m.SyncDir(""))
	var ops []string
	m.SetHook(func(op vfs.Op) error {
		ops = append(ops, op.Kind.String()+" "+op.Name)
		return nil
	})
	must(t, vfs.MkdirAllDurable(m, "data/logs/topic-0", 0o755))
	want := []string{"mkdirall data/logs/topic-0", "syncdir data", "syncdir data/logs"}
	if diff := cmp.Diff(want, ops); diff != "" {
		t.Fatalf("operations (-want +got):\n%s", diff)
	}
	ops = nil
	must(t, vfs.MkdirAllDurable(m, "data/logs/topic-0", 0o755))
	if diff := cmp.Diff([]string{"mkdirall data/logs/topic-0"}, ops); diff != "" {
		t.Fatalf("operations on an existing directory (-want +got):\n%s", diff)
	}
	fi, err := m.Stat("data/logs/topic-0")
	must(t, err)
	if !fi.IsDir() || fi.Mode().Perm() != 0o755 {
		t.Fatalf("mode %v, want a directory with 0755", fi.Mode())
	}
}

// A failing directory sync is returned (the caller must not trust the directory), and a
// path through a file fails as MkdirAll does.
func TestMkdirAllDurableErrors(t *testing.T) {
	m := vfs.NewMem()
	boom := errors.New("disk gone")
	m.SetHook(func(op vfs.Op) error {
		if op.Kind == vfs.OpSyncDir {
			return boom
		}
		return nil
	})
	if err := vfs.MkdirAllDurable(m, "logs", 0o755); !errors.Is(err, boom) {
		t.Fatalf("MkdirAllDurable with a failing SyncDir = %v, want %v", err, boom)
	}
	m.SetHook(nil)
	f, err := m.Create("file")
	must(t, err)
	must(t, f.Close())
	if err := vfs.MkdirAllDurable(m, "file/sub", 0o755); !errors.Is(err, vfs.ErrNotDir) {
		t.Fatalf("MkdirAllDurable through a file = %v, want ErrNotDir", err)
	}
}

// On the operating system's file system it creates the tree (and syncs without error).
func TestMkdirAllDurableOS(t *testing.T) {
	dir := t.TempDir() + "/a/b"
	must(t, vfs.MkdirAllDurable(vfs.Default, dir, 0o755))
	fi, err := vfs.Default.Stat(dir)
	must(t, err)
	if !fi.IsDir() {
		t.Fatalf("%s is not a directory", dir)
	}
	if _, err := vfs.Default.Stat(dir + "/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Stat of a missing name = %v", err)
	}
}
