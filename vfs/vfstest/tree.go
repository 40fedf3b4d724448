package vfstest

import (
	"fmt"
	"io"
	"strings"

	"github.com/kafkalive/kafkalive/vfs"
)

// Tree is a whole file system as text: each file's path mapped to its contents, and each
// directory's path, ending in "/", mapped to "". Paths are relative to the root,
// slash-separated, e.g. {"data/": "", "data/a.log": "hello"}.
type Tree map[string]string

// WriteTree creates the directories and files of tree in fsys (parents first).
func WriteTree(fsys vfs.FS, tree Tree) error {
	for _, p := range sortedKeys(tree) {
		if dir, ok := strings.CutSuffix(p, "/"); ok {
			if err := fsys.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := writeFile(fsys, p, tree[p]); err != nil {
			return err
		}
	}
	return nil
}

// writeFile creates name holding content.
func writeFile(fsys vfs.FS, name, content string) error {
	f, err := fsys.Create(name)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt([]byte(content), 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ReadTree returns every directory and file in fsys under dir ("" for the root), with
// paths relative to dir.
func ReadTree(fsys vfs.FS, dir string) (Tree, error) {
	tree := Tree{}
	return tree, readDir(fsys, dir, "", tree)
}

// readDir adds the entries of dir (whose path in tree is rel) to tree.
func readDir(fsys vfs.FS, dir, rel string, tree Tree) error {
	names, err := fsys.List(dir)
	if err != nil {
		return err
	}
	for _, name := range names {
		full, r := fsys.PathJoin(dir, name), rel+name
		fi, err := fsys.Stat(full)
		if err != nil {
			return err
		}
		if fi.IsDir() {
			tree[r+"/"] = ""
			if err := readDir(fsys, full, r+"/", tree); err != nil {
				return err
			}
			continue
		}
		content, err := ReadFile(fsys, full)
		if err != nil {
			return err
		}
		tree[r] = content
	}
	return nil
}

// ReadFile returns the whole content of name.
func ReadFile(fsys vfs.FS, name string) (string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		return "", err
	}
	buf := make([]byte, size)
	n, err := f.ReadAt(buf, 0)
	if err != nil && err != io.EOF {
		return "", err
	}
	if int64(n) != size {
		return "", fmt.Errorf("vfstest: read %d of %d bytes of %s", n, size, name)
	}
	return string(buf), nil
}
