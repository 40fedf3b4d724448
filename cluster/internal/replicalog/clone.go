package replicalog

import (
	"slices"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/vfs"
)

// Clone returns an independent copy of the log on fsys, a copy of its
// owner's file system holding its files under the same names, reading the
// time at clock and drawing segment jitter from rnd (the clone owner's
// copies; rnd nil for a log opened without one). The mirror's chunks are
// copied, a chunk header each; their entries and batches are shared, as
// nothing changes them once made; a lazy chunk's decoded entries are not
// kept (the clone decodes them again from its own files when read). The
// damaged ranges are copied; the epoch list handed out is shared (it is
// replaced, never changed in place).
func (r *Log) Clone(fsys vfs.FS, clock *int64, rnd kafkalog.Int64Source) *Log {
	c := *r
	c.log = r.log.Clone(fsys, rnd)
	c.fsys, c.clock, c.buf = fsys, clock, nil
	c.m = r.m.clone(&c)
	c.damaged = slices.Clone(r.damaged)
	return &c
}

// clone copies the mirror for the log files, without the decoded entries
// of its lazy chunks.
func (m *Mirror) clone(files batchFiles) Mirror {
	c := Mirror{n: m.n, budget: m.budget, files: files, chunks: slices.Clone(m.chunks)}
	for i := range c.chunks {
		if c.chunks[i].batch != nil {
			c.chunks[i].entries = nil
		}
	}
	return c
}
