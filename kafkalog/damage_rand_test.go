package kafkalog

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/kafkalive/kafkalive/vfs"
)

var (
	damageN    = flag.Int("damage.n", 300, "outside-damage cases run by TestOpenSurvivesOutsideDamage")
	damageSeed = flag.Uint64("damage.seed", 1, "seed of the first outside-damage case (replay one with -damage.n=1)")
)

// TestOpenSurvivesOutsideDamage builds real-looking data dirs (a partition written
// with small segments and indexes, flushed and checkpointed now and then, with log start
// offset moves and retention, ended by a clean shutdown, a process crash or a power
// cut), damages them from outside (index files copied, swapped, truncated, zeroed or
// orphaned; stray empty or foreign segment files; a torn .log; the clean shutdown marker
// dropped or added; checkpoints corrupted or wrong) and opens them with OpenDataDir.
// Invariant: the open fails with an error that names a file (only for damage that can
// make the files contradict each other, and then without changing any .log), or the log
// reads back batches that each pass their CRC and are batches of the files, in strictly
// increasing offsets, including every valid batch before the first damaged byte, and
// its next append gets the offset after the last record read; it then closes and
// reopens cleanly.
func TestOpenSurvivesOutsideDamage(t *testing.T) {
	n := *damageN
	if testing.Short() {
		n = min(n, 50)
	}
	for i := 0; i < n; i++ {
		seed := *damageSeed + uint64(i)
		if desc, err := runDamageCase(seed); err != nil {
			t.Fatalf("seed %d: %s\n%v\nreplay: go test ./kafkalog -run TestOpenSurvivesOutsideDamage -damage.seed=%d -damage.n=1", seed, desc, err, seed)
		}
	}
	t.Logf("%d outside-damage cases from seed %d (more with -damage.n)", n, *damageSeed)
}

// origBatch is a valid batch found in a .log before the damage.
type origBatch struct {
	seg, pos, size int64
	base, last     int64
}

// damageCase is one data dir, its damage and what the open may do.
type damageCase struct {
	rng       *rand.Rand
	fsys      *vfs.MemFS
	cfg       Config
	ops       []string
	orig      []origBatch
	allowed   map[string]bool // raw bytes of every batch a read may return
	validEnd  map[int64]int64 // per segment, the end of its valid batches
	damage    [2]int64        // (segment, position) of the first damaged valid byte
	damaged   bool
	tears     []int64 // segments torn inside their valid batches
	mayRefuse bool
}

func runDamageCase(seed uint64) (desc string, err error) {
	c := &damageCase{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), allowed: map[string]bool{}, validEnd: map[int64]int64{}}
	defer func() {
		desc = "damage: " + strings.Join(c.ops, "; ")
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	if err := c.build(); err != nil {
		return "", fmt.Errorf("building the data dir: %w", err)
	}
	if err := c.scan(); err != nil {
		return "", err
	}
	for k := 1 + c.rng.IntN(3); k > 0; k-- {
		if err := c.damageOnce(); err != nil {
			return "", fmt.Errorf("damaging: %w", err)
		}
	}
	return "", c.check()
}

// build writes the data dir and ends it by a clean shutdown, a crash or a power cut.
func (c *damageCase) build() error {
	r := c.rng
	c.fsys = vfs.NewMem()
	cfg := DefaultConfig()
	cfg.SegmentBytes = 500 + r.Int64N(1500)
	cfg.SegmentIndexBytes = []int64{24, 48, 96, 1024, 1 << 20}[r.IntN(5)]
	cfg.IndexIntervalBytes = []int64{0, 60, 128, 4096}[r.IntN(4)]
	cfg.RetentionMs, cfg.RetentionBytes = -1, -1
	c.cfg = cfg
	d, err := OpenDataDir(c.fsys, damageRoot, 0, c.dataDirOptions())
	if err != nil {
		return err
	}
	l, err := d.CreateLog(damageTP, cfg, 0)
	if err != nil {
		return err
	}
	epoch := int32(0)
	for i, n := 0, 3+r.IntN(60); i < n; i++ {
		var recs []kv
		for j := r.IntN(4); j >= 0; j-- {
			recs = append(recs, kv{key: fmt.Sprint("k", r.IntN(9)), value: strings.Repeat(fmt.Sprint(i), r.IntN(40))})
		}
		if r.IntN(10) == 0 {
			epoch++
		}
		if _, err := l.AppendAsLeader(encodeBatch(0, int64(1000+i), recs...), epoch, int64(i)); err != nil {
			return err
		}
		switch r.IntN(12) {
		case 0, 1:
			if err := l.Flush(l.LogEndOffset()); err != nil {
				return err
			}
			if err := d.Checkpoint(); err != nil {
				return err
			}
		case 2:
			if err := l.Roll(int64(i)); err != nil {
				return err
			}
		case 3:
			if _, err := l.DeleteRecords(r.Int64N(l.LogEndOffset()+1), l.LogEndOffset()); err != nil {
				return err
			}
			if _, err := l.DeleteOldSegments(l.LogEndOffset(), int64(i)); err != nil {
				return err
			}
			if err := d.Checkpoint(); err != nil {
				return err
			}
		}
	}
	switch r.IntN(3) {
	case 0:
		c.ops = append(c.ops, "built, closed cleanly")
		return d.Close(5)
	case 1:
		c.ops = append(c.ops, "built, process crash")
		c.fsys.Crash()
	default:
		c.ops = append(c.ops, "built, power cut")
		c.fsys.PowerCutRand(r)
	}
	return nil
}

func (c *damageCase) dataDirOptions() DataDirOptions {
	return DataDirOptions{Config: func(TopicPartition) Config { return c.cfg }}
}

// logFiles returns the base offsets of the partition's .log files, sorted.
func (c *damageCase) logFiles() []int64 {
	names, _ := c.fsys.List(damageDir())
	var bases []int64
	for _, name := range names {
		if base, suffix, ok := ParseSegmentFileName(name); ok && suffix == LogSuffix {
			bases = append(bases, base)
		}
	}
	sort.Slice(bases, func(i, j int) bool { return bases[i] < bases[j] })
	return bases
}

// validBatches returns the whole valid batches at the start of b.
func validBatches(seg int64, b []byte) []origBatch {
	var out []origBatch
	for p := 0; p < len(b); {
		h, n, err := CheckBatch(b[p:])
		if err != nil {
			break
		}
		out = append(out, origBatch{seg: seg, pos: int64(p), size: int64(n), base: h.BaseOffset, last: h.LastOffset()})
		p += n
	}
	return out
}

// scan records the valid batches of every .log before the damage.
func (c *damageCase) scan() error {
	for _, base := range c.logFiles() {
		b, err := readWholeFile(c.fsys, damagePath(base, LogSuffix))
		if err != nil {
			return err
		}
		bs := validBatches(base, b)
		c.orig = append(c.orig, bs...)
		end := int64(0)
		for _, ob := range bs {
			c.allowed[string(b[ob.pos:ob.pos+ob.size])] = true
			end = ob.pos + ob.size
		}
		c.validEnd[base] = end
	}
	return nil
}

func (c *damageCase) pickSegment() int64 {
	bases := c.logFiles()
	return bases[c.rng.IntN(len(bases))]
}

// pickOffset returns an offset inside, at the end of or beyond the log's data.
func (c *damageCase) pickOffset() int64 {
	leo := int64(0)
	if n := len(c.orig); n > 0 {
		leo = c.orig[n-1].last + 1
	}
	switch c.rng.IntN(4) {
	case 0:
		return leo
	case 1:
		return leo + 1 + c.rng.Int64N(20)
	}
	return c.rng.Int64N(leo + 1)
}

func (c *damageCase) exists(name string) bool {
	_, err := c.fsys.Stat(name)
	return err == nil
}

func (c *damageCase) write(name string, b []byte) error {
	f, err := c.fsys.Create(name)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(b, 0); err != nil {
		return err
	}
	return f.Close()
}

func (c *damageCase) read(name string) []byte {
	b, _ := readWholeFile(c.fsys, name)
	return b
}

func (c *damageCase) damageOnce() error {
	r := c.rng
	index := []string{IndexSuffix, TimeIndexSuffix}[r.IntN(2)]
	switch r.IntN(12) {
	case 0: // copy an index from another segment
		from, to := c.pickSegment(), c.pickSegment()
		c.ops = append(c.ops, fmt.Sprintf("copy %s of segment %d onto segment %d", index, from, to))
		return c.write(damagePath(to, index), c.read(damagePath(from, index)))
	case 1: // swap two segments' indexes
		a, b := c.pickSegment(), c.pickSegment()
		c.ops = append(c.ops, fmt.Sprintf("swap the %s files of segments %d and %d", index, a, b))
		ab, bb := c.read(damagePath(a, index)), c.read(damagePath(b, index))
		if err := c.write(damagePath(a, index), bb); err != nil {
			return err
		}
		return c.write(damagePath(b, index), ab)
	case 2: // truncate an index
		s := c.pickSegment()
		b := c.read(damagePath(s, index))
		n := r.IntN(len(b) + 1)
		c.ops = append(c.ops, fmt.Sprintf("truncate %s of segment %d to %d of %d bytes", index, s, n, len(b)))
		return c.write(damagePath(s, index), b[:n])
	case 3: // zero part of an index
		s := c.pickSegment()
		b := c.read(damagePath(s, index))
		from := r.IntN(len(b) + 1)
		to := from + r.IntN(len(b)-from+1)
		clear(b[from:to])
		c.ops = append(c.ops, fmt.Sprintf("zero bytes [%d, %d) of %s of segment %d", from, to, index, s))
		return c.write(damagePath(s, index), b)
	case 4: // an index without its .log
		s, at := c.pickSegment(), c.pickOffset()
		if c.exists(damagePath(at, LogSuffix)) {
			return nil
		}
		c.ops = append(c.ops, fmt.Sprintf("copy %s of segment %d to an orphan at %d", index, s, at))
		return c.write(damagePath(at, index), c.read(damagePath(s, index)))
	case 5, 6: // a stray empty .log
		at := c.pickOffset()
		if c.exists(damagePath(at, LogSuffix)) {
			return nil
		}
		c.ops = append(c.ops, fmt.Sprintf("stray empty segment at %d", at))
		return c.write(damagePath(at, LogSuffix), nil)
	case 7: // a foreign segment
		return c.foreign(c.pickOffset())
	case 8, 9: // a torn .log
		s := c.pickSegment()
		b := c.read(damagePath(s, LogSuffix))
		if len(b) == 0 {
			return nil
		}
		n := r.Int64N(int64(len(b)))
		c.ops = append(c.ops, fmt.Sprintf("tear segment %d at %d of %d bytes", s, n, len(b)))
		if n < c.validEnd[s] {
			if !c.damaged || s < c.damage[0] || (s == c.damage[0] && n < c.damage[1]) {
				c.damage, c.damaged = [2]int64{s, n}, true
			}
			c.tears = append(c.tears, s)
		}
		return c.write(damagePath(s, LogSuffix), b[:n])
	case 10: // the clean shutdown marker
		marker := damageRoot + "/" + CleanShutdownFile
		if c.exists(marker) {
			c.ops = append(c.ops, "drop the clean shutdown marker")
			return c.fsys.Remove(marker)
		}
		c.ops = append(c.ops, "add a clean shutdown marker")
		return c.write(marker, AppendCleanShutdown(nil, 5))
	default: // a checkpoint
		return c.corruptCheckpoint()
	}
}

// foreign puts the first segment of another partition's log, starting at base, into the
// directory (with its indexes, or not).
func (c *damageCase) foreign(base int64) error {
	if c.exists(damagePath(base, LogSuffix)) {
		return nil
	}
	other := vfs.NewMem()
	cfg := DefaultConfig()
	l, err := Open(other, "x/other-0", cfg, 0)
	if err != nil {
		return err
	}
	if err := l.TruncateFullyAndStartAt(base, 0); err != nil {
		return err
	}
	for i := c.rng.IntN(4); i >= 0; i-- {
		if _, err := l.AppendAsLeader(encodeBatch(0, 7, kv{key: "f", value: fmt.Sprint("foreign", i)}), 3, 0); err != nil {
			return err
		}
	}
	if err := l.Close(); err != nil {
		return err
	}
	withIndexes := c.rng.IntN(2) == 0
	c.ops = append(c.ops, fmt.Sprintf("foreign segment at %d (indexes: %v)", base, withIndexes))
	c.mayRefuse = true
	for _, suffix := range []string{LogSuffix, IndexSuffix, TimeIndexSuffix} {
		if suffix != LogSuffix && !withIndexes {
			continue
		}
		b, err := readWholeFile(other, "x/other-0/"+SegmentFileName(base, suffix))
		if err != nil {
			return err
		}
		if suffix == LogSuffix {
			for _, ob := range validBatches(base, b) {
				c.allowed[string(b[ob.pos:ob.pos+ob.size])] = true
			}
		}
		if err := c.write(damagePath(base, suffix), b); err != nil {
			return err
		}
	}
	return nil
}

func (c *damageCase) corruptCheckpoint() error {
	r := c.rng
	files := []string{RecoveryPointCheckpointFile, LogStartOffsetCheckpointFile, CleanerOffsetCheckpointFile, "topic-0/" + LeaderEpochCheckpointFile}
	name := files[r.IntN(len(files))]
	p := damageRoot + "/" + name
	var b []byte
	switch r.IntN(3) {
	case 0:
		b = []byte("0\n1\ntopic 0 x\n")
		c.ops = append(c.ops, "garbage in "+name)
	case 1:
		b = c.read(p)
		b = b[:r.IntN(len(b)+1)]
		c.ops = append(c.ops, fmt.Sprintf("truncate %s to %d bytes", name, len(b)))
	default:
		v := c.pickOffset()
		b = fmt.Appendf(nil, "0\n1\ntopic 0 %d\n", v)
		if strings.HasSuffix(name, LeaderEpochCheckpointFile) {
			b = fmt.Appendf(nil, "0\n2\n0 0\n9 %d\n", v)
		}
		c.ops = append(c.ops, fmt.Sprintf("%s says %q", name, b))
	}
	if strings.HasSuffix(name, LeaderEpochCheckpointFile) {
		c.mayRefuse = true // Kafka fails the log dir on an unreadable epoch checkpoint too
	}
	return c.write(p, b)
}

// mustOpen reports whether the damage leaves the files consistent enough that the open
// must succeed: no foreign segment, no unreadable epoch checkpoint, and no segment torn
// inside its valid batches with data after it.
func (c *damageCase) mustOpen() bool {
	if c.mayRefuse {
		return false
	}
	for _, s := range c.tears {
		for _, base := range c.logFiles() {
			if base > s && len(c.read(damagePath(base, LogSuffix))) > 0 {
				return false
			}
		}
	}
	return true
}

func (c *damageCase) check() error {
	must := c.mustOpen()
	sizes := map[int64]int{}
	for _, base := range c.logFiles() {
		sizes[base] = len(c.read(damagePath(base, LogSuffix)))
	}
	d, err := OpenDataDir(c.fsys, damageRoot, 0, c.dataDirOptions())
	l := d.Log(damageTP)
	if l == nil {
		switch {
		case err == nil:
			return errors.New("the partition is missing and there is no error")
		case must:
			return fmt.Errorf("open failed on damage it must survive: %w", err)
		case !strings.Contains(err.Error(), damageRoot+"/"):
			return fmt.Errorf("the error does not name a file: %w", err)
		}
		if errors.Is(err, ErrInconsistentLog) {
			for base, n := range sizes {
				if got := len(c.read(damagePath(base, LogSuffix))); got != n {
					return fmt.Errorf("a refused open changed segment %d from %d to %d bytes: %v", base, n, got, err)
				}
			}
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("the partition opened but the data dir failed: %w", err)
	}
	lso, leo := l.LogStartOffset(), l.LogEndOffset()
	got, next, err := readBatches(l)
	if err != nil {
		return err
	}
	prev := int64(-1)
	for _, b := range got {
		h, _ := ReadBatchHeader(b)
		if h.BaseOffset <= prev {
			return fmt.Errorf("batch at offset %d after offset %d", h.BaseOffset, prev)
		}
		prev = h.LastOffset()
		if !c.allowed[string(b)] {
			return fmt.Errorf("batch %d..%d read back is no batch of the files", h.BaseOffset, h.LastOffset())
		}
	}
	have := map[int64]bool{}
	for _, b := range got {
		h, _ := ReadBatchHeader(b)
		have[h.BaseOffset] = true
	}
	for _, ob := range c.orig {
		before := !c.damaged || ob.seg < c.damage[0] || (ob.seg == c.damage[0] && ob.pos+ob.size <= c.damage[1])
		if before && ob.last >= lso && !have[ob.base] {
			return fmt.Errorf("valid batch %d..%d (segment %d, position %d) before the first damaged byte is gone; log [%d, %d), report %+v",
				ob.base, ob.last, ob.seg, ob.pos, lso, leo, l.RecoveryReport())
		}
	}
	if len(got) > 0 && leo != next {
		return fmt.Errorf("LEO %d, but the last batch read ends at %d", leo, next)
	}
	if len(got) == 0 && leo != lso {
		return fmt.Errorf("LEO %d, log start offset %d and nothing to read", leo, lso)
	}
	if err := indexesAgree(l); err != nil {
		return fmt.Errorf("after open: %w", err)
	}
	info, err := l.AppendAsLeader(valueBatch(9000, "after"), 100, 9000)
	if err != nil {
		return fmt.Errorf("append after open: %w", err)
	}
	if info.FirstOffset != leo {
		return fmt.Errorf("the append after open got offset %d, want %d", info.FirstOffset, leo)
	}
	if err := indexesAgree(l); err != nil {
		return fmt.Errorf("after the append: %w", err)
	}
	if err := d.Close(6); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	d, err = OpenDataDir(c.fsys, damageRoot, 0, c.dataDirOptions())
	if err != nil {
		return fmt.Errorf("reopen after a clean close: %w", err)
	}
	l = d.Log(damageTP)
	r := l.RecoveryReport()
	removed := 0
	for _, rm := range r.Removed {
		if !strings.HasSuffix(rm.File, DeletedSuffix) { // segments the first open deleted go now
			removed++
		}
	}
	if len(r.Inconsistencies) > 0 || removed > 0 || len(r.Truncations) > 0 || l.LogEndOffset() != leo+1 {
		return fmt.Errorf("reopen after a clean close: LEO %d (want %d), report %+v", l.LogEndOffset(), leo+1, r)
	}
	again, _, err := readBatches(l)
	if err != nil || len(again) != len(got)+1 {
		return fmt.Errorf("reopen after a clean close reads %d batches (want %d): %v", len(again), len(got)+1, err)
	}
	return d.Close(7)
}

// readBatches reads every batch from the log start offset, checking each one's CRC, and
// returns them and the offset after the last.
func readBatches(l *Log) ([][]byte, int64, error) {
	var out [][]byte
	next := l.LogStartOffset()
	for off := l.LogStartOffset(); off < l.LogEndOffset(); {
		data, err := l.Read(off, 1<<16)
		if err != nil {
			return out, next, fmt.Errorf("read at %d: %w", off, err)
		}
		if len(data) == 0 {
			break
		}
		for p := 0; p < len(data); {
			h, n, err := CheckBatch(data[p:])
			if err != nil {
				return out, next, fmt.Errorf("read at %d: a batch fails its check: %w", off, err)
			}
			out = append(out, data[p:p+n])
			off, next = h.NextOffset(), h.NextOffset()
			p += n
		}
	}
	return out, next, nil
}
