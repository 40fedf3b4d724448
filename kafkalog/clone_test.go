package kafkalog

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/internal/clonetest"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/kafkalive/kafkalive/vfs/vfstest"
)

// logOp is one call on a Log (or on its file system), drawn once and applied
// alike to any number of logs. Offsets are drawn as fractions of the log's
// range, so that the same op means the same call on logs in the same state.
type logOp struct {
	kind     string
	epoch    int32
	records  []kv
	noCopy   bool
	at, to   float64 // where in [log start, LEO] (or past it)
	maxBytes int
	ms       int64 // time passing before the call
	entries  int   // the cleaner's offset map
}

var logOpKinds = []string{"leader", "leader", "leader", "follower", "truncate", "truncate-fully", "delete-records",
	"retention", "expired", "clean", "flush", "roll", "writeback", "read", "read", "locate", "by-time", "set-config",
	"crash", "power-cut", "close"}

func drawLogOp(t *rapid.T) logOp {
	op := logOp{
		kind:     rapid.SampledFrom(logOpKinds).Draw(t, "op"),
		epoch:    int32(rapid.IntRange(0, 4).Draw(t, "epoch")),
		noCopy:   rapid.Bool().Draw(t, "no copy"),
		at:       rapid.Float64Range(0, 1.1).Draw(t, "at"),
		to:       rapid.Float64Range(0, 1).Draw(t, "to"),
		maxBytes: rapid.IntRange(1, 600).Draw(t, "max bytes"),
		ms:       int64(rapid.IntRange(0, 400).Draw(t, "ms passing")),
		entries:  rapid.IntRange(1, 8).Draw(t, "offset map entries"),
	}
	for i := range rapid.IntRange(1, 4).Draw(t, "records") {
		op.records = append(op.records, kv{key: fmt.Sprint("k", rapid.IntRange(0, 4).Draw(t, "key")), value: fmt.Sprint("v", i),
			tombstone: rapid.IntRange(0, 7).Draw(t, "tombstone") == 0})
	}
	return op
}

// cloneSubject is a log with its file system and the time of its world.
type cloneSubject struct {
	fsys *vfs.MemFS
	pcg  *rand.PCG
	log  *Log
	now  int64
}

// offset returns the offset at fraction f of the log's range.
func (s *cloneSubject) offset(f float64) int64 {
	lso, leo := s.log.LogStartOffset(), s.log.LogEndOffset()
	return lso + int64(f*float64(leo-lso))
}

// apply runs op on s and returns what the log answered.
func (op logOp) apply(s *cloneSubject) string {
	s.now += op.ms
	s.fsys.SetNow(s.now)
	l := s.log
	if len(l.segments) == 0 {
		// A TruncateFullyAndStartAt that failed half-way (its file system
		// crashed) left the log without segments, where a call that needs
		// the active segment panics: a Log has no state for a failed disk
		// yet (Kafka's offline log dir), so nothing more is called.
		return "no segments"
	}
	hw := s.offset(op.to)
	switch op.kind {
	case "leader", "follower":
		b := encodeBatch(0, s.now, op.records...)
		if op.kind == "follower" {
			b = encodeBatch(s.offset(op.at), s.now, op.records...)
			binaryPutEpoch(b, op.epoch)
		}
		var info AppendInfo
		var err error
		switch {
		case op.kind == "leader" && op.noCopy:
			info, err = l.AppendAsLeaderNoCopy(b, op.epoch, s.now)
		case op.kind == "leader":
			info, err = l.AppendAsLeader(b, op.epoch, s.now)
		case op.noCopy:
			info, err = l.AppendAsFollowerNoCopy(b, s.now)
		default:
			info, err = l.AppendAsFollower(b, s.now)
		}
		return fmt.Sprintf("%+v %v", info, err)
	case "truncate":
		return fmt.Sprint(l.TruncateTo(s.offset(op.at), s.now))
	case "truncate-fully":
		return fmt.Sprint(l.TruncateFullyAndStartAt(s.offset(op.at), s.now))
	case "delete-records":
		return fmt.Sprint(l.DeleteRecords(s.offset(op.at), hw))
	case "retention":
		return fmt.Sprint(l.DeleteOldSegments(hw, s.now))
	case "expired":
		return fmt.Sprint(l.DeleteExpiredFiles(s.now))
	case "clean":
		return fmt.Sprint(l.Clean(s.offset(op.at), hw, s.now, CleanerOptions{MaxMapEntries: op.entries}))
	case "flush":
		return fmt.Sprint(l.Flush(s.offset(op.at)))
	case "roll":
		return fmt.Sprint(l.Roll(s.now))
	case "writeback":
		return fmt.Sprint(l.WriteBackIndexes())
	case "read":
		b, err := l.ReadUpTo(s.offset(op.at), op.maxBytes, hw)
		return fmt.Sprintf("%x %v", b, err)
	case "locate":
		return fmt.Sprint(l.Locate(s.offset(op.at), hw))
	case "by-time":
		return fmt.Sprint(l.OffsetForTimestamp(s.now - op.ms*int64(op.entries)))
	case "set-config":
		cfg := l.Config()
		cfg.SegmentBytes = int64(200 + op.maxBytes)
		cfg.RetentionBytes = int64(op.entries * 300)
		return fmt.Sprint(l.SetConfig(cfg))
	case "crash":
		s.fsys.Crash()
	case "power-cut":
		s.fsys.PowerCut(func(_ string, durable, cached int64) int64 { return int64(op.at * float64(cached-durable)) })
	case "close":
		return fmt.Sprint(l.Close())
	}
	return ""
}

// refusingLookup is a Parts.LookupIndex that answers every third target with
// a position that starts no batch, which the log refuses (PartCalls.Refused).
func refusingLookup(index []byte, entries int, base, target int64) (int64, int32, bool) {
	if target%3 == 0 {
		return base, 1, true
	}
	return base, 0, true
}

func newCloneSubject(t *rapid.T) *cloneSubject {
	cfg := DefaultConfig()
	cfg.SegmentBytes = int64(rapid.IntRange(200, 900).Draw(t, "segment.bytes"))
	cfg.SegmentIndexBytes = int64(rapid.IntRange(24, 200).Draw(t, "segment.index.bytes"))
	cfg.IndexIntervalBytes = int64(rapid.IntRange(0, 200).Draw(t, "index.interval.bytes"))
	cfg.SegmentMs = int64(rapid.IntRange(100, 2000).Draw(t, "segment.ms"))
	cfg.SegmentJitterMs = int64(rapid.IntRange(0, 100).Draw(t, "segment.jitter.ms"))
	cfg.RetentionMs = int64(rapid.SampledFrom([]int{-1, 1000}).Draw(t, "retention.ms"))
	cfg.RetentionBytes = int64(rapid.SampledFrom([]int{-1, 600, 2000}).Draw(t, "retention.bytes"))
	cfg.CleanupPolicy = "compact,delete"
	cfg.DeleteRetentionMs = 50
	cfg.FileDeleteDelayMs = 300
	cfg.FlushIntervalMessages = int64(rapid.SampledFrom([]int{3, 1 << 40}).Draw(t, "flush.messages"))
	s := &cloneSubject{fsys: vfs.NewMem(), pcg: rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1)}
	opts := []Option{WithRand(rand.New(s.pcg))}
	if rapid.Bool().Draw(t, "0.11's epoch rule") {
		opts = append(opts, WithOnlyNewerEpochsOnAppend())
	}
	if rapid.Bool().Draw(t, "a lookup part") {
		opts = append(opts, WithParts(Parts{LookupIndex: refusingLookup}))
	}
	l, err := Open(s.fsys, testDir, cfg, 0, opts...)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	s.log = l
	return s
}

// clone returns a copy of s: its file system cloned, its log cloned on it,
// its random source copied.
func (s *cloneSubject) clone() *cloneSubject {
	pcg := *s.pcg
	fsys := s.fsys.Clone()
	return &cloneSubject{fsys: fsys, pcg: &pcg, log: s.log.Clone(fsys, rand.New(&pcg)), now: s.now}
}

// observeLog is everything a user of the log can see without changing it
// (reads count themselves), and the state behind it: the segments and their
// indexes in memory, and the files.
func observeLog(t *rapid.T, s *cloneSubject) string {
	l := s.log
	var b strings.Builder
	fmt.Fprintf(&b, "dir=%s tp=%v lso=%d leo=%d rp=%d size=%d pending=%v unflushed=%d dirDirty=%v closed=%v newer=%v\n",
		l.Dir(), l.TopicPartition(), l.LogStartOffset(), l.LogEndOffset(), l.RecoveryPoint(), l.Size(), l.pending,
		l.unflushedMessages, l.dirDirty, l.closed, l.onlyNewerEpochs)
	off, start, ok := l.LastRead()
	fmt.Fprintf(&b, "config=%+v\nepochs=%v\ncalls=%+v\nreads=%+v\nlast read=%d %+v %v\nreport=%+v\n",
		l.Config(), l.LeaderEpochCache().Entries(), l.PartCalls(), l.ReadStats(), off, start, ok, l.RecoveryReport())
	for _, seg := range l.Segments() {
		fmt.Fprintf(&b, "segment %d%s size=%d interval=%d since=%d jitter=%d created=%d max=%d@%d first=%d/%v\n",
			seg.baseOffset, seg.suffix, seg.size, seg.indexIntervalBytes, seg.bytesSinceLastIndexEntry, seg.rollJitterMs, seg.createdMs,
			seg.maxTimestampSoFar, seg.offsetOfMaxTimestampSoFar, seg.firstBatchTimestamp, seg.firstBatchTimestampKnown)
		for _, x := range []*indexFile{&seg.oidx.idx, &seg.tidx.idx} {
			fmt.Fprintf(&b, "  index %s written=%d length=%d open=%d max=%d/%d\n", x.name(), x.written, x.length, x.openLength, x.maxEntries, x.maxSize)
		}
		fmt.Fprintf(&b, "  offsets %v\n  times %v\n", seg.oidx.entries, seg.tidx.entries)
	}
	tree, err := vfstest.ReadTree(s.fsys, "")
	if err != nil {
		t.Fatalf("reading the files: %v", err)
	}
	for _, p := range slices.Sorted(maps.Keys(tree)) {
		fmt.Fprintf(&b, "%s %x\n", p, tree[p])
	}
	fmt.Fprintf(&b, "%s", s.fsys)
	return b.String()
}

// TestCloneSharesNothingMutable builds a log by random calls (appends as
// leader and follower, kept or copied, truncations, retention, compaction,
// rolls, flushes, reads, config changes, crashes of its file system, a close),
// clones it with its file system, and checks that the clone
//   - shares nothing with it but what Clone says it shares (clonetest);
//   - answers and changes as the original does under the same calls;
//   - does not move when only the original is called, and the other way
//     round.
func TestCloneSharesNothingMutable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		orig := newCloneSubject(t)
		for range rapid.IntRange(0, 50).Draw(t, "calls before the clone") {
			drawLogOp(t).apply(orig)
		}
		clone := orig.clone()
		checkLogShared(t, orig.log, clone.log)
		if got, want := observeLog(t, clone), observeLog(t, orig); got != want {
			t.Fatalf("a fresh clone differs from its original (-original +clone):\n%s", cmp.Diff(want, got))
		}
		for i := range rapid.IntRange(0, 25).Draw(t, "calls on both") {
			op := drawLogOp(t)
			if a, b := op.apply(orig), op.apply(clone); a != b {
				t.Fatalf("call %d %+v answered\n%s\non the original,\n%s\non the clone", i, op, a, b)
			}
			if got, want := observeLog(t, clone), observeLog(t, orig); got != want {
				t.Fatalf("after call %d %+v the clone differs (-original +clone):\n%s", i, op, cmp.Diff(want, got))
			}
		}
		for _, side := range []string{"original", "clone"} {
			changed, still := orig, clone
			if side == "clone" {
				changed, still = clone, orig
			}
			want := observeLog(t, still)
			for i := range rapid.IntRange(0, 25).Draw(t, "calls on "+side) {
				op := drawLogOp(t)
				op.apply(changed)
				if got := observeLog(t, still); got != want {
					t.Fatalf("call %d %+v on the %s alone changed the other (-before +after):\n%s", i, op, side, cmp.Diff(want, got))
				}
			}
		}
	})
}

// checkLogShared fails if the clone reaches memory the original reaches,
// except what Log.Clone shares on purpose: index and epoch entries (written
// in place by neither below what they share), the refusals of the Parts (only
// appended), the recovery report (not changed after Open), and what their
// file systems share (frozen page tables, page bytes).
func checkLogShared(t *rapid.T, orig, clone *Log) {
	allowed := []reflect.Type{reflect.TypeFor[[]offsetEntry](), reflect.TypeFor[[]timeEntry](), reflect.TypeFor[[]EpochEntry](), reflect.TypeFor[[]byte]()}
	for _, s := range clonetest.Shared(orig, clone) {
		switch {
		case slices.Contains(allowed, s.Type()):
		case s.Path == "*.calls.Refused", strings.HasPrefix(s.Path, "*.report."):
		case strings.HasSuffix(s.Path, ".dead"), strings.HasSuffix(s.Path, ".failed"):
			// an error: nobody changes one once made
		case s.Type().String() == "*vfs.pageTable" && s.Value.Elem().FieldByName("frozen").Bool():
		default:
			t.Fatalf("the clone shares %s with the original", s)
		}
	}
}

// TestCloneOpensFilesWhenUsed: a clone opens no file until it needs one, and
// then the file of the same name on its own file system; a log whose file
// system crashed clones into a log whose files fail as the original's do.
func TestCloneOpensFilesWhenUsed(t *testing.T) {
	fsys := vfs.NewMem()
	l, err := Open(fsys, testDir, testConfig(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if _, err := l.AppendAsLeader(valueBatch(int64(i), fmt.Sprint("value ", i)), 0, int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	cfs := fsys.Clone()
	c := l.Clone(cfs, nil)
	for _, s := range c.segments {
		if r := s.log.(*reopened); r.f != nil || r.dead != nil {
			t.Fatalf("segment %d of a fresh clone: file opened %v, dead %v", s.baseOffset, r.f != nil, r.dead)
		}
	}
	want, err := l.Read(0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	// the clone reads its own files: change the original's under it
	if err := fsys.DamageDisk(testDir+"/"+SegmentFileName(0, LogSuffix), 0, 1, func(b []byte) { b[0] ^= 1 }); err == nil {
		t.Log("damaged the original's first segment")
	}
	got, err := c.Read(0, 1<<20)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("the clone read %d bytes (%v), want the %d the original read before its files changed", len(got), err, len(want))
	}

	fsys.Crash()
	crashed := l.Clone(fsys.Clone(), nil)
	_, errOrig := l.AppendAsLeader(valueBatch(30, "after the crash"), 0, 30)
	_, errClone := crashed.AppendAsLeader(valueBatch(30, "after the crash"), 0, 30)
	if errOrig == nil || fmt.Sprint(errOrig) != fmt.Sprint(errClone) {
		t.Fatalf("after a crash the original's append failed with %v, the clone's with %v", errOrig, errClone)
	}
}
