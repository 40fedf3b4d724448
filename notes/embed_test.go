package notes

import (
	"io/fs"
	"path/filepath"
	"slices"
	"testing"
)

// Every note on disk is in the binary, but the contributor guide.
func TestEveryNoteIsEmbedded(t *testing.T) {
	onDisk, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := fs.Glob(FS, "*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range onDisk {
		if name == "CONTRIBUTING-kit.md" {
			if slices.Contains(embedded, name) {
				t.Errorf("the contributor guide is embedded; the page would list it as a note")
			}
			continue
		}
		if !slices.Contains(embedded, name) {
			t.Errorf("notes/%s is not embedded: add it to the go:embed line in embed.go", name)
		}
	}
}
