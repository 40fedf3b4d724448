package kafkalog

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/kafkalive/kafkalive/vfs"
	"github.com/stretchr/testify/require"
)

// TestLogScenarios runs the scenario files in testdata/{log,recovery,retention,
// compaction}: multi-step behaviour of one partition log on a MemFS, printed as text
// and reviewed as diffs (rewrite with -rewrite).
//
// Commands (arguments key=value):
//
//	open [clean] [rp=] [lso=] [config keys...]  open the log, print the recovery report
//	append [epoch=] [ts=] [now=]                 one batch per input line: "k=v k2=v2", "v" (no key), "k=<null>" (tombstone)
//	txn pid=                                     the same, as transactional batches of producer pid
//	marker pid= type=abort|commit                a transaction marker
//	records                                      every record from the log start offset
//	segments                                     each segment: base, size, offsets, index entries
//	read offset= [max=]                          the batches a fetch returns
//	roll [now=] | flush | close
//	truncate to= | delete-records to= hw=
//	retention hw= now= | delete-files now=
//	clean hw= now= [from=] [map=]                 one cleaning round
//	crash | powercut keep=none|all|half          then reopen with the last flushed recovery point
//	corrupt segment= pos= hex= | zero-pad segment= len= | cut segment= size= | remove file= | ls
func TestLogScenarios(t *testing.T) {
	for _, dir := range []string{"log", "recovery", "retention", "compaction"} {
		datadriven.Walk(t, "testdata/"+dir, func(t *testing.T, path string) {
			s := &scenario{fsys: vfs.NewMem(), cfg: DefaultConfig()}
			datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
				out, err := s.run(t, d)
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				return out
			})
		})
	}
}

type scenario struct {
	fsys *vfs.MemFS
	cfg  Config
	log  *Log
	rp   int64 // the checkpointed recovery point
}

func (s *scenario) run(t *testing.T, d *datadriven.TestData) (string, error) {
	switch d.Cmd {
	case "open":
		return s.open(d)
	case "append", "txn":
		return s.append(d)
	case "marker":
		return s.marker(d)
	case "records":
		return s.records()
	case "segments":
		return s.segments(), nil
	case "read":
		return s.read(d)
	case "roll":
		return "", s.log.Roll(argInt(d, "now", 0))
	case "flush":
		err := s.log.Flush(s.log.LogEndOffset())
		s.rp = s.log.RecoveryPoint()
		return fmt.Sprintf("recovery point %d\n", s.rp), err
	case "close":
		err := s.log.Close()
		s.rp = s.log.RecoveryPoint()
		return "", err
	case "truncate":
		err := s.log.TruncateTo(argInt(d, "to", 0), 0)
		s.rp = min(s.rp, s.log.RecoveryPoint())
		return fmt.Sprintf("LEO %d\n", s.log.LogEndOffset()), err
	case "delete-records":
		lso, err := s.log.DeleteRecords(argInt(d, "to", 0), argInt(d, "hw", 0))
		return fmt.Sprintf("log start offset %d\n", lso), err
	case "retention":
		return s.retention(d)
	case "delete-files":
		n, err := s.log.DeleteExpiredFiles(argInt(d, "now", 0))
		return fmt.Sprintf("removed %d segments\n", n), err
	case "clean":
		return s.clean(d)
	case "crash", "powercut":
		return s.crash(d)
	case "corrupt", "zero-pad", "cut", "remove":
		return "", s.damage(t, d)
	case "ls":
		return s.ls(), nil
	}
	return "", fmt.Errorf("unknown command %q", d.Cmd)
}

func argInt(d *datadriven.TestData, key string, def int64) int64 {
	for _, a := range d.CmdArgs {
		if a.Key == key && len(a.Vals) > 0 {
			v, err := strconv.ParseInt(a.Vals[0], 10, 64)
			if err != nil {
				d.Fatalf(nil, "%s: %v", key, err)
			}
			return v
		}
	}
	return def
}

func argStr(d *datadriven.TestData, key, def string) string {
	for _, a := range d.CmdArgs {
		if a.Key == key && len(a.Vals) > 0 {
			return a.Vals[0]
		}
	}
	return def
}

// configKeys maps scenario argument names to Config fields.
var configKeys = map[string]func(*Config, int64){
	"segment.bytes":        func(c *Config, v int64) { c.SegmentBytes = v },
	"segment.ms":           func(c *Config, v int64) { c.SegmentMs = v },
	"segment.index.bytes":  func(c *Config, v int64) { c.SegmentIndexBytes = v },
	"index.interval.bytes": func(c *Config, v int64) { c.IndexIntervalBytes = v },
	"retention.ms":         func(c *Config, v int64) { c.RetentionMs = v },
	"retention.bytes":      func(c *Config, v int64) { c.RetentionBytes = v },
	"file.delete.delay.ms": func(c *Config, v int64) { c.FileDeleteDelayMs = v },
	"delete.retention.ms":  func(c *Config, v int64) { c.DeleteRetentionMs = v },
}

func (s *scenario) open(d *datadriven.TestData) (string, error) {
	for _, a := range d.CmdArgs {
		if set, ok := configKeys[a.Key]; ok {
			set(&s.cfg, argInt(d, a.Key, 0))
		}
		if a.Key == "cleanup.policy" {
			s.cfg.CleanupPolicy = strings.Join(a.Vals, ",")
		}
	}
	opts := []Option{WithRecoveryPoint(argInt(d, "rp", s.rp)), WithLogStartOffset(argInt(d, "lso", 0))}
	if d.HasArg("clean") {
		opts = append(opts, WithCleanShutdown())
	}
	l, err := Open(s.fsys, testDir, s.cfg, 0, opts...)
	if err != nil {
		return "", err
	}
	s.log = l
	return describeReport(l.RecoveryReport()) + s.segments(), nil
}

func describeReport(r RecoveryReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "clean shutdown: %v, segments recovered: %d\n", r.CleanShutdown, r.SegmentsRecovered)
	for _, c := range r.Truncations {
		fmt.Fprintf(&b, "cut segment %d at %d (%d bytes): %s\n", c.Segment, c.Position, c.Bytes, c.Reason)
	}
	if len(r.SegmentsDeleted) > 0 {
		fmt.Fprintf(&b, "segments deleted: %v\n", r.SegmentsDeleted)
	}
	if len(r.FilesRemoved) > 0 {
		fmt.Fprintf(&b, "files removed: %v\n", r.FilesRemoved)
	}
	if len(r.SwapsCompleted) > 0 {
		fmt.Fprintf(&b, "swaps completed: %v\n", r.SwapsCompleted)
	}
	if len(r.IndexesRebuilt) > 0 {
		fmt.Fprintf(&b, "indexes rebuilt: %v\n", r.IndexesRebuilt)
	}
	if r.EpochsTruncated {
		b.WriteString("leader epoch cache truncated\n")
	}
	return b.String()
}

func (s *scenario) append(d *datadriven.TestData) (string, error) {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
		var recs []kv
		for _, f := range strings.Fields(line) {
			k, v, ok := strings.Cut(f, "=")
			switch {
			case !ok:
				recs = append(recs, kv{value: f})
			case v == "<null>":
				recs = append(recs, kv{key: k, tombstone: true})
			default:
				recs = append(recs, kv{key: k, value: v})
			}
		}
		batch := encodeBatch(0, argInt(d, "ts", 0), recs...)
		if d.Cmd == "txn" {
			batch = producerBatch(argInt(d, "ts", 0), argInt(d, "pid", 0), 0, true, recs...)
		}
		info, err := s.log.AppendAsLeader(batch, int32(argInt(d, "epoch", 0)), argInt(d, "now", 0))
		if err != nil {
			return b.String(), err
		}
		fmt.Fprintf(&b, "offsets %d..%d\n", info.FirstOffset, info.LastOffset)
	}
	return b.String(), nil
}

func (s *scenario) marker(d *datadriven.TestData) (string, error) {
	t := ControlCommit
	if argStr(d, "type", "commit") == "abort" {
		t = ControlAbort
	}
	info, err := s.log.AppendAsLeader(markerBatch(argInt(d, "ts", 0), argInt(d, "pid", 0), t), 0, 0)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("offset %d\n", info.FirstOffset), nil
}

func (s *scenario) records() (string, error) {
	var b strings.Builder
	var err error
	fmt.Fprintf(&b, "log start %d, LEO %d\n", s.log.LogStartOffset(), s.log.LogEndOffset())
	err = s.log.eachBatch(s.log.LogStartOffset(), s.log.LogEndOffset(), func(_ *Segment, h *BatchHeader, raw []byte) (bool, error) {
		rb, _, err := ReadBatch(raw)
		if err != nil {
			return false, err
		}
		if len(rb.Records) == 0 {
			fmt.Fprintf(&b, "  (empty batch %d..%d)\n", h.BaseOffset, h.LastOffset())
		}
		for i := range rb.Records {
			r := &rb.Records[i]
			o := rb.Offset(r)
			if o < s.log.LogStartOffset() {
				continue
			}
			fmt.Fprintf(&b, "  %d %s\n", o, describeRecord(&rb, r))
		}
		return true, nil
	})
	return b.String(), err
}

func describeRecord(b *RecordBatch, r *Record) string {
	if b.Attributes.IsControl() {
		k, _ := ParseControlRecordKey(r.Key)
		return "<" + k.Type.String() + ">"
	}
	v := string(r.Value)
	if r.Value == nil {
		v = "<null>"
	}
	if r.Key == nil {
		return v
	}
	return string(r.Key) + "=" + v
}

func (s *scenario) segments() string {
	var b strings.Builder
	for i, seg := range s.log.segments {
		first, last := int64(-1), int64(-1)
		buf := make([]byte, lookupBufferSize)
		sc := newBatchScanner(seg.log, "", 0, seg.size, buf, false)
		n := 0
		for sc.Next() {
			if first < 0 {
				first = sc.hdr.BaseOffset
			}
			last, n = sc.hdr.LastOffset(), n+1
		}
		offs := "empty"
		if n > 0 {
			offs = fmt.Sprintf("offsets %d..%d", first, last)
		}
		active := ""
		if i == len(s.log.segments)-1 {
			active = " (active)"
		}
		fmt.Fprintf(&b, "segment %d: %d bytes, %d batches, %s, %d index entries%s\n", seg.baseOffset, seg.size, n, offs, seg.oidx.Entries(), active)
	}
	return b.String()
}

func (s *scenario) read(d *datadriven.TestData) (string, error) {
	data, err := s.log.Read(argInt(d, "offset", 0), int(argInt(d, "max", 1<<20)))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d bytes\n", len(data))
	for p := 0; p < len(data); {
		h, n, err := CheckBatch(data[p:])
		if err != nil {
			return b.String(), err
		}
		fmt.Fprintf(&b, "  batch %d..%d\n", h.BaseOffset, h.LastOffset())
		p += n
	}
	return b.String(), nil
}

func (s *scenario) retention(d *datadriven.TestData) (string, error) {
	dels, err := s.log.DeleteOldSegments(argInt(d, "hw", s.log.LogEndOffset()), argInt(d, "now", 0))
	var b strings.Builder
	for _, del := range dels {
		fmt.Fprintf(&b, "deleted by %s: %v\n", del.Reason, del.Segments)
	}
	fmt.Fprintf(&b, "log start offset %d\n", s.log.LogStartOffset())
	return b.String() + s.segments(), err
}

func (s *scenario) clean(d *datadriven.TestData) (string, error) {
	res, err := s.log.Clean(argInt(d, "from", 0), argInt(d, "hw", s.log.LogEndOffset()), argInt(d, "now", 0), CleanerOptions{MaxMapEntries: int(argInt(d, "map", 0))})
	if err != nil {
		return "", err
	}
	out := fmt.Sprintf("cleaned [%d, %d): %d of %d records kept, %d -> %d bytes\n", res.FirstDirtyOffset, res.EndOffset, res.RecordsRetained, res.RecordsRead, res.BytesRead, res.BytesWritten)
	recs, err := s.records()
	return out + recs, err
}

func (s *scenario) crash(d *datadriven.TestData) (string, error) {
	if d.Cmd == "crash" {
		s.fsys.Crash()
	} else {
		keep := map[string]func(string, int64, int64) int64{
			"none": func(string, int64, int64) int64 { return 0 },
			"all":  func(_ string, d, c int64) int64 { return c - d },
			"half": func(_ string, d, c int64) int64 { return (c - d) / 2 },
		}[argStr(d, "keep", "none")]
		s.fsys.PowerCut(keep)
	}
	l, err := Open(s.fsys, testDir, s.cfg, 0, WithRecoveryPoint(s.rp))
	if err != nil {
		return "", err
	}
	s.log = l
	return describeReport(l.RecoveryReport()) + s.segments(), nil
}

func (s *scenario) damage(t *testing.T, d *datadriven.TestData) error {
	name := segPath(argInt(d, "segment", 0), LogSuffix)
	switch d.Cmd {
	case "corrupt":
		var b []byte
		_, err := fmt.Sscanf(argStr(d, "hex", ""), "%x", &b)
		require.NoError(t, err)
		writeFile(t, s.fsys, name, argInt(d, "pos", 0), b)
	case "zero-pad":
		writeFile(t, s.fsys, name, fileSize(t, s.fsys, name), make([]byte, argInt(d, "len", 0)))
	case "cut":
		f, err := s.fsys.OpenReadWrite(name)
		require.NoError(t, err)
		require.NoError(t, f.Truncate(argInt(d, "size", 0)))
		require.NoError(t, f.Close())
	case "remove":
		return s.fsys.Remove(testDir + "/" + argStr(d, "file", ""))
	}
	return nil
}

func (s *scenario) ls() string {
	names, _ := s.fsys.List(testDir)
	var b strings.Builder
	for _, n := range names {
		fi, err := s.fsys.Stat(testDir + "/" + n)
		if err == nil {
			fmt.Fprintf(&b, "%s %d\n", n, fi.Size())
		}
	}
	return b.String()
}
