package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/kafkalive/kafkalive/internal/kafkatools/cli"
	"github.com/kafkalive/kafkalive/internal/kafkatools/dumplog"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/vfs"
)

// log-dirs describes a Kafka log directory (what kafka-log-dirs.sh --describe
// reports, and more): its partitions with their segments, sizes, log start, log
// end, recovery point and high watermark from the root checkpoint files.
//
// It only reads. It does not use kafkalog.Open, which recovers and repairs a
// partition (deleting leftovers, truncating torn tails): a describe command must
// not change the directory it describes. It verifies what it reports
// (logdirs_verify.go): every batch's CRC, offsets in order within and across
// segments, the indexes against the log, and the recovery points after a clean
// shutdown.

func init() {
	register(command{
		name:    "log-dirs",
		summary: "describe a Kafka log directory: partitions, segments, offsets, checkpoints",
		run:     runLogDirs,
	})
}

func runLogDirs(args []string, stdout, stderr io.Writer) int {
	fset := cli.NewFlagSet("log-dirs")
	dir := fset.String("dir", "", "REQUIRED: the Kafka log directory `DIR` (one entry of log.dirs)")
	asJSON := fset.Bool("json", false, "print kafka-log-dirs.sh --describe's JSON instead of the tables")
	u := cli.Usage{Synopsis: "log-dirs --dir DIR [--json]", About: `Describes a Kafka log directory without changing it: each partition's segments,
sizes, log start and end offsets, and the recovery points, high watermarks and
cleaner offsets of the root checkpoint files. It verifies what it reads: every
batch's CRC, offsets in order within and across segments, the offset and time
indexes against the batches, and after a clean shutdown each recovery point
against its log end. Exits 1 if something is damaged (what, on stderr).`}
	if code, ok := u.Parse(fset, args, stdout, stderr); !ok {
		return code
	}
	if *dir == "" || fset.NArg() > 0 {
		u.Fail(fset, stderr, "--dir is required (and takes no other arguments)")
		return 2
	}
	out := bufio.NewWriter(stdout)
	desc, err := describeLogDir(vfs.Default, *dir)
	if err != nil {
		fmt.Fprintf(stderr, "kafkalive: %v\n", err)
		return 1
	}
	if *asJSON {
		desc.printJSON(out)
	} else {
		desc.print(out)
	}
	if err := out.Flush(); err != nil {
		return 1
	}
	for _, p := range desc.problems {
		fmt.Fprintf(stderr, "kafkalive: %s\n", p)
	}
	if len(desc.problems) > 0 {
		return 1
	}
	return 0
}

// logDirDesc is what describeLogDir found.
type logDirDesc struct {
	dir         string
	brokerID    int32
	cleanMarker kafkalog.CleanShutdownMarker
	checkpoints map[string]map[kafkalog.TopicPartition]int64 // by file name
	partitions  []partitionDesc
	others      []string // directories and files that are not live partitions
	problems    []string
}

// partitionDesc describes one partition directory.
type partitionDesc struct {
	tp          kafkalog.TopicPartition
	segments    []segmentDesc
	epochs      []kafkalog.EpochEntry
	epochsErr   error
	snapshots   []int64
	leftovers   []string // .deleted, .cleaned, .swap files
	size        int64
	logEnd      int64
	firstOffset int64 // first offset held, -1 if no records
}

// segmentDesc describes one segment.
type segmentDesc struct {
	base         int64
	size         int64
	batches      int
	firstOffset  int64 // -1 if empty
	lastOffset   int64
	maxTimestamp int64
	index        indexCount
	timeIndex    indexCount
	// damage is what is wrong with the log file (its batches after it
	// are not read), indexDamage with an index.
	damage, indexDamage string
}

var rootCheckpoints = []string{
	kafkalog.RecoveryPointCheckpointFile,
	kafkalog.ReplicationOffsetCheckpointFile,
	kafkalog.LogStartOffsetCheckpointFile,
	kafkalog.CleanerOffsetCheckpointFile,
}

func describeLogDir(fsys vfs.FS, dir string) (*logDirDesc, error) {
	names, err := fsys.List(dir)
	if err != nil {
		return nil, err
	}
	d := &logDirDesc{dir: dir, brokerID: readBrokerID(fsys, dir), checkpoints: map[string]map[kafkalog.TopicPartition]int64{}}
	if d.cleanMarker, err = kafkalog.ReadCleanShutdownMarker(fsys, dir); err != nil {
		d.problems = append(d.problems, err.Error())
	}
	for _, name := range rootCheckpoints {
		m, err := kafkalog.ReadOffsetCheckpoint(fsys, fsys.PathJoin(dir, name))
		if err != nil {
			d.problems = append(d.problems, err.Error())
			continue
		}
		d.checkpoints[name] = m
	}
	for _, name := range names {
		st, err := fsys.Stat(fsys.PathJoin(dir, name))
		if err != nil {
			d.problems = append(d.problems, err.Error())
			continue
		}
		tp, ok := kafkalog.ParseTopicPartitionDir(name)
		if !st.IsDir() || !ok {
			if st.IsDir() {
				d.others = append(d.others, name+"/")
			}
			continue
		}
		p := describePartition(fsys, fsys.PathJoin(dir, name), tp, &d.problems)
		d.partitions = append(d.partitions, p)
	}
	slices.SortFunc(d.partitions, func(a, b partitionDesc) int { return a.tp.Compare(b.tp) })
	d.checkRecoveryPoints()
	return d, nil
}

func describePartition(fsys vfs.FS, dir string, tp kafkalog.TopicPartition, problems *[]string) partitionDesc {
	p := partitionDesc{tp: tp, firstOffset: -1}
	names, err := fsys.List(dir)
	if err != nil {
		*problems = append(*problems, err.Error())
		return p
	}
	has := map[string]bool{}
	for _, n := range names {
		has[n] = true
	}
	p.epochs, p.epochsErr = kafkalog.ReadLeaderEpochCheckpoint(fsys, fsys.PathJoin(dir, kafkalog.LeaderEpochCheckpointFile))
	if p.epochsErr != nil {
		*problems = append(*problems, p.epochsErr.Error())
	}
	for _, n := range names {
		base, suffix, ok := kafkalog.ParseSegmentFileName(n)
		switch {
		case !ok:
		case suffix == kafkalog.LogSuffix:
			s := describeSegment(fsys, dir, base, has)
			if s.damage != "" {
				*problems = append(*problems, fmt.Sprintf("%s: %s", fsys.PathJoin(dir, n), s.damage))
			}
			if s.indexDamage != "" {
				*problems = append(*problems, fmt.Sprintf("%s: %s", dir, s.indexDamage))
			}
			p.segments = append(p.segments, s)
		case suffix == kafkalog.SnapshotSuffix:
			p.snapshots = append(p.snapshots, base)
		case strings.Count(suffix, ".") > 1:
			p.leftovers = append(p.leftovers, n)
		}
	}
	p.logEnd = -1
	for _, s := range p.segments {
		p.size += s.size
		if p.firstOffset < 0 && s.firstOffset >= 0 {
			p.firstOffset = s.firstOffset
		}
	}
	if n := len(p.segments); n > 0 {
		last := p.segments[n-1]
		p.logEnd = last.base
		if last.firstOffset >= 0 {
			p.logEnd = last.lastOffset + 1
		}
	}
	if why := p.checkSegmentOrder(); why != "" {
		*problems = append(*problems, fmt.Sprintf("%s: %s", dir, why))
	}
	return p
}

// headerProbe is how many bytes describeSegment reads of each batch at
// first: a v2 header.
const headerProbe = kafkalog.BatchHeaderLen

// describeSegment reads a segment batch by batch, checking each batch's
// CRC and offsets, then its indexes against the batches
// (logdirs_verify.go). Damage to the log stops the walk (the batches
// after it are not reached); damage to an index is reported beside it.
func describeSegment(fsys vfs.FS, dir string, base int64, has map[string]bool) segmentDesc {
	s := segmentDesc{base: base, firstOffset: -1, maxTimestamp: kafkalog.NoTimestamp}
	batches, damage := walkSegment(fsys, dir, &s)
	s.damage = damage
	var oidx, tidx []byte
	s.index, oidx = countIndex(fsys, dir, base, kafkalog.IndexSuffix, kafkalog.OffsetIndexEntrySize, 0, has)
	s.timeIndex, tidx = countIndex(fsys, dir, base, kafkalog.TimeIndexSuffix, kafkalog.TimeIndexEntrySize, 8, has)
	if s.damage != "" {
		return s
	}
	for _, c := range []struct {
		name   string
		count  indexCount
		verify func() string
	}{
		{kafkalog.IndexSuffix, s.index, func() string { return checkOffsetIndex(oidx, base, batches) }},
		{kafkalog.TimeIndexSuffix, s.timeIndex, func() string { return checkTimeIndex(tidx, base, batches) }},
	} {
		why := c.count.damage
		if why == "" && c.count.present && !c.count.unscanned {
			why = c.verify()
		}
		if why != "" && s.indexDamage == "" {
			s.indexDamage = kafkalog.SegmentFileName(base, c.name) + ": " + why
		}
	}
	return s
}

// walkSegment reads segment s's batches, filling in its size and offsets;
// it returns the batches and the damage that stopped it ("" if none).
func walkSegment(fsys vfs.FS, dir string, s *segmentDesc) ([]span, string) {
	f, err := fsys.Open(fsys.PathJoin(dir, kafkalog.SegmentFileName(s.base, kafkalog.LogSuffix)))
	if err != nil {
		return nil, err.Error()
	}
	defer f.Close()
	if s.size, err = f.Size(); err != nil {
		return nil, err.Error()
	}
	var batches []span
	var hdr [headerProbe]byte
	buf := make([]byte, min(crcChunk, s.size))
	for pos := int64(0); pos < s.size; {
		n := min(int64(headerProbe), s.size-pos)
		if n < kafkalog.HeaderLenUpToMagic {
			return batches, fmt.Sprintf("torn tail: %d bytes at position %d", s.size-pos, pos)
		}
		if err := vfs.ReadAtFull(f, hdr[:n], pos); err != nil {
			return batches, fmt.Sprintf("position %d: %v", pos, err)
		}
		size, magic, err := kafkalog.PeekBatch(hdr[:n])
		if err != nil {
			return batches, dumplog.AtPosition(err, pos).Error()
		}
		if size > s.size-pos {
			return batches, fmt.Sprintf("torn tail: the batch at position %d declares %d bytes, %d are present", pos, size, s.size-pos)
		}
		first, last, ts, err := batchSpan(hdr[:n], magic)
		if err != nil {
			return batches, dumplog.AtPosition(err, pos).Error()
		}
		if err := checkCRC(f, pos, size, magic, hdr[:n], buf); err != nil {
			return batches, err.Error()
		}
		b := span{pos: pos, first: first, last: last, maxTimestamp: ts, legacy: magic != kafkalog.MagicV2}
		var prev *span
		if len(batches) > 0 {
			prev = &batches[len(batches)-1]
		}
		if why := checkOrder(b, prev, s.base); why != "" {
			return batches, why
		}
		batches = append(batches, b)
		if s.firstOffset < 0 {
			s.firstOffset = first
		}
		s.lastOffset, s.maxTimestamp = last, max(s.maxTimestamp, ts)
		s.batches++
		pos += size
	}
	return batches, ""
}

// batchSpan returns the first and last offsets and the max timestamp of the
// entry whose header is hdr. For a legacy message the first offset is its own
// (for a compressed wrapper, that of the last inner message).
func batchSpan(hdr []byte, magic int8) (first, last, maxTs int64, err error) {
	if magic == kafkalog.MagicV2 {
		h, err := kafkalog.ReadBatchHeader(hdr)
		if err != nil {
			return 0, 0, 0, err
		}
		return h.BaseOffset, h.LastOffset(), h.MaxTimestamp, nil
	}
	off := int64(binary.BigEndian.Uint64(hdr))
	ts := int64(kafkalog.NoTimestamp)
	if magic == 1 && len(hdr) >= 26 {
		ts = int64(binary.BigEndian.Uint64(hdr[18:]))
	}
	if magic != 0 && magic != 1 {
		return 0, 0, 0, fmt.Errorf("%w: %d", kafkalog.ErrUnknownMagic, magic)
	}
	return off, off, ts, nil
}

// indexCount is what an index file holds: entries, then slots that read as
// the base offset after the first (a preallocated, untrimmed tail: the normal
// state of a running broker's active segment, or the mark of a crash).
type indexCount struct {
	present   bool
	entries   int
	padding   int
	unscanned bool   // too large to scan: entries is the slot count
	damage    string // what is wrong with the file itself
}

// maxIndexScan bounds how much of an index log-dirs reads (Kafka's default
// segment.index.bytes is 10 MiB).
const maxIndexScan = 64 << 20

// countIndex counts the entries of an index file, stopping, as Kafka's
// DumpLogSegments does, at the first slot after the first whose relative offset
// (at relPos in the entry) is 0, and counting none if the first slot is all
// zero (an empty segment's preallocated index); it returns them.
func countIndex(fsys vfs.FS, dir string, base int64, suffix string, entrySize, relPos int, has map[string]bool) (indexCount, []byte) {
	name := kafkalog.SegmentFileName(base, suffix)
	if !has[name] {
		return indexCount{}, nil
	}
	f, err := fsys.Open(fsys.PathJoin(dir, name))
	if err != nil {
		return indexCount{present: true, damage: err.Error()}, nil
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		return indexCount{present: true, damage: err.Error()}, nil
	}
	slots := int(size / int64(entrySize))
	if size > maxIndexScan {
		return indexCount{present: true, entries: slots, unscanned: true}, nil
	}
	b := make([]byte, slots*entrySize)
	if err := vfs.ReadAtFull(f, b, 0); err != nil {
		return indexCount{present: true, entries: slots, damage: err.Error()}, nil
	}
	entries, damage := indexEntries(b, size, entrySize, relPos)
	n := len(entries) / entrySize
	return indexCount{present: true, entries: n, padding: slots - n, damage: damage}, entries
}

func (d *logDirDesc) print(w io.Writer) {
	fmt.Fprintf(w, "Log dir: %s\n", d.dir)
	switch {
	case !d.cleanMarker.Present:
		fmt.Fprintf(w, "Clean shutdown: no (%s absent: the broker would recover from the recovery points)\n", kafkalog.CleanShutdownFile)
	case d.cleanMarker.HasBrokerEpoch:
		fmt.Fprintf(w, "Clean shutdown: yes (broker epoch %d)\n", d.cleanMarker.BrokerEpoch)
	default:
		fmt.Fprintln(w, "Clean shutdown: yes")
	}
	fmt.Fprintln(w)
	d.printPartitions(w)
	for _, p := range d.partitions {
		fmt.Fprintln(w)
		p.printSegments(w)
	}
	d.printOrphans(w)
}

func (d *logDirDesc) checkpoint(name string, tp kafkalog.TopicPartition) string {
	if off, ok := d.checkpoints[name][tp]; ok {
		return strconv.FormatInt(off, 10)
	}
	return "-"
}

func (d *logDirDesc) printPartitions(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PARTITION\tSEGMENTS\tSIZE\tLOG-START\tLOG-END\tRECOVERY-POINT\tHIGH-WATERMARK\tCLEANER\tLEADER-EPOCH")
	for _, p := range d.partitions {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", p.tp, len(p.segments), p.size, d.logStart(p), offsetOrDash(p.logEnd),
			d.checkpoint(kafkalog.RecoveryPointCheckpointFile, p.tp), d.checkpoint(kafkalog.ReplicationOffsetCheckpointFile, p.tp),
			d.checkpoint(kafkalog.CleanerOffsetCheckpointFile, p.tp), latestEpoch(p.epochs))
	}
	tw.Flush()
}

// logStart is Kafka's log start offset at load: the checkpointed value if it is
// above the first segment's base offset, else that base offset.
func (d *logDirDesc) logStart(p partitionDesc) string {
	if len(p.segments) == 0 {
		return "-"
	}
	start := p.segments[0].base
	if off, ok := d.checkpoints[kafkalog.LogStartOffsetCheckpointFile][p.tp]; ok && off > start {
		start = off
	}
	return strconv.FormatInt(start, 10)
}

func offsetOrDash(o int64) string {
	if o < 0 {
		return "-"
	}
	return strconv.FormatInt(o, 10)
}

func latestEpoch(es []kafkalog.EpochEntry) string {
	if len(es) == 0 {
		return "-"
	}
	e := es[len(es)-1]
	return fmt.Sprintf("%d from offset %d", e.Epoch, e.StartOffset)
}

func (p partitionDesc) printSegments(w io.Writer) {
	fmt.Fprintf(w, "%s\n", p.tp)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  SEGMENT\tBYTES\tBATCHES\tOFFSETS\tMAX-TIMESTAMP\tINDEX\tTIMEINDEX\tSTATE")
	for _, s := range p.segments {
		offsets := "empty"
		if s.firstOffset >= 0 {
			offsets = fmt.Sprintf("%d..%d", s.firstOffset, s.lastOffset)
		}
		state := "ok"
		switch {
		case s.damage != "":
			state = "damaged"
		case s.indexDamage != "":
			state = "index damaged"
		}
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%s\t%d\t%s\t%s\t%s\n", kafkalog.SegmentFileName(s.base, kafkalog.LogSuffix), s.size, s.batches,
			offsets, s.maxTimestamp, s.index, s.timeIndex, state)
	}
	tw.Flush()
	if len(p.snapshots) > 0 {
		parts := make([]string, len(p.snapshots))
		for i, o := range p.snapshots {
			parts[i] = strconv.FormatInt(o, 10)
		}
		fmt.Fprintf(w, "  producer snapshots at: %s\n", strings.Join(parts, ", "))
	}
	for _, l := range p.leftovers {
		fmt.Fprintf(w, "  leftover: %s (removed or swapped in when the broker loads the log)\n", l)
	}
}

// String says "missing", "1 entry", "10 entries" or "3 entries + 1310717
// preallocated".
func (c indexCount) String() string {
	if !c.present {
		return "missing"
	}
	s := strconv.Itoa(c.entries) + " entries"
	if c.entries == 1 {
		s = "1 entry"
	}
	if c.padding > 0 {
		s += fmt.Sprintf(" + %d preallocated", c.padding)
	}
	return s
}

// printOrphans lists checkpoint entries without a partition directory and
// directories that are not live partitions.
func (d *logDirDesc) printOrphans(w io.Writer) {
	live := map[kafkalog.TopicPartition]bool{}
	for _, p := range d.partitions {
		live[p.tp] = true
	}
	var orphans []string
	for _, name := range rootCheckpoints {
		var missing []string
		for _, tp := range kafkalog.SortedTopicPartitions(d.checkpoints[name]) {
			if !live[tp] {
				missing = append(missing, tp.String())
			}
		}
		if len(missing) > 3 {
			missing = append(missing[:3], fmt.Sprintf("and %d more", len(missing)-3))
		}
		if len(missing) > 0 {
			orphans = append(orphans, fmt.Sprintf("%s: %s", name, strings.Join(missing, ", ")))
		}
	}
	if len(orphans)+len(d.others) == 0 {
		return
	}
	fmt.Fprintln(w)
	for _, o := range d.others {
		fmt.Fprintf(w, "Not a live partition: %s\n", o)
	}
	for _, o := range orphans {
		fmt.Fprintf(w, "Checkpointed partitions with no directory here, %s\n", o)
	}
}
