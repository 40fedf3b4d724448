package kafkalog

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/vfs"
)

// Checkpoint files are text (CheckpointFile.java): a version line, a count
// line, then count entry lines of fields separated by whitespace:
//
//	0                         version
//	3                         count
//	__consumer_offsets 28 2   topic partition offset  (offset checkpoints)
//	...
//
// leader-epoch-checkpoint entries are "epoch startOffset". Files are replaced
// atomically: written to <name>.tmp, fsynced, renamed, directory fsynced.

// ErrCorruptCheckpoint means a checkpoint file does not parse: unknown version,
// a malformed line, or a count that does not match the entries (Kafka's
// CheckpointFile throws IOException; the broker then takes the log dir offline).
var ErrCorruptCheckpoint = errors.New("kafkalog: corrupt checkpoint file")

// Names of Kafka's checkpoint files. The first four live in the root of a log
// dir, LeaderEpochCheckpointFile in each partition directory.
const (
	// RecoveryPointCheckpointFile holds each partition's recovery point.
	RecoveryPointCheckpointFile = "recovery-point-offset-checkpoint"
	// LogStartOffsetCheckpointFile holds the log start offsets above the first segment's base.
	LogStartOffsetCheckpointFile = "log-start-offset-checkpoint"
	// ReplicationOffsetCheckpointFile holds the high watermarks.
	ReplicationOffsetCheckpointFile = "replication-offset-checkpoint"
	// CleanerOffsetCheckpointFile holds the cleaner's first dirty offsets.
	CleanerOffsetCheckpointFile = "cleaner-offset-checkpoint"
	// LeaderEpochCheckpointFile holds a partition's leader epoch cache.
	LeaderEpochCheckpointFile = "leader-epoch-checkpoint"
)

// Versions of the checkpoint formats (OffsetCheckpointFile.CURRENT_VERSION,
// LeaderEpochCheckpointFile.CURRENT_VERSION).
const (
	OffsetCheckpointVersion      = 0
	LeaderEpochCheckpointVersion = 0
)

// checkpointLines splits a checkpoint file the way Kafka's CheckpointFile reads
// it: a version line, a count line, then the entry lines. parse is called on each
// entry line split on runs of whitespace (Java's split("\\s+"), which keeps a
// leading empty field). A file that is empty, or ends after the version line,
// has no entries (Kafka tolerates both).
func checkpointLines(b []byte, version int, parse func(fields []string) error) error {
	lines := javaLines(b)
	if len(lines) == 0 {
		return nil
	}
	v, err := strconv.ParseInt(lines[0], 10, 32)
	if err != nil {
		return fmt.Errorf("%w: malformed line 1 (version) %q", ErrCorruptCheckpoint, lines[0])
	}
	if v != int64(version) {
		return fmt.Errorf("%w: unrecognised version %d, expected %d", ErrCorruptCheckpoint, v, version)
	}
	if len(lines) == 1 {
		return nil
	}
	count, err := strconv.ParseInt(lines[1], 10, 32)
	if err != nil {
		return fmt.Errorf("%w: malformed line 2 (count) %q", ErrCorruptCheckpoint, lines[1])
	}
	for i, l := range lines[2:] {
		if err := parse(javaSplitSpace(l)); err != nil {
			return fmt.Errorf("%w: malformed line %d %q: %v", ErrCorruptCheckpoint, i+3, l, err)
		}
	}
	if found := len(lines) - 2; int64(found) != count {
		return fmt.Errorf("%w: expected %d entries, but found only %d", ErrCorruptCheckpoint, count, found)
	}
	return nil
}

// javaLines splits like BufferedReader.readLine: "\n", "\r" or "\r\n" end a line,
// and a last line without a terminator still counts.
func javaLines(b []byte) []string {
	var lines []string
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			lines = append(lines, string(b))
			break
		}
		lines = append(lines, string(b[:i]))
		if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			i++
		}
		b = b[i+1:]
	}
	return lines
}

// javaSplitSpace is String.split("\\s+"): a leading separator gives an empty
// first field, trailing separators give none.
func javaSplitSpace(s string) []string {
	isSpace := func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r' }
	fields := strings.FieldsFunc(s, isSpace)
	if s != "" && isSpace(rune(s[0])) {
		fields = append([]string{""}, fields...)
	}
	return fields
}

// DecodeOffsetCheckpoint parses the text of an offset checkpoint file (version 0,
// entries "topic partition offset"). A partition listed twice keeps its last
// offset.
func DecodeOffsetCheckpoint(b []byte) (map[TopicPartition]int64, error) {
	out := map[TopicPartition]int64{}
	err := checkpointLines(b, OffsetCheckpointVersion, func(f []string) error {
		if len(f) != 3 {
			return fmt.Errorf("%d fields, want 3", len(f))
		}
		p, err := strconv.ParseInt(f[1], 10, 32)
		if err != nil {
			return err
		}
		off, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return err
		}
		out[TopicPartition{Topic: f[0], Partition: int32(p)}] = off
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AppendOffsetCheckpoint appends the text of an offset checkpoint file holding
// offsets to dst: "0\n<count>\n" then "topic partition offset\n" lines, sorted by
// topic and partition (Kafka writes map order; sorting makes the file
// reproducible and reads the same).
func AppendOffsetCheckpoint(dst []byte, offsets map[TopicPartition]int64) []byte {
	tps := SortedTopicPartitions(offsets)
	return AppendOffsetCheckpointOf(dst, tps, func(i int) int64 { return offsets[tps[i]] })
}

// AppendOffsetCheckpointOf is AppendOffsetCheckpoint of the partitions tps,
// which are in Compare order without repeats, offset(i) being tps[i]'s: for
// a caller that keeps its partitions sorted (a broker writing the high
// watermarks of thousands every few seconds), no map to build nor to sort.
func AppendOffsetCheckpointOf(dst []byte, tps []TopicPartition, offset func(i int) int64) []byte {
	dst = appendCheckpointHeader(dst, OffsetCheckpointVersion, len(tps))
	for i, tp := range tps {
		dst = append(dst, tp.Topic...)
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, int64(tp.Partition), 10)
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, offset(i), 10)
		dst = append(dst, '\n')
	}
	return dst
}

func appendCheckpointHeader(dst []byte, version, count int) []byte {
	dst = strconv.AppendInt(dst, int64(version), 10)
	dst = append(dst, '\n')
	dst = strconv.AppendInt(dst, int64(count), 10)
	return append(dst, '\n')
}

// ReadOffsetCheckpoint reads an offset checkpoint file (recovery points, log start
// offsets, high watermarks, cleaner offsets). A missing file reads as empty, as
// Kafka creates it empty on first use.
func ReadOffsetCheckpoint(fsys vfs.FS, path string) (map[TopicPartition]int64, error) {
	b, err := readWholeFile(fsys, path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[TopicPartition]int64{}, nil
	}
	if err != nil {
		return nil, err
	}
	m, err := DecodeOffsetCheckpoint(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// WriteOffsetCheckpoint replaces the checkpoint file at path with offsets,
// atomically: see WriteFileAtomic.
func WriteOffsetCheckpoint(fsys vfs.FS, path string, offsets map[TopicPartition]int64) error {
	return WriteFileAtomic(fsys, path, AppendOffsetCheckpoint(nil, offsets))
}

// WriteFileAtomic replaces the file at name with data the way Kafka writes a
// checkpoint: write "<name>.tmp", fsync it, rename it over name, fsync the
// directory. A crash leaves either the old or the new file, never a mix.
func WriteFileAtomic(fsys vfs.FS, name string, data []byte) error {
	tmp := name + ".tmp"
	f, err := fsys.Create(tmp)
	if err != nil {
		return fmt.Errorf("kafkalog: write %s: %w", name, err)
	}
	_, err = f.WriteAt(data, 0)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fsys.Rename(tmp, name)
	}
	if err == nil {
		err = fsys.SyncDir(path.Dir(name))
	}
	if err != nil {
		return fmt.Errorf("kafkalog: write %s: %w", name, err)
	}
	return nil
}

// maxSmallFile bounds what readWholeFile loads: checkpoint and snapshot files are
// small; a larger one is not what it claims to be.
const maxSmallFile = 64 << 20

// readWholeFile reads a small file (checkpoint, snapshot, marker) into memory.
func readWholeFile(fsys vfs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		return nil, fmt.Errorf("kafkalog: read %s: %w", name, err)
	}
	if size > maxSmallFile {
		return nil, fmt.Errorf("kafkalog: read %s: %w: %d bytes", name, ErrTooLarge, size)
	}
	b := make([]byte, size)
	if err := vfs.ReadAtFull(f, b, 0); err != nil {
		return nil, fmt.Errorf("kafkalog: read %s: %w", name, err)
	}
	return b, nil
}
