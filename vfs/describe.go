package vfs

import (
	"fmt"
	"strings"
)

// String lists every directory and file, parents first and in sorted order, with each
// file's durable and cached sizes and a mark on entries a power cut would lose:
//
//	d/
//	d/a.log  durable=7 cached=15
//	d/b.log  durable=0 cached=4  (entry not synced)
func (m *MemFS) String() string {
	var b strings.Builder
	m.describeDir(&b, m.root, "", true)
	return b.String()
}

// describeDir writes the entries under dir (at path p) to b; durable says whether the
// path to dir survives a power cut.
func (m *MemFS) describeDir(b *strings.Builder, dir *node, p string, durable bool) {
	for _, name := range sortedNames(dir.children) {
		c := dir.children[name]
		cp := p + name
		entryDurable := durable && dir.synced[name] == c
		note := ""
		if !entryDurable {
			note = "  (entry not synced)"
		}
		if c.dir {
			fmt.Fprintf(b, "%s/%s\n", cp, note)
			m.describeDir(b, c, cp+"/", entryDurable)
			continue
		}
		fmt.Fprintf(b, "%s  durable=%d cached=%d%s\n", cp, c.disk.len(), c.data.len(), note)
	}
}
