package vfstest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kafkalive/kafkalive/vfs"
)

// Cut is one way a workload can be interrupted: where, and what survived.
type Cut struct {
	// Before is the operation the workload was about to do. Before.Seq == 0 means the
	// workload had finished.
	Before vfs.Op
	// Process is true for a process crash (nothing lost), false for a power cut.
	Process bool
	// Keep maps each file that had an unsynced tail to how many of its bytes survived
	// the power cut (nil for a process crash).
	Keep map[string]int64
}

// String describes the cut, e.g. "power cut before #7 write d/a.log [5,+5), keeping
// d/a.log:3".
func (c Cut) String() string {
	where := "after the workload"
	if c.Before.Seq != 0 {
		where = "before " + c.Before.String()
	}
	if c.Process {
		return "process crash " + where
	}
	names := make([]string, 0, len(c.Keep))
	for name := range c.Keep {
		names = append(names, name)
	}
	sort.Strings(names)
	kept := make([]string, len(names))
	for i, name := range names {
		kept[i] = fmt.Sprintf("%s:%d", name, c.Keep[name])
	}
	if len(kept) == 0 {
		return "power cut " + where
	}
	return "power cut " + where + ", keeping " + strings.Join(kept, " ")
}

// PowerCuts runs workload on m once, then calls visit with every state an interruption
// of it can leave, stopping at the first error visit returns:
//
//   - for each mutating operation of the workload, just before it, and once after the
//     workload has finished:
//   - a process crash (the page cache survives), then
//   - power cuts: every file's unsynced tail kept at every length from 0 to whole
//     while the other files keep none, or all of theirs; each distinct choice once.
//
// So every torn write of every file is tried at every point, though not every
// combination of tears across files. The order is deterministic. PowerCuts replaces
// m's hook for the run and removes it after; each state visit sees is a fresh Clone,
// crashed or cut, which visit may change. The workload itself must not fail: its error
// is returned before anything is visited.
func PowerCuts(m *vfs.MemFS, workload func(vfs.FS) error, visit func(Cut, *vfs.MemFS) error) error {
	type point struct {
		before vfs.Op
		fs     *vfs.MemFS
	}
	var points []point
	m.SetHook(func(op vfs.Op) error {
		points = append(points, point{op, m.Clone()})
		return nil
	})
	err := workload(m)
	m.SetHook(nil)
	if err != nil {
		return fmt.Errorf("vfstest: the workload failed before any cut: %w", err)
	}
	points = append(points, point{vfs.Op{}, m.Clone()})
	for _, p := range points {
		crashed := p.fs.Clone()
		crashed.Crash()
		if err := visit(Cut{Before: p.before, Process: true}, crashed); err != nil {
			return err
		}
		for _, keep := range keepChoices(p.fs) {
			cut := p.fs.Clone()
			cut.PowerCut(func(name string, _, _ int64) int64 { return keep[name] })
			if err := visit(Cut{Before: p.before, Keep: keep}, cut); err != nil {
				return err
			}
		}
	}
	return nil
}

// tail is a file with unsynced bytes beyond its durable size.
type tail struct {
	name string
	len  int64
}

// keepChoices returns the power cut choices PowerCuts tries on m, in a fixed order.
func keepChoices(m *vfs.MemFS) []map[string]int64 {
	var tails []tail
	m.Clone().PowerCut(func(name string, durable, cached int64) int64 {
		tails = append(tails, tail{name, cached - durable})
		return 0
	})
	seen := map[string]bool{}
	var choices []map[string]int64
	add := func(keep map[string]int64) {
		key := fmt.Sprint(keep) // fmt sorts map keys
		if !seen[key] {
			seen[key] = true
			choices = append(choices, keep)
		}
	}
	for _, othersWhole := range []bool{false, true} {
		for _, t := range tails {
			for k := int64(0); k <= t.len; k++ {
				keep := make(map[string]int64, len(tails))
				for _, o := range tails {
					keep[o.name] = 0
					if othersWhole {
						keep[o.name] = o.len
					}
				}
				keep[t.name] = k
				add(keep)
			}
		}
	}
	if len(tails) == 0 {
		add(map[string]int64{})
	}
	return choices
}
