package dumplog

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/internal/kafkatools/cli"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/vfs"
)

// Options are kafka-dump-log's flags, parsed by [ParseFlags].
type Options struct {
	dumpOptions
}

// dumpOptions are kafka-dump-log's flags.
type dumpOptions struct {
	files          []string
	printData      bool
	deep           bool
	indexSanity    bool
	verifyOnly     bool
	offsetsDecoder bool
	txnDecoder     bool
	skipMetadata   bool
	maxMessageSize int
	maxBytes       int64
}

// defaultMaxMessageSize is kafka-dump-log's --max-message-size default (5 MiB).
const defaultMaxMessageSize = 5 * 1024 * 1024

// ParseFlags parses kafka-dump-log's flags (--files, --print-data-log,
// --deep-iteration, --index-sanity-check, --verify-index-only,
// --offsets-decoder, --transaction-log-decoder, --skip-record-metadata, --max-message-size,
// --max-bytes). On -h or a mistake it prints the usage to stderr and
// returns ok false with the exit code (0 for -h, 2 otherwise).
func ParseFlags(args []string, stderr io.Writer) (opts Options, code int, ok bool) {
	o, code, ok := parseDumpFlags(args, stderr, stderr)
	return Options{o}, code, ok
}

var dumpUsage = cli.Usage{
	Synopsis: "dump-log --files FILE[,FILE...] [flags]",
	About: `Parses log, index, snapshot and checkpoint files and prints their content the way
Kafka's kafka-dump-log.sh does. Exits 1 if a file is torn, corrupt or fails a check.`,
}

func parseDumpFlags(args []string, stdout, stderr io.Writer) (dumpOptions, int, bool) {
	var o dumpOptions
	fs := cli.NewFlagSet("dump-log")
	files := fs.String("files", "", "REQUIRED: the comma separated list of data and index log `FILES` to be dumped")
	fs.BoolVar(&o.printData, "print-data-log", false, "print the messages' content (implies --deep-iteration)")
	fs.BoolVar(&o.deep, "deep-iteration", false, "print every record, not only batches")
	fs.BoolVar(&o.indexSanity, "index-sanity-check", false, "only check the indexes' sanity, as the broker does on startup")
	fs.BoolVar(&o.verifyOnly, "verify-index-only", false, "verify the indexes against the log without printing them")
	fs.BoolVar(&o.offsetsDecoder, "offsets-decoder", false, "decode records as __consumer_offsets offset commits and group metadata")
	fs.BoolVar(&o.txnDecoder, "transaction-log-decoder", false, "decode records as __transaction_state transaction metadata")
	fs.BoolVar(&o.skipMetadata, "skip-record-metadata", false, "do not print each record's metadata")
	fs.IntVar(&o.maxMessageSize, "max-message-size", defaultMaxMessageSize, "size in `BYTES` of the largest message (used to read an index entry's batch)")
	maxBytes := fs.Int("max-bytes", math.MaxInt32, "read at most this many `BYTES` of each .log file")
	if code, ok := dumpUsage.Parse(fs, args, stdout, stderr); !ok {
		return o, code, false
	}
	if *files == "" || fs.NArg() > 0 {
		dumpUsage.Fail(fs, stderr, "--files is required (and takes no other arguments)")
		return o, 2, false
	}
	o.files = strings.Split(*files, ",")
	o.maxBytes = int64(*maxBytes)
	// DumpLogSegments: --offsets-decoder wins over --transaction-log-decoder
	o.txnDecoder = o.txnDecoder && !o.offsetsDecoder
	o.printData = o.printData || o.offsetsDecoder || o.txnDecoder
	o.deep = o.deep || o.printData
	return o, 0, true
}

// Run parses args as [ParseFlags] does and dumps the files from fsys; it
// returns the exit code.
func Run(fsys vfs.FS, args []string, stdout, stderr io.Writer) int {
	o, code, ok := parseDumpFlags(args, stdout, stderr)
	if !ok {
		return code
	}
	return Dump(fsys, Options{o}, stdout, stderr)
}

// Dump prints the files of opts, read from fsys, as kafka-dump-log.sh
// does, to stdout; problems go to stderr. It returns the exit code: 1 if
// a file is torn, corrupt or fails a check, else 0.
func Dump(fsys vfs.FS, opts Options, stdout, stderr io.Writer) int {
	o := opts.dumpOptions
	out := bufio.NewWriter(stdout)
	d := &dumper{fsys: fsys, opts: o, out: out, errw: stderr, idxMismatch: map[string][]offsetPair{}, nonConsecutive: map[string][]offsetPair{}}
	for _, file := range o.files {
		d.dumpFile(file)
	}
	d.printSummaries()
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "dump-log: %v\n", err)
		return 1
	}
	if d.failed {
		return 1
	}
	return 0
}

// offsetPair is a pair of offsets reported at the end, as Kafka does: (index
// offset, log offset) for mismatches, (offset, next offset) for gaps.
type offsetPair struct{ a, b int64 }

// dumper holds the state of one dump-log run.
type dumper struct {
	fsys vfs.FS
	opts dumpOptions
	out  *bufio.Writer
	errw io.Writer

	failed         bool
	idxMismatch    map[string][]offsetPair // by file, newest first (Kafka prepends)
	idxOrder       []string
	nonConsecutive map[string][]offsetPair
	gapOrder       []string
	timeErrs       []timeIndexErrors
}

// problem reports something wrong with a file on stderr and makes the run fail.
// stdout is flushed first so that the two streams interleave sensibly.
func (d *dumper) problem(file string, format string, args ...any) {
	d.out.Flush()
	fmt.Fprintf(d.errw, "kafkalive: %s: %s\n", file, fmt.Sprintf(format, args...))
	d.failed = true
}

// fileKind is how dump-log reads a file, chosen from its name.
type fileKind int

const (
	kindUnknown fileKind = iota
	kindLog
	kindKRaftSnapshot
	kindIndex
	kindTimeIndex
	kindTxnIndex
	kindProducerSnapshot
	kindLeaderEpoch
	kindOffsetCheckpoint
	kindCleanShutdown
)

// kindOf classifies a file by its name like Kafka's tool (by the suffix after
// the last dot) and adds what Kafka's tool ignores: checkpoint files, the clean
// shutdown marker, and segment files renamed .deleted, .cleaned or .swap.
func kindOf(name string) fileKind {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	switch base {
	case kafkalog.LeaderEpochCheckpointFile:
		return kindLeaderEpoch
	case kafkalog.RecoveryPointCheckpointFile, kafkalog.LogStartOffsetCheckpointFile,
		kafkalog.ReplicationOffsetCheckpointFile, kafkalog.CleanerOffsetCheckpointFile:
		return kindOffsetCheckpoint
	case kafkalog.CleanShutdownFile:
		return kindCleanShutdown
	}
	for _, st := range []string{kafkalog.DeletedSuffix, kafkalog.CleanedSuffix, kafkalog.SwapSuffix} {
		base = strings.TrimSuffix(base, st)
	}
	switch path.Ext(base) {
	case kafkalog.LogSuffix:
		return kindLog
	case kraftSnapshotSuffix:
		return kindKRaftSnapshot
	case kafkalog.IndexSuffix:
		return kindIndex
	case kafkalog.TimeIndexSuffix:
		return kindTimeIndex
	case kafkalog.TxnIndexSuffix:
		return kindTxnIndex
	case kafkalog.SnapshotSuffix:
		return kindProducerSnapshot
	}
	return kindUnknown
}

// kraftSnapshotSuffix names KRaft metadata snapshots and bootstrap.checkpoint
// (Snapshots.SUFFIX), which hold record batches like a .log.
const kraftSnapshotSuffix = ".checkpoint"

func (d *dumper) dumpFile(file string) {
	fmt.Fprintf(d.out, "Dumping %s\n", file)
	switch kindOf(file) {
	case kindLog, kindKRaftSnapshot:
		d.dumpLog(file)
	case kindIndex:
		d.dumpIndex(file)
	case kindTimeIndex:
		d.dumpTimeIndex(file)
	case kindTxnIndex:
		d.dumpTxnIndex(file)
	case kindProducerSnapshot:
		d.dumpProducerSnapshot(file)
	case kindLeaderEpoch:
		d.dumpLeaderEpochCheckpoint(file)
	case kindOffsetCheckpoint:
		d.dumpOffsetCheckpoint(file)
	case kindCleanShutdown:
		d.dumpCleanShutdown(file)
	default:
		d.out.Flush()
		fmt.Fprintf(d.errw, "Ignoring unknown file %s\n", file)
	}
}

// baseOffsetOf returns the number before the first dot of a segment file's
// name, as Kafka's tool takes it (file.getName.split("\\.")(0).toLong).
func baseOffsetOf(file string) (int64, bool) {
	base := path.Base(strings.ReplaceAll(file, "\\", "/"))
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	n, err := strconv.ParseInt(base, 10, 64)
	return n, err == nil
}

// siblingFile returns the file next to file with the same base name and suffix.
func siblingFile(file, suffix string) string {
	dir, base := path.Split(strings.ReplaceAll(file, "\\", "/"))
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	return dir + base + suffix
}

// printSummaries prints what Kafka's tool prints after all files, on stderr.
func (d *dumper) printSummaries() {
	d.out.Flush()
	for _, f := range d.idxOrder {
		fmt.Fprintf(d.errw, "Mismatches in :%s\n", f)
		for _, p := range d.idxMismatch[f] {
			fmt.Fprintf(d.errw, "  Index offset: %d, log offset: %d\n", p.a, p.b)
		}
	}
	for _, te := range d.timeErrs {
		te.print(d.errw)
	}
	for _, f := range d.gapOrder {
		fmt.Fprintf(d.errw, "Non-consecutive offsets in %s\n", f)
		for _, p := range d.nonConsecutive[f] {
			fmt.Fprintf(d.errw, "  %d is followed by %d\n", p.a, p.b)
		}
	}
}
