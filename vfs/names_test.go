package vfs_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/kafkalive/kafkalive/vfs"
	"pgregory.net/rapid"
)

// TestMemFSOddNamesNeverPanic throws names made of slashes, dots and letters at every
// operation; each either works or returns an error, and the root always stays a
// directory.
func TestMemFSOddNamesNeverPanic(t *testing.T) {
	name := rapid.StringMatching(`[/.ab]{0,6}`)
	rapid.Check(t, func(t *rapid.T) {
		m := vfs.NewMem()
		t.Repeat(map[string]func(*rapid.T){
			"": func(t *rapid.T) {
				fi, err := m.Stat("/")
				if err != nil || !fi.IsDir() {
					t.Fatalf("the root is no longer a directory: %v, %v", fi, err)
				}
			},
			"create":    func(t *rapid.T) { _, _ = m.Create(name.Draw(t, "name")) },
			"open":      func(t *rapid.T) { _, _ = m.OpenReadWrite(name.Draw(t, "name")) },
			"mkdir":     func(t *rapid.T) { _ = m.MkdirAll(name.Draw(t, "name"), 0o755) },
			"remove":    func(t *rapid.T) { _ = m.Remove(name.Draw(t, "name")) },
			"removeall": func(t *rapid.T) { _ = m.RemoveAll(name.Draw(t, "name")) },
			"rename":    func(t *rapid.T) { _ = m.Rename(name.Draw(t, "from"), name.Draw(t, "to")) },
			"syncdir":   func(t *rapid.T) { _ = m.SyncDir(name.Draw(t, "name")) },
			"list":      func(t *rapid.T) { _, _ = m.List(name.Draw(t, "name")) },
			"powercut":  func(t *rapid.T) { m.PowerCut(func(string, int64, int64) int64 { return 1 }) },
			"writeback": func(t *rapid.T) { m.Writeback() },
		})
	})
}

func TestMemFSRootCannotBeReplaced(t *testing.T) {
	m := vfs.NewMem()
	must(t, m.MkdirAll("d", 0o755))
	for _, tc := range []struct {
		what string
		err  error
	}{
		{"Create /", func() error { _, err := m.Create("/"); return err }()},
		{"Remove /", m.Remove("/")},
		{"Rename / to e", m.Rename("/", "e")},
		{"Rename d to /", m.Rename("d", "/")},
		{"Rename d to d/e", m.Rename("d", "d/e")},
	} {
		if tc.err == nil {
			t.Errorf("%s succeeded", tc.what)
		}
	}
	if _, err := m.Stat("d"); errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("d is gone after the refused operations")
	}
}
