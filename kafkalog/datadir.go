package kafkalog

import (
	"errors"
	"fmt"
	"sort"

	"github.com/kafkalive/kafkalive/vfs"
)

// DataDir is one Kafka log dir (an entry of log.dirs): a directory of partition
// directories "<topic>-<partition>" plus the root checkpoint files
// (recovery-point-offset-checkpoint, log-start-offset-checkpoint,
// cleaner-offset-checkpoint) and the clean shutdown marker, as LogManager keeps them.
// It is not safe for concurrent use.
type DataDir struct {
	fsys   vfs.FS
	root   string
	opts   DataDirOptions
	logs   map[TopicPartition]*Log
	failed map[TopicPartition]error

	cleanerOffsets map[TopicPartition]int64
	cleanShutdown  CleanShutdownMarker
	// stale holds the checkpoints read at open, kept for the partitions that failed
	// to open so that rewriting the files does not lose their entries.
	stale map[string]map[TopicPartition]int64
	// checkpointsReset says which root checkpoints were unreadable at open, and why.
	checkpointsReset []string
}

// DataDirOptions configure OpenDataDir.
type DataDirOptions struct {
	// Config returns the configuration of a partition's log; nil means DefaultConfig
	// for every partition.
	Config func(TopicPartition) Config
	// Rand draws segment.jitter.ms (nil: no jitter).
	Rand Int64Source
}

func (o DataDirOptions) config(tp TopicPartition) Config {
	if o.Config == nil {
		return DefaultConfig()
	}
	return o.Config(tp)
}

// OpenDataDir opens the log dir root (creating it if missing) the way LogManager.loadLogs
// does: it reads the clean shutdown marker and removes it at once (so that a crash while
// loading counts as unclean), reads the root checkpoints, and opens the log of every
// partition directory with its recovery point and log start offset. An unreadable
// checkpoint is reset to empty, as Kafka 3.7 does (every log then recovers from offset
// 0 unless the shutdown was clean, starts at its first segment, and is cleaned from its
// start), and named by CheckpointsReset; the checkpoints are rewritten before it
// returns. Directories that are
// not partitions (marked -delete, -future, -stray, or not named topic-N) and other
// files are ignored. A partition that fails to open is left out and reported in the
// returned error (which then wraps every failure) and by Failed; the others are usable.
func OpenDataDir(fsys vfs.FS, root string, nowMs int64, opts DataDirOptions) (*DataDir, error) {
	d := &DataDir{fsys: fsys, root: root, opts: opts, logs: map[TopicPartition]*Log{}, failed: map[TopicPartition]error{}}
	if err := mkdirDurable(fsys, root); err != nil {
		return nil, fmt.Errorf("kafkalog: open data dir %s: %w", root, err)
	}
	var err error
	if d.cleanShutdown, err = ReadCleanShutdownMarker(fsys, root); err != nil {
		return nil, fmt.Errorf("kafkalog: open data dir %s: %w", root, err)
	}
	if d.cleanShutdown.Present {
		if err := RemoveCleanShutdownMarker(fsys, root); err != nil {
			return nil, err
		}
	}
	cps := map[string]map[TopicPartition]int64{}
	for _, name := range []string{RecoveryPointCheckpointFile, LogStartOffsetCheckpointFile, CleanerOffsetCheckpointFile} {
		if cps[name], err = ReadOffsetCheckpoint(fsys, fsys.PathJoin(root, name)); err != nil {
			// Kafka 3.7 resets an unreadable checkpoint (LogManager.loadLogs: recovery
			// from 0, the log start at the first segment; LogCleanerManager
			// .allCleanerCheckpoints: clean from the start), logs it and goes on.
			d.checkpointsReset = append(d.checkpointsReset, err.Error())
			cps[name] = map[TopicPartition]int64{}
		}
	}
	d.cleanerOffsets = cps[CleanerOffsetCheckpointFile]
	names, err := fsys.List(root)
	if err != nil {
		return nil, fmt.Errorf("kafkalog: open data dir %s: %w", root, err)
	}
	var errs []error
	for _, name := range names {
		tp, ok := ParseTopicPartitionDir(name)
		if fi, err := fsys.Stat(fsys.PathJoin(root, name)); !ok || err != nil || !fi.IsDir() {
			continue
		}
		lopts := []Option{WithRecoveryPoint(cps[RecoveryPointCheckpointFile][tp]), WithLogStartOffset(cps[LogStartOffsetCheckpointFile][tp]), WithRand(opts.Rand)}
		if d.cleanShutdown.Present {
			lopts = append(lopts, WithCleanShutdown())
		}
		l, err := Open(fsys, fsys.PathJoin(root, name), opts.config(tp), nowMs, lopts...)
		if err != nil {
			d.failed[tp] = err
			errs = append(errs, err)
			continue
		}
		d.logs[tp] = l
	}
	d.stale = cps
	// Rewrite the checkpoints at once: a recovery point above a log's recovered end
	// (a checkpoint that was ahead of the log, or a log that ended in an offset gap)
	// would otherwise make the next crash skip recovery of data appended from now on.
	if err := d.Checkpoint(); err != nil {
		errs = append(errs, err)
	}
	return d, errors.Join(errs...)
}

// CheckpointsReset lists the root checkpoint files that OpenDataDir could not read and
// reset to empty, each with why ("data/recovery-point-offset-checkpoint: ...").
func (d *DataDir) CheckpointsReset() []string { return d.checkpointsReset }

// Root returns the log dir's path.
func (d *DataDir) Root() string { return d.root }

// WasCleanShutdown reports whether the clean shutdown marker was present at open.
func (d *DataDir) WasCleanShutdown() bool { return d.cleanShutdown.Present }

// Partitions returns the partitions with an open log, sorted by topic then partition.
func (d *DataDir) Partitions() []TopicPartition {
	out := make([]TopicPartition, 0, len(d.logs))
	for tp := range d.logs {
		out = append(out, tp)
	}
	sortPartitions(out)
	return out
}

func sortPartitions(tps []TopicPartition) {
	sort.Slice(tps, func(i, j int) bool {
		if tps[i].Topic != tps[j].Topic {
			return tps[i].Topic < tps[j].Topic
		}
		return tps[i].Partition < tps[j].Partition
	})
}

// Log returns the partition's log, or nil.
func (d *DataDir) Log(tp TopicPartition) *Log { return d.logs[tp] }

// Failed returns the partitions that could not be opened, with why.
func (d *DataDir) Failed() map[TopicPartition]error { return d.failed }

// CreateLog opens (creating) the log of tp with cfg.
func (d *DataDir) CreateLog(tp TopicPartition, cfg Config, nowMs int64) (*Log, error) {
	if l := d.logs[tp]; l != nil {
		return l, nil
	}
	l, err := Open(d.fsys, d.fsys.PathJoin(d.root, tp.DirName()), cfg, nowMs, WithRand(d.opts.Rand))
	if err != nil {
		return nil, err
	}
	d.logs[tp] = l
	return l, nil
}

// CleanerOffset returns the checkpointed first dirty offset of tp (0 if none).
func (d *DataDir) CleanerOffset(tp TopicPartition) int64 { return d.cleanerOffsets[tp] }

// SetCleanerOffset records the first dirty offset after a cleaning round (written by
// the next Checkpoint).
func (d *DataDir) SetCleanerOffset(tp TopicPartition, offset int64) { d.cleanerOffsets[tp] = offset }

// Checkpoint writes the root checkpoints: every log's recovery point, the log start
// offsets that are above their log's first segment base (LogManager
// .checkpointLogStartOffsetsInDir), and the cleaner offsets; each file atomically.
// Partitions that failed to open keep the entries they had.
func (d *DataDir) Checkpoint() error {
	rps, lsos := map[TopicPartition]int64{}, map[TopicPartition]int64{}
	for tp := range d.failed {
		if off, ok := d.stale[RecoveryPointCheckpointFile][tp]; ok {
			rps[tp] = off
		}
		if off, ok := d.stale[LogStartOffsetCheckpointFile][tp]; ok {
			lsos[tp] = off
		}
	}
	for tp, l := range d.logs {
		rps[tp] = l.RecoveryPoint()
		if l.LogStartOffset() > l.segments[0].baseOffset {
			lsos[tp] = l.LogStartOffset()
		}
	}
	for name, m := range map[string]map[TopicPartition]int64{
		RecoveryPointCheckpointFile:  rps,
		LogStartOffsetCheckpointFile: lsos,
		CleanerOffsetCheckpointFile:  d.cleanerOffsets,
	} {
		if err := WriteOffsetCheckpoint(d.fsys, d.fsys.PathJoin(d.root, name), m); err != nil {
			return err
		}
	}
	return nil
}

// Close shuts the log dir down cleanly (LogManager.shutdown): every log is closed
// (flushed, indexes trimmed), the checkpoints are written, and then the clean shutdown
// marker with brokerEpoch (negative: the empty marker of brokers before Kafka 3.7).
// If any step fails the marker is not written, so the next open recovers.
func (d *DataDir) Close(brokerEpoch int64) error {
	var errs []error
	for _, tp := range d.Partitions() {
		if err := d.logs[tp].Close(); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := d.Checkpoint(); err != nil {
		return err
	}
	return WriteCleanShutdownMarker(d.fsys, d.root, brokerEpoch)
}

// PartitionInfo describes one partition of a log dir (kafkalive log-dirs).
type PartitionInfo struct {
	TopicPartition TopicPartition
	Segments       int
	Size           int64
	LogStartOffset int64
	LogEndOffset   int64
	RecoveryPoint  int64
}

// Describe lists every open partition, sorted.
func (d *DataDir) Describe() []PartitionInfo {
	var out []PartitionInfo
	for _, tp := range d.Partitions() {
		l := d.logs[tp]
		out = append(out, PartitionInfo{
			TopicPartition: tp, Segments: len(l.segments), Size: l.Size(),
			LogStartOffset: l.LogStartOffset(), LogEndOffset: l.LogEndOffset(), RecoveryPoint: l.RecoveryPoint(),
		})
	}
	return out
}
