package cluster

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
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
	// BrokerFailed: the process exited during its start because its log
	// dir could not be loaded (a damaged file, see [World.StartFailure]);
	// it stays down, its files as they are, until a start succeeds (after
	// the damaged file or partition directory is removed: [ActWipe]).
	BrokerFailed
)

var brokerStateNames = [...]string{"running", "stopped", "crashed", "off", "failed"}

// String returns "running", "stopped", "crashed", "off" or "failed".
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
	// failure says why the last start failed (the broker is BrokerFailed),
	// failedPath what to wipe for it (a path under LogDir).
	failure, failedPath string
	hwDirty             bool
	lastHW              map[partitionKey]int64
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
	log  *replicalog.Log
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
//
// A log dir that does not load stops the start as Kafka 3.7 does (see
// [World.StartFailure]): a recovery-point-offset-checkpoint or
// log-start-offset-checkpoint that does not parse is read as empty, as
// LogManager.loadLogs warns and resets it (recovery from offset 0, the log
// start at the first segment); a replication-offset-checkpoint or a
// partition's leader-epoch-checkpoint that does not parse is an IOException
// (CheckpointFile: Malformed line in checkpoint file) that takes the only log
// dir offline, and the broker halts (LogManager.handleLogDirFailure); a
// partition log that kafkalog refuses to open is a fatal startup error. The
// broker is then [BrokerFailed].
func (w *World) startBroker(b *broker) error {
	if b.state == BrokerRunning {
		return fmt.Errorf("%w: broker %d is already running", ErrInvalidConfig, b.id)
	}
	b.fs.SetNow(w.now)
	w.peeks.forget(b.id)
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
	// ReplicaManager reads replication-offset-checkpoint once the logs are
	// loaded (Partition.createLog): a malformed one fails the start after
	// the recovery below.
	hws, hwErr := readCheckpoint(b.fs, kafkalog.ReplicationOffsetCheckpointFile)
	rps, rpErr := readCheckpoint(b.fs, kafkalog.RecoveryPointCheckpointFile)
	starts, startErr := readCheckpoint(b.fs, kafkalog.LogStartOffsetCheckpointFile)
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
	if rpErr != nil {
		rps = map[partitionKey]int64{}
		w.record(EventBroker, b.id, nil, "Error occurred while reading recovery-point-offset-checkpoint file of directory %s, resetting the recovery checkpoint to 0 (%v)", LogDir, rpErr)
	}
	if startErr != nil {
		starts = map[partitionKey]int64{}
		w.record(EventBroker, b.id, nil, "Error occurred while reading log-start-offset-checkpoint file of directory %s, resetting to the base offset of the first segment (%v)", LogDir, startErr)
	}
	for _, t := range w.ctl.Topics() {
		for p, replicas := range t.Assignment {
			if slices.Contains(replicas, b.id) {
				tp := partitionKey{Topic: t.Name, Partition: int32(p)}
				rp, start := rps[tp], starts[tp]
				if _, err := b.fs.Stat(w.partitionDir(tp)); err != nil {
					// No directory (wiped): LogManager.loadLogs loads only the
					// directories there; the replica is created new, from 0.
					rp, start = 0, 0
				}
				if err := w.openReplica(b, tp, hws[tp], rp, start, clean); err != nil {
					var le *logLoadError
					if errors.As(err, &le) {
						return w.failLoad(b, le)
					}
					return w.failStart(b, err)
				}
			}
		}
	}
	if hwErr != nil {
		return w.failLoad(b, &logLoadError{file: LogDir + "/" + kafkalog.ReplicationOffsetCheckpointFile, err: hwErr})
	}
	b.failure, b.failedPath = "", ""
	w.send(netsim.Envelope{From: b.id, To: ControllerID, Kind: netsim.KindRegister, Incarnation: b.incarnation})
	return nil
}

// logLoadError is a log dir that does not load: a checkpoint file that does
// not parse (file names it), or a partition log that kafkalog does not open
// (tp names it).
type logLoadError struct {
	file string
	tp   *partitionKey
	err  error
}

func (e *logLoadError) Error() string { return e.err.Error() }

// failLoad ends a start whose log dir did not load, as Kafka 3.7 does: a
// checkpoint file that does not parse is an IOException, which takes the log
// dir offline (CheckpointFileWithFailureHandler.read,
// LogDirFailureChannel.maybeAddOfflineLogDir) and, the broker having one log
// dir, halts it (LogManager.handleLogDirFailure); any other error while
// loading the logs fails the start (BrokerServer.startup). The process exits
// as after a crash (the page cache survives, nothing more is written), the
// broker stays [BrokerFailed], and an event says why in Kafka's words. It is
// not an internal error: the files are damaged, the code did its job.
func (w *World) failLoad(b *broker, le *logLoadError) error {
	var why string
	switch {
	case le.file != "" || errors.Is(le.err, kafkalog.ErrCorruptCheckpoint):
		file := le.file
		if file == "" && le.tp != nil {
			file = w.partitionDir(*le.tp) + "/" + kafkalog.LeaderEpochCheckpointFile
		}
		why = fmt.Sprintf("Error while reading checkpoint file %s (%v): log dir %s is offline; Shutdown broker because all log dirs in %s have failed", file, le.err, LogDir, LogDir)
	case errors.Is(le.err, kafkalog.ErrInconsistentLog):
		why = fmt.Sprintf("Fatal error during broker startup. Prepare to shutdown: loading %s: %v (Kafka 3.7's LogLoader.recoverLog would truncate the segment and delete the segments after it, their records with them; kafkalive refuses)", le.tp, le.err)
	default:
		why = fmt.Sprintf("Fatal error during broker startup. Prepare to shutdown: loading %s: %v", le.tp, le.err)
	}
	b.fs.Crash()
	w.down(b, BrokerFailed)
	b.failure = why
	b.failedPath = strings.TrimPrefix(le.file, LogDir+"/")
	if le.tp != nil {
		b.failedPath = le.tp.DirName()
	}
	w.record(EventBroker, b.id, le.tp, "start failed: %s", why)
	return nil
}

// StartFailure says why broker id's last start failed, while it is
// [BrokerFailed] (else ""): the checkpoint file or partition log that did
// not load, in Kafka's words.
func (w *World) StartFailure(id int32) string {
	b, err := w.broker(id)
	if err != nil || b.state != BrokerFailed {
		return ""
	}
	return b.failure
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
	if !w.cfg.Rules.EpochCacheTruncatesOnAppend() {
		opts = append(opts, kafkalog.WithOnlyNewerEpochsOnAppend())
	}
	log, err := replicalog.Open(b.fs, w.partitionDir(tp), w.logConfig(tp.Topic), &w.now, opts...)
	if err != nil {
		return &logLoadError{tp: &tp, err: err}
	}
	byPart := ""
	if log.Kafka().PartCalls().Recover > 0 {
		byPart = PartRecovery
	}
	if rep := log.Kafka().RecoveryReport(); len(rep.Truncations) > 0 {
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
	slices.SortFunc(b.order, metadata.ComparePartitions)
	b.lastHW[tp] = node.Status().HighWatermark
	w.record(EventBroker, b.id, &tp, "opened log: LEO %d, HW %d", log.LogEndOffset(), b.lastHW[tp])
	w.markLast(byPart)
	return nil
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
		if err := s.log.Kafka().Close(); err != nil {
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
	w.send(netsim.Envelope{From: b.id, To: ControllerID, Kind: netsim.KindShutdown, Incarnation: b.incarnation})
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
		w.net.Drop([]int32{b.id}, nil)
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
		w.send(netsim.Envelope{From: b.id, To: ControllerID, Kind: netsim.KindHeartbeat, Incarnation: b.incarnation, Known: known})
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
func (w *World) deliverToBroker(b *broker, e *netsim.Envelope) error {
	s := b.replicas[e.TP]
	if s == nil {
		return nil
	}
	switch e.Kind {
	case netsim.KindLeaderAndISR:
		w.applyLeaderAndISR(b, s, e.State)
	case netsim.KindReplica:
		if w.refuseTooLarge(b, s, e) {
			return nil
		}
		if e.Msg.Type == replica.MsgFetch || e.Msg.Type == replica.MsgOffsetsForLeaderEpoch {
			w.net.OpenRequest(b.id, e.From, e.TP, e.Msg.CorrelationID, e.FromIncarnation)
		}
		if err := s.node.Step(e.Msg); err != nil {
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
		e := netsim.Envelope{From: b.id, To: m.To, Kind: netsim.KindReplica, TP: s.tp, Msg: m}
		if m.Type == replica.MsgFetchResponse || m.Type == replica.MsgOffsetsForLeaderEpochResponse {
			e.ToIncarnation = w.net.CloseRequest(b.id, m.To, s.tp, m.CorrelationID) // -1 (never delivered) when no request is known
		}
		w.send(e)
	}
	for _, r := range rd.ProduceResponses {
		w.send(netsim.Envelope{From: b.id, To: r.To, Kind: netsim.KindProduceResp, TP: s.tp, Resp: r})
	}
	for _, a := range rd.AlterPartitions {
		w.send(netsim.Envelope{From: b.id, To: ControllerID, Kind: netsim.KindAlterPartition, TP: s.tp, Alter: a})
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
