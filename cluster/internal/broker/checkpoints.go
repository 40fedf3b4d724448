package broker

import (
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/kafkalog"
)

// Kafka's checkpoint schedules (Kafka 3.7.0: LogManager.startupWithConfigOverrides
// schedules kafka-recovery-point-checkpoint and kafka-log-start-offset-checkpoint
// after LogManager.InitialTaskDelayMs, then at a fixed rate;
// ReplicaManager.startHighWatermarkCheckPointThread schedules highwatermark-checkpoint
// with no delay) and Linux's flusher, in milliseconds.
const (
	// KafkaReplicaHighWatermarkCheckpointIntervalMs is Kafka's default
	// replica.high.watermark.checkpoint.interval.ms.
	KafkaReplicaHighWatermarkCheckpointIntervalMs = 5000
	// KafkaLogFlushOffsetCheckpointIntervalMs is Kafka's default
	// log.flush.offset.checkpoint.interval.ms.
	KafkaLogFlushOffsetCheckpointIntervalMs = 60000
	// KafkaLogFlushStartOffsetCheckpointIntervalMs is Kafka's default
	// log.flush.start.offset.checkpoint.interval.ms.
	KafkaLogFlushStartOffsetCheckpointIntervalMs = 60000
	// LogManagerInitialTaskDelayMs is LogManager.InitialTaskDelayMs: how long after
	// startup the log manager's periodic tasks first run.
	LogManagerInitialTaskDelayMs = 30000
)

// scheduleCheckpoints starts the broker's checkpoint schedules and its OS
// flusher at startup.
func (b *Broker) scheduleCheckpoints(env Env) {
	b.nextHWCheckpointMs = env.Now()
	b.nextRecoveryCheckpointMs = env.Now() + LogManagerInitialTaskDelayMs
	b.nextStartCheckpointMs = env.Now() + LogManagerInitialTaskDelayMs
	b.recoveryCheckpointed = nil
}

// runCheckpoints writes the broker's checkpoint files that are due, each on
// its own fixed-rate schedule: replication-offset-checkpoint every
// replica.high.watermark.checkpoint.interval.ms (ReplicaManager.checkpointHighWatermarks),
// recovery-point-offset-checkpoint every log.flush.offset.checkpoint.interval.ms
// (LogManager.checkpointLogRecoveryOffsets) and log-start-offset-checkpoint every
// log.flush.start.offset.checkpoint.interval.ms (LogManager.checkpointLogStartOffsets).
// An interval of 0 leaves that schedule off.
func (b *Broker) runCheckpoints(env Env) error {
	if due(&b.nextHWCheckpointMs, env.Now(), b.cfg.ReplicaHighWatermarkCheckpointIntervalMs) {
		if err := b.writeHWCheckpoint(env); err != nil {
			return fmt.Errorf("broker %d: %w", b.id, err)
		}
	}
	if due(&b.nextRecoveryCheckpointMs, env.Now(), b.cfg.LogFlushOffsetCheckpointIntervalMs) {
		if err := b.writeRecoveryPointCheckpoint(env); err != nil {
			return fmt.Errorf("broker %d: %w", b.id, err)
		}
	}
	if due(&b.nextStartCheckpointMs, env.Now(), b.cfg.LogFlushStartOffsetCheckpointIntervalMs) {
		if err := b.writeLogStartOffsetCheckpoint(env); err != nil {
			return fmt.Errorf("broker %d: %w", b.id, err)
		}
	}
	return nil
}

// due says whether a fixed-rate task scheduled at *next runs at now, and moves
// *next on by intervalMs if so; an interval of 0 is never due.
func due(next *int64, now, intervalMs int64) bool {
	if intervalMs <= 0 || now < *next {
		return false
	}
	*next += intervalMs
	if *next <= now {
		*next = now + intervalMs
	}
	return true
}

// checkpointBuf returns the broker's memory to write a checkpoint file
// from, empty: a checkpoint of thousands of partitions is written every
// replica.high.watermark.checkpoint.interval.ms without growing a new
// buffer each time. kafkalog.WriteFileAtomic's write copies it.
func (b *Broker) checkpointBuf() []byte { return b.ckptBuf[:0] }

// writeRecoveryPointCheckpoint writes recovery-point-offset-checkpoint: each
// hosted log's recovery point, the first offset not known to be flushed
// (LogManager.checkpointRecoveryOffsetsInDir). It remembers what it wrote,
// so that a truncation or a deleted partition can be seen to need a new one.
//
// It writes the file from the broker's sorted partitions
// (kafkalog.AppendOffsetCheckpointOf: the order WriteOffsetCheckpoint
// sorts a map in), without building a map of every partition.
func (b *Broker) writeRecoveryPointCheckpoint(env Env) error {
	data := kafkalog.AppendOffsetCheckpointOf(b.checkpointBuf(), b.order, func(i int) int64 {
		s := b.replicas[b.order[i]]
		if n := s.Log.Truncations(); n != s.truncationsCheckpointed {
			s.changing()
			s.truncationsCheckpointed = n
		}
		return s.Log.Kafka().RecoveryPoint()
	})
	b.ckptBuf = data
	b.recoveryCheckpointed = slices.Clone(b.order)
	b.deletedSinceCheckpoint = false
	return kafkalog.WriteFileAtomic(b.fs, LogDir+"/"+kafkalog.RecoveryPointCheckpointFile, data)
}

// writeLogStartOffsetCheckpoint writes log-start-offset-checkpoint: the log
// start offset of each hosted log whose start is above its first segment's
// base offset, the others' being implied by their files
// (LogManager.checkpointLogStartOffsetsInDir).
func (b *Broker) writeLogStartOffsetCheckpoint(env Env) error {
	var parts []tp // sorted, as b.order
	var starts []int64
	for _, tp := range b.order {
		l := b.replicas[tp].Log.Kafka()
		if segs := l.Segments(); len(segs) > 0 && l.LogStartOffset() > segs[0].BaseOffset() {
			parts, starts = append(parts, tp), append(starts, l.LogStartOffset())
		}
	}
	data := kafkalog.AppendOffsetCheckpointOf(b.checkpointBuf(), parts, func(i int) int64 { return starts[i] })
	b.ckptBuf = data
	return kafkalog.WriteFileAtomic(b.fs, LogDir+"/"+kafkalog.LogStartOffsetCheckpointFile, data)
}

// checkpointAfterChanges writes recovery-point-offset-checkpoint at the end
// of a step in which one of the broker's logs was truncated
// (LogManager.truncateTo and truncateFullyAndStartAt checkpoint the log dir
// at once), and both log manager checkpoints when a partition it hosted was
// deleted (LogManager.asyncDelete), while the recovery point schedule is on.
func (b *Broker) checkpointAfterChanges(env Env) error {
	if b.cfg.LogFlushOffsetCheckpointIntervalMs <= 0 || b.recoveryCheckpointed == nil {
		return nil
	}
	// Only a replica changed in this step can have been truncated in it
	// (a replica's log is truncated by its node), and one deleted since
	// the last checkpoint be missing from it.
	deleted := b.deletedSinceCheckpoint && slices.ContainsFunc(b.recoveryCheckpointed, func(tp tp) bool { return b.replicas[tp] == nil })
	truncated := slices.ContainsFunc(b.changed, func(tp tp) bool {
		s := b.replicas[tp]
		return s != nil && s.Log.Truncations() != s.truncationsCheckpointed
	})
	if !deleted && !truncated {
		return nil
	}
	if err := b.writeRecoveryPointCheckpoint(env); err != nil {
		return fmt.Errorf("broker %d: %w", b.id, err)
	}
	if deleted {
		if err := b.writeLogStartOffsetCheckpoint(env); err != nil {
			return fmt.Errorf("broker %d: %w", b.id, err)
		}
	}
	return nil
}

// runFlusher is the broker host's kernel: every vm.dirty_writeback_centisecs
// ([Config.DirtyWritebackIntervalMs]) its flusher threads write back the
// files and directories dirty for vm.dirty_expire_centisecs
// ([Config.DirtyExpireMs]) or more ([vfs.MemFS.WritebackExpired]). The
// kernel runs whatever the broker process does: it writes back a stopped or
// crashed broker's page cache too. Off while DirtyExpireMs is 0.
func (b *Broker) runFlusher(env Env) {
	if b.cfg.DirtyExpireMs <= 0 || env.Now() < b.nextFlusherMs {
		return
	}
	iv := b.cfg.DirtyWritebackIntervalMs
	origin := b.cfg.ClockStartMs
	b.nextFlusherMs = origin + ((env.Now()-origin)/iv+1)*iv
	b.fs.WritebackExpired(env.Now(), b.cfg.DirtyExpireMs)
}
