package cluster

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/vfs"
)

// LogDir is the broker's log.dirs inside its own MemFS.
const LogDir = "/kafka-logs"

// BrokerState is whether a broker process runs.
type BrokerState int

// The broker states.
const (
	// BrokerRunning: the process runs.
	BrokerRunning BrokerState = iota
	// BrokerStopped: shut down cleanly (flushed, checkpoints and the clean
	// shutdown marker written).
	BrokerStopped
	// BrokerCrashed: the process was killed; the page cache survives.
	BrokerCrashed
	// BrokerOff: the power was cut; only what was synced survives.
	BrokerOff
)

var brokerStateNames = [...]string{"running", "stopped", "crashed", "off"}

// String returns "running", "stopped", "crashed" or "off".
func (s BrokerState) String() string {
	if s < 0 || int(s) >= len(brokerStateNames) {
		return fmt.Sprintf("BrokerState(%d)", int(s))
	}
	return brokerStateNames[s]
}

// broker is one broker: its disk survives restarts, its process state not.
type broker struct {
	id          int32
	state       BrokerState
	fs          *vfs.MemFS
	incarnation int
	replicas    map[partitionKey]*replicaSlot
	order       []partitionKey // sorted keys of replicas
	nextBeatMs  int64
	hwDirty     bool
	lastHW      map[partitionKey]int64
	// coord is the group coordinator of the running process (nil until a
	// group asks); nextRetentionMs and nextCleanMs schedule the log
	// manager's retention check and the cleaner; cleanerOffsets is
	// cleaner-offset-checkpoint, kept in memory.
	coord           *coordinatorState
	nextRetentionMs int64
	nextCleanMs     int64
	cleanerOffsets  map[partitionKey]int64
	// cleanerSeen is the HW of each compacted log when the cleaner last
	// looked at it (it skips logs with nothing new).
	cleanerSeen map[partitionKey]int64

	// nextHWCheckpointMs, nextRecoveryCheckpointMs and nextStartCheckpointMs
	// schedule the checkpoint files (checkpoints.go); recoveryCheckpointed
	// is the partitions of the last recovery-point-offset-checkpoint written
	// since the start (nil: none); nextFlusherMs is the OS flusher's next wake.
	nextHWCheckpointMs       int64
	nextRecoveryCheckpointMs int64
	nextStartCheckpointMs    int64
	recoveryCheckpointed     []partitionKey
	nextFlusherMs            int64

	bytesIn, bytesOut     int64 // cumulative
	secondStartMs         int64
	secondIn, secondOut   int64 // cumulative at the start of this second
	lastSecIn, lastSecOut int64 // bytes in the last whole second

	// fetch counts the reads of its logs for consumers' fetches (fetchscan.go).
	fetch fetchScans
}

// replicaSlot is one partition replica hosted by a running broker.
type replicaSlot struct {
	tp   partitionKey
	log  *replicaLog
	node *replica.Node
	// truncationsCheckpointed is log.truncations when the broker last wrote
	// recovery-point-offset-checkpoint.
	truncationsCheckpointed int
}

func newBroker(id int32) *broker {
	fsys := vfs.NewMem()
	return &broker{id: id, state: BrokerStopped, fs: fsys}
}

func (w *World) partitionDir(tp partitionKey) string { return LogDir + "/" + tp.DirName() }

// startBroker starts the broker process: log recovery for every partition
// assigned to it, HW from replication-offset-checkpoint, then registration.
func (w *World) startBroker(b *broker) error {
	if b.state == BrokerRunning {
		return fmt.Errorf("%w: broker %d is already running", ErrInvalidConfig, b.id)
	}
	b.fs.SetNow(w.now)
	// log.dirs: created, if missing, with its parent synced, as
	// LogManager.createAndValidateLogDirs does (mkdirs, then Utils.flushDir
	// of the parent), so that a power cut cannot take the directory and
	// every synced segment in it.
	if err := vfs.MkdirAllDurable(b.fs, LogDir, 0o755); err != nil {
		return w.failStart(b, err)
	}
	marker, err := kafkalog.ReadCleanShutdownMarker(b.fs, LogDir)
	if err != nil {
		return w.failStart(b, err)
	}
	clean := marker.Present
	hws, err := readCheckpoint(b.fs, kafkalog.ReplicationOffsetCheckpointFile)
	if err != nil {
		return w.failStart(b, err)
	}
	rps, err := readCheckpoint(b.fs, kafkalog.RecoveryPointCheckpointFile)
	if err != nil {
		return w.failStart(b, err)
	}
	starts, err := readCheckpoint(b.fs, kafkalog.LogStartOffsetCheckpointFile)
	if err != nil {
		return w.failStart(b, err)
	}
	if clean {
		if err := kafkalog.RemoveCleanShutdownMarker(b.fs, LogDir); err != nil {
			return w.failStart(b, err)
		}
	}
	b.incarnation++
	b.state = BrokerRunning
	b.replicas, b.order, b.lastHW = map[partitionKey]*replicaSlot{}, nil, map[partitionKey]int64{}
	b.nextBeatMs = w.now + w.cfg.BrokerHeartbeatIntervalMs
	b.nextRetentionMs = w.now + w.cfg.LogRetentionCheckIntervalMs
	b.nextCleanMs = w.now + w.cfg.LogCleanerBackoffMs
	w.scheduleCheckpoints(b)
	w.record(EventBroker, b.id, nil, "started (incarnation %d, clean shutdown marker %v)", b.incarnation, clean)
	for _, t := range w.topics {
		for p, replicas := range t.Assignment {
			if slices.Contains(replicas, b.id) {
				tp := partitionKey{Topic: t.Name, Partition: int32(p)}
				if err := w.openReplica(b, tp, hws[tp], rps[tp], starts[tp], clean); err != nil {
					return w.failStart(b, err)
				}
			}
		}
	}
	w.send(envelope{from: b.id, to: ControllerID, kind: kindRegister, incarnation: b.incarnation})
	return nil
}

// readCheckpoint reads an offset checkpoint file of the log dir; a missing
// file is an empty checkpoint.
func readCheckpoint(fsys *vfs.MemFS, name string) (map[partitionKey]int64, error) {
	m, err := kafkalog.ReadOffsetCheckpoint(fsys, LogDir+"/"+name)
	if errors.Is(err, fs.ErrNotExist) {
		return map[partitionKey]int64{}, nil
	}
	return m, err
}

// openReplica opens (recovering) one partition log and builds its replica.
func (w *World) openReplica(b *broker, tp partitionKey, hw, recoveryPoint, logStartOffset int64, clean bool) error {
	parts := w.cfg.Parts.Log
	if tp.Topic == OffsetsTopic {
		parts.EncodeBatch = nil // the coordinator's records are not the producers'
	}
	opts := []kafkalog.Option{kafkalog.WithRecoveryPoint(recoveryPoint), kafkalog.WithLogStartOffset(logStartOffset),
		kafkalog.WithRand(w.rnd), kafkalog.WithParts(parts)}
	if clean {
		opts = append(opts, kafkalog.WithCleanShutdown())
	}
	log, err := openReplicaLog(b.fs, w.partitionDir(tp), w.logConfig(tp.Topic), &w.now, opts...)
	if err != nil {
		return fmt.Errorf("broker %d: %w", b.id, err)
	}
	byPart := ""
	if log.log.PartCalls().Recover > 0 {
		byPart = PartRecovery
	}
	if rep := log.log.RecoveryReport(); len(rep.Truncations) > 0 {
		w.record(EventBroker, b.id, &tp, "log recovery cut the log at %d", log.LogEndOffset())
		w.markLast(byPart)
	}
	var rlog replica.Log = log
	if w.cfg.Parts.EncodeBatch != nil {
		rlog = validatingLog{log}
	}
	node, err := replica.NewNode(replica.Config{ID: b.id, Rules: w.cfg.Rules, MinInsyncReplicas: w.minInsyncReplicas(tp.Topic),
		ReplicaLagTimeMaxMs: w.cfg.ReplicaLagTimeMaxMs, ReplicaFetchWaitMaxMs: w.cfg.ReplicaFetchWaitMaxMs,
		InitialHighWatermark: hw, NowMs: w.now, TruncationPoint: w.cfg.Parts.TruncationPoint, Truncate: w.cfg.Parts.Truncate}, rlog)
	if err != nil {
		return fmt.Errorf("broker %d: %s: %w", b.id, tp, err)
	}
	b.replicas[tp] = &replicaSlot{tp: tp, log: log, node: node}
	b.order = append(b.order, tp)
	slices.SortFunc(b.order, comparePartitions)
	b.lastHW[tp] = node.Status().HighWatermark
	w.record(EventBroker, b.id, &tp, "opened log: LEO %d, HW %d", log.LogEndOffset(), b.lastHW[tp])
	w.markLast(byPart)
	return nil
}

func comparePartitions(a, b partitionKey) int {
	if a.Topic != b.Topic {
		if a.Topic < b.Topic {
			return -1
		}
		return 1
	}
	return int(a.Partition - b.Partition)
}

// stopBroker shuts the broker down cleanly: every log flushed and
// closed, the checkpoints written, the clean shutdown marker last; then a
// controlled shutdown tells the controller.
func (w *World) stopBroker(b *broker) error {
	if b.state != BrokerRunning {
		return fmt.Errorf("%w: broker %d is %s", ErrInvalidConfig, b.id, b.state)
	}
	rps := map[partitionKey]int64{}
	for _, tp := range b.order {
		s := b.replicas[tp]
		rps[tp] = s.log.LogEndOffset()
		if err := s.log.log.Close(); err != nil {
			w.internalError(b, fmt.Errorf("broker %d: clean shutdown: %w", b.id, err))
			return nil
		}
	}
	if err := w.writeHWCheckpoint(b); err != nil {
		w.internalError(b, fmt.Errorf("broker %d: clean shutdown: %w", b.id, err))
		return nil
	}
	if err := kafkalog.WriteOffsetCheckpoint(b.fs, LogDir+"/"+kafkalog.RecoveryPointCheckpointFile, rps); err != nil {
		w.internalError(b, fmt.Errorf("broker %d: clean shutdown: %w", b.id, err))
		return nil
	}
	if w.cfg.LogFlushStartOffsetCheckpointIntervalMs > 0 {
		if err := w.writeLogStartOffsetCheckpoint(b); err != nil {
			w.internalError(b, fmt.Errorf("broker %d: clean shutdown: %w", b.id, err))
			return nil
		}
	}
	if err := kafkalog.WriteCleanShutdownMarker(b.fs, LogDir, int64(b.incarnation)); err != nil {
		w.internalError(b, fmt.Errorf("broker %d: clean shutdown: %w", b.id, err))
		return nil
	}
	w.send(envelope{from: b.id, to: ControllerID, kind: kindShutdown, incarnation: b.incarnation})
	w.down(b, BrokerStopped)
	w.record(EventBroker, b.id, nil, "stopped cleanly")
	return nil
}

// killBroker is a process crash: the page cache survives.
func (w *World) killBroker(b *broker) error {
	if b.state != BrokerRunning {
		return fmt.Errorf("%w: broker %d is %s", ErrInvalidConfig, b.id, b.state)
	}
	b.fs.Crash()
	w.down(b, BrokerCrashed)
	w.record(EventBroker, b.id, nil, "killed (page cache survives)")
	return nil
}

// powerCut cuts the broker's power: only synced bytes survive; with
// torn, each file also keeps a random prefix of its unsynced tail.
func (w *World) powerCut(b *broker, torn bool) error {
	if b.state == BrokerRunning {
		w.down(b, BrokerOff)
	}
	if torn {
		b.fs.PowerCutRand(w.rnd)
	} else {
		b.fs.PowerCut(func(string, int64, int64) int64 { return 0 })
	}
	b.state = BrokerOff
	w.record(EventBroker, b.id, nil, "power cut (torn writes %v): page cache lost", torn)
	return nil
}

// down ends the broker process. On a crash or power cut, the messages it
// had queued and not yet sent die with it.
func (w *World) down(b *broker, state BrokerState) {
	if state != BrokerStopped {
		w.net.drop([]int32{b.id}, nil)
	}
	w.coordinatorGone(b)
	b.state = state
	b.replicas, b.order, b.coord = nil, nil, nil
}

// writeback is the OS writing every dirty page of the broker to disk.
func (w *World) writeback(b *broker) {
	b.fs.Writeback()
	w.record(EventBroker, b.id, nil, "OS writeback: page cache written to disk")
}

// writeHWCheckpoint writes replication-offset-checkpoint with the
// HW of every replica of the broker.
func (w *World) writeHWCheckpoint(b *broker) error {
	hws := make(map[partitionKey]int64, len(b.order))
	for _, tp := range b.order {
		hws[tp] = b.lastHW[tp]
	}
	b.hwDirty = false
	return kafkalog.WriteOffsetCheckpoint(b.fs, LogDir+"/"+kafkalog.ReplicationOffsetCheckpointFile, hws)
}

// tickBroker moves the broker's replicas' clocks, sends its heartbeat and
// keeps its byte rates.
func (w *World) tickBroker(b *broker) error {
	for w.now-b.secondStartMs >= 1000 {
		b.lastSecIn, b.lastSecOut = b.bytesIn-b.secondIn, b.bytesOut-b.secondOut
		b.secondIn, b.secondOut = b.bytesIn, b.bytesOut
		b.secondStartMs += 1000
	}
	w.runFlusher(b)
	if b.state != BrokerRunning {
		return nil
	}
	b.fs.SetNow(w.now)
	if w.now >= b.nextBeatMs {
		b.nextBeatMs = w.now + w.cfg.BrokerHeartbeatIntervalMs
		known := make(map[partitionKey][2]int32, len(b.order))
		for _, tp := range b.order {
			st := b.replicas[tp].node.Status()
			known[tp] = [2]int32{st.LeaderEpoch, st.PartitionEpoch}
		}
		w.send(envelope{from: b.id, to: ControllerID, kind: kindHeartbeat, incarnation: b.incarnation, known: known})
	}
	for _, tp := range b.order {
		s := b.replicas[tp]
		s.node.Tick(w.now)
		if err := w.processReady(b, s); err != nil {
			return err
		}
	}
	if err := w.runLogManager(b); err != nil {
		return err
	}
	if err := w.runCheckpoints(b); err != nil {
		return err
	}
	w.tickCoordinator(b)
	return nil
}

// deliverToBroker hands a message to the replica it is for.
func (w *World) deliverToBroker(b *broker, e *envelope) error {
	s := b.replicas[e.tp]
	if s == nil {
		return nil
	}
	switch e.kind {
	case kindLeaderAndISR:
		w.applyLeaderAndISR(b, s, e.state)
	case kindReplica:
		if w.refuseTooLarge(b, s, e) {
			return nil
		}
		if e.msg.Type == replica.MsgFetch || e.msg.Type == replica.MsgOffsetsForLeaderEpoch {
			if w.net.pending == nil {
				w.net.pending = map[requestKey]int{}
			}
			w.net.pending[requestKey{leader: b.id, follower: e.from, tp: e.tp, corr: e.msg.CorrelationID}] = e.fromIncarnation
		}
		if err := s.node.Step(e.msg); err != nil {
			return err
		}
	}
	return w.processReady(b, s)
}

// applyLeaderAndISR makes the replica leader or follower as the controller
// decided. Stale decisions are ignored, as Kafka does.
func (w *World) applyLeaderAndISR(b *broker, s *replicaSlot, st replica.LeaderAndISR) {
	var err error
	if st.Leader == b.id {
		err = s.node.BecomeLeader(st)
	} else {
		err = s.node.BecomeFollower(st)
	}
	if err != nil {
		w.record(EventReplica, b.id, &s.tp, "ignored LeaderAndIsr: %v", err)
	}
}

// processReady acts on what a replica asks for.
func (w *World) processReady(b *broker, s *replicaSlot) error {
	if !s.node.HasReady() {
		return nil
	}
	rd := s.node.Ready()
	for _, m := range rd.Messages {
		e := envelope{from: b.id, to: m.To, kind: kindReplica, tp: s.tp, msg: m}
		if m.Type == replica.MsgFetchResponse || m.Type == replica.MsgOffsetsForLeaderEpochResponse {
			key := requestKey{leader: b.id, follower: m.To, tp: s.tp, corr: m.CorrelationID}
			e.toIncarnation = w.net.pending[key]
			delete(w.net.pending, key)
			if e.toIncarnation == 0 {
				e.toIncarnation = -1 // no request known: never deliver
			}
		}
		w.send(e)
	}
	for _, r := range rd.ProduceResponses {
		w.send(envelope{from: b.id, to: r.To, kind: kindProduceResp, tp: s.tp, resp: r})
	}
	for _, a := range rd.AlterPartitions {
		w.send(envelope{from: b.id, to: ControllerID, kind: kindAlterPartition, tp: s.tp, alter: a})
	}
	for _, ev := range rd.Events {
		w.record(EventReplica, b.id, &s.tp, "%s", ev)
		if ev.ByPart {
			w.markLast(PartTruncation)
		}
	}
	s.node.Advance(rd)
	return w.maybeCheckpoint(b, s, rd.HighWatermark)
}

// maybeCheckpoint notes that the replica's HW changed. With
// [Config.ReplicaHighWatermarkCheckpointIntervalMs] 0 (the scenarios'
// convention: a restarted broker reads the HW it held just before the
// crash), replication-offset-checkpoint is rewritten at the end of the step
// ([World.flushCheckpoints]), so that a step moving many HWs writes the file
// once; otherwise it is written on Kafka's schedule (checkpoints.go).
func (w *World) maybeCheckpoint(b *broker, s *replicaSlot, hw int64) error {
	if hw != b.lastHW[s.tp] {
		b.lastHW[s.tp], b.hwDirty = hw, true
	}
	return nil
}

// flushCheckpoints writes, at the end of a step, the HW checkpoints that
// changed during it (with [Config.ReplicaHighWatermarkCheckpointIntervalMs]
// 0), and the log manager's checkpoints that a truncation or a deleted
// partition calls for ([World.checkpointAfterChanges]); a broker that fails
// to halts (an internal error).
func (w *World) flushCheckpoints() {
	for _, b := range w.brokers {
		if b.state != BrokerRunning {
			continue
		}
		if b.hwDirty && w.cfg.ReplicaHighWatermarkCheckpointIntervalMs == 0 {
			if err := w.writeHWCheckpoint(b); err != nil {
				w.internalError(b, fmt.Errorf("broker %d: %w", b.id, err))
				continue
			}
		}
		if err := w.checkpointAfterChanges(b); err != nil {
			w.internalError(b, err)
		}
	}
}

// failStart records a failed broker start as an internal error: the
// broker halts (crashed), and can be started again.
func (w *World) failStart(b *broker, err error) error {
	b.state = BrokerRunning // so that internalError halts it
	w.internalError(b, fmt.Errorf("broker %d: start: %w", b.id, err))
	return nil
}
