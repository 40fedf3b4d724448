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
// shared block by block until either side writes one, their entries and
// batches for good, as nothing changes them once made. The damaged ranges
// are copied; the epoch list handed out is shared (it is replaced, never
// changed in place).
func (r *Log) Clone(fsys vfs.FS, clock *int64, rnd kafkalog.Int64Source) *Log {
	c := *r
	c.log = r.log.Clone(fsys, rnd)
	c.fsys, c.clock, c.buf = fsys, clock, nil
	c.m = r.m.clone(&c)
	c.damaged = slices.Clone(r.damaged)
	return &c
}

// clone copies the mirror for the log files: its chunks are shared block
// by block (seq.Vec), the entries of the eager ones included (nothing
// changes them); the copy's cache of decoded lazy chunks starts empty, so
// that a snapshot holds no decoded record.
func (m *Mirror) clone(files batchFiles) Mirror {
	c := *m
	c.files, c.chunks, c.cache = files, m.chunks.Clone(), decodedCache{budget: m.cache.budget}
	return c
}
