package broker

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/vfs"
)

// ID returns the broker's id.
func (b *Broker) ID() int32 { return b.id }

// State returns whether the broker's process runs, and how it ended.
func (b *Broker) State() BrokerState { return b.state }

// Incarnation counts the broker's process starts: a message for an older
// incarnation is not delivered (a TCP connection reset).
func (b *Broker) Incarnation() int { return b.incarnation }

// FS returns the broker's file system (its disk and page cache). Only the
// broker writes to it; others read it.
func (b *Broker) FS() *vfs.MemFS { return b.fs }

// Partition returns the broker's running replica of k, nil if none.
func (b *Broker) Partition(k tp) *Partition {
	s := b.replicas[k]
	if s != nil {
		s.changing() // the caller may change it
	}
	return s
}

// Peek returns the replica of partition k, or nil, for a caller that only
// reads it, changing nothing of it but caches (a view: its progress, its
// records, its files' sizes).
func (b *Broker) Peek(k tp) *Partition { return b.replicas[k] }

// Partitions returns the partitions of the broker's running replicas,
// sorted. The caller must not modify it.
func (b *Broker) Partitions() []tp { return b.order }

// Failure says why the broker's last start failed, while it is
// BrokerFailed (else ""), and FailedPath what to remove for it (a path
// under the log dir).
func (b *Broker) Failure() (why, path string) { return b.failure, b.failedPath }

// Rates returns the network bytes the broker received and sent in the
// last whole second.
func (b *Broker) Rates() (in, out int64) { return b.lastSecIn, b.lastSecOut }

// FetchStats counts a broker's reads of its logs for consumers' fetches
// (not its followers'): the reads, and the batch headers and bytes their
// scans walked past between the offset index entry and the batch each read
// returned (kafkalog.ReadStats), over the world's life across its restarts.
type FetchStats struct {
	Reads, ScannedBatches, ScannedBytes int64
	// LastOffset is the offset the latest read asked for, FirstBatch the
	// base offset of the batch its records began with (-1: none).
	LastOffset, FirstBatch int64
}

// FetchStats returns the broker's consumer fetch reads.
func (b *Broker) FetchStats() FetchStats {
	f := b.fetch
	return FetchStats{Reads: f.reads, ScannedBatches: f.batches, ScannedBytes: f.bytes, LastOffset: f.lastOffset, FirstBatch: f.firstBatch}
}

// NextHeartbeatMs is when the broker's next heartbeat to the controller is
// due.
func (b *Broker) NextHeartbeatMs() int64 { return b.nextBeatMs }

// CountIn and CountOut add a message's bytes to what the broker received
// and sent.
func (b *Broker) CountIn(n int64)  { b.bytesIn += n }
func (b *Broker) CountOut(n int64) { b.bytesOut += n }

// Start starts the broker process (see startBroker).
func (b *Broker) Start(env Env) error { return b.startBroker(env) }

// Stop shuts the broker down cleanly.
func (b *Broker) Stop(env Env) error { return b.stopBroker(env) }

// Kill crashes the broker's process: the page cache survives.
func (b *Broker) Kill(env Env) error { return b.killBroker(env) }

// PowerCut cuts the broker's power: only synced bytes survive; with torn,
// each file also keeps a random prefix of its unsynced tail.
func (b *Broker) PowerCut(env Env, torn bool) error { return b.powerCut(env, torn) }

// Writeback has the OS write every dirty page of the broker to disk.
func (b *Broker) Writeback(env Env) { b.writeback(env) }

// Tick moves the broker's clock: byte rates, the host's flusher, and, while
// it runs, its heartbeat, its replicas, its log manager, its checkpoints
// and its group coordinator.
func (b *Broker) Tick(env Env) error { return b.tickBroker(env) }

// Step hands the broker a message addressed to it: a partition state, a
// replication message or produce, or a group request.
func (b *Broker) Step(env Env, e *netsim.Envelope) error {
	b.bytesIn += e.Size()
	switch e.Kind {
	case netsim.KindGroupRequest:
		b.deliverGroupRequest(env, e)
		return nil
	case netsim.KindTxnRequest, netsim.KindTxnMarkers, netsim.KindTxnMarkersResponse:
		b.stepTxn(env, e)
		return nil
	case netsim.KindTxnResponse:
		return b.verified(env, e)
	}
	return b.deliverToBroker(env, e)
}

// StepCoordinator hands the broker's group coordinator the answer to its
// offsets append.
func (b *Broker) StepCoordinator(env Env, e *netsim.Envelope) { b.deliverToCoordinator(env, e) }

// Halt ends the broker's process as after a crash, for a failure of its
// only log dir: Kafka's ReplicaManager halts a broker whose every log
// directory failed (handleLogDirFailure, Exit.halt). It reports whether
// the broker ran.
func (b *Broker) Halt(env Env) bool {
	if b.state != BrokerRunning {
		return false
	}
	b.fs.Crash()
	b.down(env, BrokerCrashed)
	return true
}

// DiskFull halts the broker, whose write failed for want of space on its
// disk: Kafka 3.7 takes the log dir offline
// (LogDirFailureChannel.maybeAddOfflineLogDir) and, its only one gone,
// halts the broker (ReplicaManager.handleLogDirFailure). Nothing is lost
// from the page cache: the process exits, the host keeps running. It is no
// internal error: it is what a full disk does.
func (b *Broker) DiskFull(env Env, err error) {
	if b.state != BrokerRunning {
		env.Record(event.Storage, 0, nil, "a write failed: %v", err)
		return
	}
	b.fs.Crash()
	b.down(env, BrokerCrashed)
	env.Record(event.Storage, b.id, nil, "No space left on device (%v): Shutdown broker because all log dirs in %s have failed; broker %d halted "+
		"(retention frees space only at its checks, every log.retention.check.interval.ms=%d, and file.delete.delay.ms=%d after them; a start removes the segments already deleted)",
		err, LogDir, b.id, b.cfg.LogRetentionCheckIntervalMs, b.cfg.FileDeleteDelayMs)
}

// FlushCheckpoints writes, at the end of a step, the HW checkpoint that
// changed during it (with ReplicaHighWatermarkCheckpointIntervalMs 0), and
// the log manager's checkpoints that a truncation or a deleted partition
// calls for; an error halts the broker (an internal error).
func (b *Broker) FlushCheckpoints(env Env) {
	if b.state != BrokerRunning {
		return
	}
	if b.hwDirty && b.cfg.ReplicaHighWatermarkCheckpointIntervalMs == 0 {
		if err := b.writeHWCheckpoint(env); err != nil {
			env.InternalError(b.id, fmt.Errorf("broker %d: %w", b.id, err))
			return
		}
	}
	if err := b.checkpointAfterChanges(env); err != nil {
		env.InternalError(b.id, err)
	}
}

// OpenNew opens the broker's replica of a partition just created (or
// added to a topic), empty.
func (b *Broker) OpenNew(env Env, k tp) error { return b.openReplica(env, k, 0, 0, 0, false) }

// ProcessReady acts on what replica s asks for (messages, produce
// answers, ISR proposals, notes).
func (b *Broker) ProcessReady(env Env, s *Partition) error { return b.processReady(env, s) }

// Coordinator returns the broker's group coordinator, started on first
// use (as a broker's GroupCoordinator loads at its first request).
func (b *Broker) Coordinator(env Env) *group.Coordinator { return b.coordinator(env).c }

// RunningCoordinator returns the broker's group coordinator if its
// process started one, else nil.
func (b *Broker) RunningCoordinator() *group.Coordinator {
	if b.coord == nil {
		return nil
	}
	return b.coord.c
}

// RunningConsumerGroups returns the broker's coordinator of
// consumer-protocol groups if its process started one, else nil.
func (b *Broker) RunningConsumerGroups() *group.ConsumerGroupCoordinator {
	if b.coord == nil {
		return nil
	}
	return b.coord.cg
}

// StepGroup hands request r from addr to the coordinator of its group
// (the classic one, or that of the consumer-protocol groups) at the
// world's time and processes what they produced.
func (b *Broker) StepGroup(env Env, addr string, r group.Request) {
	b.coordinator(env).tick(env)
	b.stepGroup(env, addr, r)
	b.processCoordinator(env)
}

// CanDeleteGroup answers as a deletion of group name would (the
// coordinator of its protocol's), and deletes nothing. A question starts
// no coordinator: b's, if no request started it yet, would start hosting
// no group, and answers as that one (from the offsets in the log), so
// that asking leaves the world as its timeline rebuilds it.
func (b *Broker) CanDeleteGroup(env Env, name string) group.ErrorCode {
	cs := b.coord
	if cs == nil {
		cs = b.newCoordinator(env)
	}
	if ok, empty := cs.cg.Hosts(name); ok {
		if !empty {
			return group.NonEmptyGroup
		}
		return group.None
	}
	return cs.c.CanDeleteGroup(name)
}

// ProcessCoordinator takes the coordinator's Ready: commits appended to
// __consumer_offsets, answers sent (or held until the append is
// acknowledged).
func (b *Broker) ProcessCoordinator(env Env) { b.processCoordinator(env) }

// AppendCommits appends commit records (tombstones included) to the
// offsets partition b leads, acks=all.
func (b *Broker) AppendCommits(env Env, commits []group.OffsetCommitRecord) error {
	_, err := b.appendCommits(env, commits)
	return err
}

// Committed is b's coordinator's store: the committed offsets its replica
// of each group's offsets partition holds below its HW.
func (b *Broker) Committed() group.OffsetReader { return logOffsetStore{b: b} }

// ErrNoPartition is an operation on a replica the broker does not run.
var ErrNoPartition = errors.New("broker runs no replica of the partition")

// DeletePartition stops the broker's replica of k, whose topic was
// deleted, and renames its directory to be deleted file.delete.delay.ms
// later (LogManager.asyncDelete). It does nothing when the broker runs no
// replica of k.
func (b *Broker) DeletePartition(env Env, k tp) {
	s := b.replicas[k]
	if s == nil {
		return
	}
	b.touch(s) // gone
	delete(b.replicas, k)
	delete(b.due, k) // its timers are stale
	b.deletedSinceCheckpoint = true
	b.ownOrder()
	if i, ok := slices.BinarySearchFunc(b.order, k, metadata.ComparePartitions); ok {
		b.order, b.hws = slices.Delete(b.order, i, i+1), append(b.hws[:i], b.hws[i+1:]...)
	}
	b.setCompacted(k, false)
	b.hwDirty = true
	if err := s.Log.Kafka().Close(); err != nil {
		env.InternalError(b.id, fmt.Errorf("broker %d: delete %s: %w", b.id, k, err))
		return
	}
	dir := LogDir + "/" + b.deleteDirName(env, k)
	if err := b.fs.Rename(PartitionDir(k), dir); err != nil {
		env.InternalError(b.id, fmt.Errorf("broker %d: delete %s: %w", b.id, k, err))
		return
	}
	b.deleted = append(b.deleted, deletedLog{dir: dir, atMs: env.Now() + b.cfg.FileDeleteDelayMs})
	env.Record(event.Storage, b.id, &k, "replica stopped; directory renamed %s, deleted in %d ms (file.delete.delay.ms)", dir[len(LogDir)+1:], b.cfg.FileDeleteDelayMs)
}
