package broker

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/event"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/cluster/internal/txn"
	"github.com/kafkalive/kafkalive/group"
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

// Broker is one broker: its disk survives restarts, its process state
// does not.
type Broker struct {
	cfg         Config
	id          int32
	state       BrokerState
	fs          *vfs.MemFS
	incarnation int
	// previousEpoch is the broker epoch the clean shutdown marker held
	// at the start (-1: none), which its registration carries.
	previousEpoch int64
	replicas      map[tp]*Partition
	order         []tp // sorted keys of replicas
	// hws are the high watermarks replication-offset-checkpoint is written
	// with, hws[i] order[i]'s (Partition.lastHW), so that the checkpoint
	// reads them in order without looking each partition up.
	hws []int64
	// orderShared and hwsShared say that the last snapshot holds order and
	// hws (Snapshot): each is copied before it changes (ownOrder, ownHWs).
	orderShared, hwsShared bool
	nextBeatMs             int64
	// failure says why the last start failed (the broker is BrokerFailed),
	// failedPath what to wipe for it (a path under LogDir).
	failure, failedPath string
	hwDirty             bool
	// sessionPeers are the brokers this one has fetch sessions with, and
	// goneHeld the replicas that held a fetch for a follower already gone
	// (fetchsessions.go).
	sessionPeers []sessionPeer
	goneHeld     []goneHeld
	// coord is the group coordinator of the running process (nil until a
	// group asks); nextRetentionMs and nextCleanMs schedule the log
	// manager's retention check and the cleaner; cleanerOffsets is
	// cleaner-offset-checkpoint, kept in memory.
	coord           *coordinatorState
	nextRetentionMs int64
	nextCleanMs     int64
	// nextOffsetsExpiryMs is when its coordinator next expires committed
	// offsets (offsetexpiry.go).
	nextOffsetsExpiryMs int64
	cleanerOffsets      map[tp]int64
	// cleanerSeen is the HW of each compacted log when the cleaner last
	// looked at it (it skips logs with nothing new).
	cleanerSeen map[tp]int64
	// uncleanable are the partitions, sorted, whose cleaning failed on what
	// their log holds since the process started (cleaner.go).
	uncleanable []tp
	// compacted are the partitions of its compacted logs, sorted: the
	// cleaner looks at those alone (compacted.go).
	compacted []tp

	// nextHWCheckpointMs, nextRecoveryCheckpointMs and nextStartCheckpointMs
	// schedule the checkpoint files (checkpoints.go); recoveryCheckpointed
	// is the partitions of the last recovery-point-offset-checkpoint written
	// since the start (nil: none); nextFlusherMs is the OS flusher's next wake.
	nextHWCheckpointMs       int64
	nextRecoveryCheckpointMs int64
	nextStartCheckpointMs    int64
	recoveryCheckpointed     []tp
	nextFlusherMs            int64

	bytesIn, bytesOut     int64 // cumulative
	secondStartMs         int64
	secondIn, secondOut   int64 // cumulative at the start of this second
	lastSecIn, lastSecOut int64 // bytes in the last whole second

	// fetch counts the reads of its logs for consumers' fetches (fetchscan.go).
	fetch fetchScans
	// deleted are its replica directories a topic's deletion renamed
	// -delete, waiting out file.delete.delay.ms (delete.go).
	deleted []deletedLog

	// txn is the process's transaction coordinator (txnhost.go); markers
	// are the WriteTxnMarkers its leader replicas are appending, by the
	// correlation id of each append (markers.go).
	txn     *txn.Coordinator
	markers markerWrites
	// verify are the simulated producers' batches its leaders wait to
	// verify with their coordinators (verify.go).
	verify verifies

	// deletedSinceCheckpoint: a replica was deleted since the last
	// recovery-point-offset-checkpoint (checkpointAfterChanges).
	deletedSinceCheckpoint bool

	// timers are the replicas' next ticks, due when each replica's is due
	// (an entry of timers whose time is not its replica's is stale);
	// changed the partitions of the replicas changed since the world last
	// took them (timers.go).
	timers  timers
	due     map[tp]int64
	changed []tp
	// beat is what its heartbeats report and what changed since the last
	// (heartbeat.go).
	beat beat
	// ckptBuf is the memory its checkpoint files are written from, used
	// again by the next (its file system copies what is written): not a
	// clone's (checkpointBuf).
	ckptBuf []byte
}

// Partition is one partition replica hosted by a running broker: its log
// and its replica state machine (Kafka's kafka.cluster.Partition).
type Partition struct {
	TP   tp
	Log  *replicalog.Log
	Node *replica.Node
	// truncationsCheckpointed is log.truncations when the broker last wrote
	// recovery-point-offset-checkpoint.
	truncationsCheckpointed int
	// lastHW is the high watermark replication-offset-checkpoint is
	// written with: the node's as of its last Ready, its HW at the open.
	lastHW int64
	// changed marks it in Broker.changed (timers.go).
	changed bool
	// beatStale lists it in Broker.beat.stale (heartbeat.go).
	beatStale bool
	// kept is the copy of the replica the broker's last snapshot holds
	// (Broker.Snapshot), while nothing changed the replica since; every
	// path that may change it (hands its node a message or a tick, changes
	// its log or its marks, or hands it out: Partition) clears it first
	// (changing). Its timers are the broker's (Broker.due): setting or
	// firing one leaves it standing.
	kept *Partition
}

// changing notes that something may change replica s: the next snapshot
// copies it anew.
func (s *Partition) changing() { s.kept = nil }

// New returns broker cfg.ID, stopped, with an empty disk (of
// cfg.DiskBytes when set).
func New(cfg Config) *Broker {
	if cfg.ConsumerGroup.SessionTimeoutMs == 0 && len(cfg.ConsumerGroup.Assignors) == 0 {
		cfg.ConsumerGroup = group.DefaultConsumerGroupConfig()
	}
	b := &Broker{cfg: cfg, id: cfg.ID, state: BrokerStopped, fs: vfs.NewMem(), secondStartMs: cfg.ClockStartMs, nextFlusherMs: cfg.ClockStartMs}
	if cfg.DiskBytes > 0 {
		b.fs.SetCapacity(cfg.DiskBytes)
	}
	return b
}

// PartitionDir is a partition's directory under the log dir.
func PartitionDir(k tp) string { return LogDir + "/" + k.DirName() }

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
func (b *Broker) startBroker(env Env) error {
	if b.state == BrokerRunning {
		return fmt.Errorf("%w: broker %d is already running", metadata.ErrInvalidConfig, b.id)
	}
	b.fs.SetNow(env.Now())
	// log.dirs: created, if missing, with its parent synced, as
	// LogManager.createAndValidateLogDirs does (mkdirs, then Utils.flushDir
	// of the parent), so that a power cut cannot take the directory and
	// every synced segment in it.
	if err := vfs.MkdirAllDurable(b.fs, LogDir, 0o755); err != nil {
		return b.failStart(env, err)
	}
	marker, err := kafkalog.ReadCleanShutdownMarker(b.fs, LogDir)
	if err != nil {
		return b.failStart(env, err)
	}
	clean := marker.Present
	// ReplicaManager reads replication-offset-checkpoint once the logs are
	// loaded (Partition.createLog): a malformed one fails the start after
	// the recovery below.
	hws, hwErr := ReadCheckpoint(b.fs, kafkalog.ReplicationOffsetCheckpointFile)
	rps, rpErr := ReadCheckpoint(b.fs, kafkalog.RecoveryPointCheckpointFile)
	starts, startErr := ReadCheckpoint(b.fs, kafkalog.LogStartOffsetCheckpointFile)
	if clean {
		if err := kafkalog.RemoveCleanShutdownMarker(b.fs, LogDir); err != nil {
			return b.failStart(env, err)
		}
	}
	b.incarnation++
	b.previousEpoch = -1
	if marker.HasBrokerEpoch {
		b.previousEpoch = marker.BrokerEpoch
	}
	b.state = BrokerRunning
	b.replicas, b.order, b.hws, b.compacted = map[tp]*Partition{}, nil, nil, nil
	b.beat = beat{}
	b.nextBeatMs = env.Now() + b.cfg.BrokerHeartbeatIntervalMs
	b.nextRetentionMs = env.Now() + b.cfg.LogRetentionCheckIntervalMs
	b.nextCleanMs = env.Now() + b.cfg.LogCleanerBackoffMs
	b.nextOffsetsExpiryMs = env.Now() + b.cfg.OffsetsRetentionCheckIntervalMs
	b.scheduleCheckpoints(env)
	b.startTxnCoordinator(env)
	env.Record(event.Broker, b.id, nil, "started (incarnation %d, clean shutdown marker %v)", b.incarnation, clean)
	if rpErr != nil {
		rps = map[tp]int64{}
		env.Record(event.Broker, b.id, nil, "Error occurred while reading recovery-point-offset-checkpoint file of directory %s, resetting the recovery checkpoint to 0 (%v)", LogDir, rpErr)
	}
	if startErr != nil {
		starts = map[tp]int64{}
		env.Record(event.Broker, b.id, nil, "Error occurred while reading log-start-offset-checkpoint file of directory %s, resetting to the base offset of the first segment (%v)", LogDir, startErr)
	}
	for _, t := range env.Topics() {
		for p, replicas := range t.Assignment {
			if slices.Contains(replicas, b.id) {
				tp := tp{Topic: t.Name, Partition: int32(p)}
				rp, start := rps[tp], starts[tp]
				if _, err := b.fs.Stat(PartitionDir(tp)); err != nil {
					// No directory (wiped): LogManager.loadLogs loads only the
					// directories there; the replica is created new, from 0.
					rp, start = 0, 0
				}
				if err := b.openReplica(env, tp, hws[tp], rp, start, clean); err != nil {
					var le *logLoadError
					if errors.As(err, &le) {
						return b.failLoad(env, le)
					}
					return b.failStart(env, err)
				}
			}
		}
	}
	if hwErr != nil {
		return b.failLoad(env, &logLoadError{file: LogDir + "/" + kafkalog.ReplicationOffsetCheckpointFile, err: hwErr})
	}
	b.failure, b.failedPath = "", ""
	env.Send(netsim.Envelope{From: b.id, To: netsim.Controller, Kind: netsim.KindRegister, Incarnation: b.incarnation, PreviousBrokerEpoch: b.previousEpoch})
	return nil
}

// registerUnclean makes the broker register as after an unclean shutdown
// (no previous broker epoch), although its clean shutdown marker was
// there: the load of tp cut records that a damaged file no longer holds.
// Kafka 3.7's loader trusts a log under the marker and does not read it
// (kafkalog verifies the tail of each segment, and cuts what fails), so
// Kafka's replica keeps every record, damaged or not, and may be elected
// from the ELR (KIP-966): it held everything up to the high watermark.
// Here the replica holds less: claiming the clean shutdown would make it
// an eligible leader that has lost acknowledged records, and its election
// would truncate them from every other replica. Registered as unclean, it
// leaves the ELR, as a broker whose logs were recovered does.
func (b *Broker) registerUnclean(env Env, tp tp) {
	b.previousEpoch = -1
	env.Record(event.Broker, b.id, &tp, "the load cut records under the clean shutdown marker: the broker registers as after an unclean shutdown (its replicas leave the ELR)")
}

// logLoadError is a log dir that does not load: a checkpoint file that does
// not parse (file names it), or a partition log that kafkalog does not open
// (tp names it).
type logLoadError struct {
	file string
	tp   *tp
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
func (b *Broker) failLoad(env Env, le *logLoadError) error {
	var why string
	switch {
	case le.file != "" || errors.Is(le.err, kafkalog.ErrCorruptCheckpoint):
		file := le.file
		if file == "" && le.tp != nil {
			file = PartitionDir(*le.tp) + "/" + kafkalog.LeaderEpochCheckpointFile
		}
		why = fmt.Sprintf("Error while reading checkpoint file %s (%v): log dir %s is offline; Shutdown broker because all log dirs in %s have failed", file, le.err, LogDir, LogDir)
	case errors.Is(le.err, kafkalog.ErrInconsistentLog):
		why = fmt.Sprintf("Fatal error during broker startup. Prepare to shutdown: loading %s: %v (Kafka 3.7's LogLoader.recoverLog would truncate the segment and delete the segments after it, their records with them; kafkalive refuses)", le.tp, le.err)
	default:
		why = fmt.Sprintf("Fatal error during broker startup. Prepare to shutdown: loading %s: %v", le.tp, le.err)
	}
	b.fs.Crash()
	b.down(env, BrokerFailed)
	b.failure = why
	b.failedPath = strings.TrimPrefix(le.file, LogDir+"/")
	if le.tp != nil {
		b.failedPath = le.tp.DirName()
	}
	env.Record(event.Broker, b.id, le.tp, "start failed: %s", why)
	return nil
}

// ReadCheckpoint reads an offset checkpoint file of the log dir; a missing
// file is an empty checkpoint.
func ReadCheckpoint(fsys *vfs.MemFS, name string) (map[tp]int64, error) {
	m, err := kafkalog.ReadOffsetCheckpoint(fsys, LogDir+"/"+name)
	if errors.Is(err, fs.ErrNotExist) {
		return map[tp]int64{}, nil
	}
	return m, err
}

// openReplica opens (recovering) one partition log and builds its replica.
func (b *Broker) openReplica(env Env, tp tp, hw, recoveryPoint, logStartOffset int64, clean bool) error {
	parts := b.cfg.Parts.Log
	if tp.Topic == metadata.OffsetsTopic {
		parts.EncodeBatch = nil // the coordinator's records are not the producers'
	}
	opts := []kafkalog.Option{kafkalog.WithRecoveryPoint(recoveryPoint), kafkalog.WithLogStartOffset(logStartOffset),
		kafkalog.WithRand(env.Rand()), kafkalog.WithParts(parts)}
	if clean {
		opts = append(opts, kafkalog.WithCleanShutdown())
	}
	if !b.cfg.Rules.EpochCacheTruncatesOnAppend() {
		opts = append(opts, kafkalog.WithOnlyNewerEpochsOnAppend())
	}
	log, err := replicalog.Open(b.fs, PartitionDir(tp), env.Settings(tp.Topic).Log, env.Clock(), opts...)
	if err != nil {
		return &logLoadError{tp: &tp, err: err}
	}
	byPart := ""
	if log.Kafka().PartCalls().Recover > 0 {
		byPart = event.PartRecovery
	}
	if rep := log.Kafka().RecoveryReport(); len(rep.Truncations) > 0 {
		env.Record(event.Broker, b.id, &tp, "log recovery cut the log at %d", log.LogEndOffset())
		env.MarkLast(byPart)
		if clean && b.previousEpoch >= 0 {
			b.registerUnclean(env, tp)
		}
	}
	var rlog replica.Log = log
	if b.cfg.Parts.ValidateBatches {
		rlog = validatingLog{log}
	}
	node, err := replica.NewNode(replica.Config{ID: b.id, Rules: b.cfg.Rules, MinInsyncReplicas: env.Settings(tp.Topic).MinInsyncReplicas,
		ReplicaLagTimeMaxMs: b.cfg.ReplicaLagTimeMaxMs, ReplicaFetchWaitMaxMs: b.cfg.ReplicaFetchWaitMaxMs,
		InitialHighWatermark: hw, NowMs: env.Now(), TruncationPoint: b.cfg.Parts.TruncationPoint, Truncate: b.cfg.Parts.Truncate}, rlog)
	if err != nil {
		return fmt.Errorf("broker %d: %s: %w", b.id, tp, err)
	}
	s := &Partition{TP: tp, Log: log, Node: node, lastHW: node.Status().HighWatermark}
	b.replicas[tp] = s
	delete(b.due, tp) // a timer set for a replica before this one is stale
	i, _ := slices.BinarySearchFunc(b.order, tp, metadata.ComparePartitions)
	b.ownOrder()
	b.order = slices.Insert(b.order, i, tp)
	b.hws = append(b.hws, 0)
	copy(b.hws[i+1:], b.hws[i:])
	b.hws[i] = s.lastHW
	b.noteCompacted(s)
	b.touch(s)
	b.schedule(s, env.Now())
	env.Record(event.Broker, b.id, &tp, "opened log: LEO %d, HW %d", log.LogEndOffset(), s.lastHW)
	env.MarkLast(byPart)
	return nil
}

// stopBroker shuts the broker down cleanly: every log flushed and
// closed, the checkpoints written, the clean shutdown marker last; then a
// controlled shutdown tells the controller.
func (b *Broker) stopBroker(env Env) error {
	if b.state != BrokerRunning {
		return fmt.Errorf("%w: broker %d is %s", metadata.ErrInvalidConfig, b.id, b.state)
	}
	rps := map[tp]int64{}
	for _, tp := range b.order {
		s := b.replicas[tp]
		rps[tp] = s.Log.LogEndOffset()
		if err := s.Log.Kafka().Close(); err != nil {
			env.InternalError(b.id, fmt.Errorf("broker %d: clean shutdown: %w", b.id, err))
			return nil
		}
	}
	if err := b.writeHWCheckpoint(env); err != nil {
		env.InternalError(b.id, fmt.Errorf("broker %d: clean shutdown: %w", b.id, err))
		return nil
	}
	if err := kafkalog.WriteOffsetCheckpoint(b.fs, LogDir+"/"+kafkalog.RecoveryPointCheckpointFile, rps); err != nil {
		env.InternalError(b.id, fmt.Errorf("broker %d: clean shutdown: %w", b.id, err))
		return nil
	}
	if b.cfg.LogFlushStartOffsetCheckpointIntervalMs > 0 {
		if err := b.writeLogStartOffsetCheckpoint(env); err != nil {
			env.InternalError(b.id, fmt.Errorf("broker %d: clean shutdown: %w", b.id, err))
			return nil
		}
	}
	if err := kafkalog.WriteCleanShutdownMarker(b.fs, LogDir, b.markerEpoch(env)); err != nil {
		env.InternalError(b.id, fmt.Errorf("broker %d: clean shutdown: %w", b.id, err))
		return nil
	}
	env.Send(netsim.Envelope{From: b.id, To: netsim.Controller, Kind: netsim.KindShutdown, Incarnation: b.incarnation})
	b.down(env, BrokerStopped)
	env.Record(event.Broker, b.id, nil, "stopped cleanly")
	return nil
}

// markerEpoch is the broker epoch a clean shutdown writes in the marker
// (CleanShutdownFileHandler): the one the controller registered this
// incarnation with, which the next registration brings back so that the
// controller knows the shutdown was clean (KIP-966), -1 if it never
// registered. Where the controller does not read it (rules before
// [replica.RuleSet.EligibleLeaderReplicas]) the marker holds the
// incarnation, as it always did here.
func (b *Broker) markerEpoch(env Env) int64 {
	if !b.cfg.Rules.EligibleLeaderReplicas() {
		return int64(b.incarnation)
	}
	if epoch, ok := env.BrokerEpoch(b.id, b.incarnation); ok {
		return epoch
	}
	return -1
}

// killBroker is a process crash: the page cache survives.
func (b *Broker) killBroker(env Env) error {
	if b.state != BrokerRunning {
		return fmt.Errorf("%w: broker %d is %s", metadata.ErrInvalidConfig, b.id, b.state)
	}
	b.fs.Crash()
	b.down(env, BrokerCrashed)
	env.Record(event.Broker, b.id, nil, "killed (page cache survives)")
	return nil
}

// powerCut cuts the broker's power: only synced bytes survive; with
// torn, each file also keeps a random prefix of its unsynced tail.
func (b *Broker) powerCut(env Env, torn bool) error {
	if b.state == BrokerRunning {
		b.down(env, BrokerOff)
	}
	if torn {
		b.fs.PowerCutRand(env.Rand())
	} else {
		b.fs.PowerCut(func(string, int64, int64) int64 { return 0 })
	}
	b.state = BrokerOff
	env.Record(event.Broker, b.id, nil, "power cut (torn writes %v): page cache lost", torn)
	return nil
}

// down ends the broker process. On a crash or power cut, the messages it
// had queued and not yet sent die with it.
func (b *Broker) down(env Env, state BrokerState) {
	if state != BrokerStopped {
		env.DropFrom(b.id)
	}
	b.coordinatorGone(env)
	b.state = state
	for _, k := range b.order {
		b.touch(b.replicas[k]) // gone with the process
	}
	b.replicas, b.order, b.hws, b.compacted, b.coord, b.timers, b.due = nil, nil, nil, nil, nil, nil, nil
	b.beat = beat{}
	b.sessionPeers, b.goneHeld, b.uncleanable = nil, nil, nil
	b.txn, b.markers, b.verify = nil, markerWrites{}, verifies{}
}

// writeback is the OS writing every dirty page of the broker to disk.
func (b *Broker) writeback(env Env) {
	b.fs.Writeback()
	env.Record(event.Broker, b.id, nil, "OS writeback: page cache written to disk")
}

// writeHWCheckpoint writes replication-offset-checkpoint with the
// HW of every replica of the broker.
func (b *Broker) writeHWCheckpoint(env Env) error {
	b.hwDirty = false
	data := kafkalog.AppendOffsetCheckpointOf(b.checkpointBuf(), b.order, func(i int) int64 { return b.hws[i] })
	b.ckptBuf = data
	return kafkalog.WriteFileAtomic(b.fs, LogDir+"/"+kafkalog.ReplicationOffsetCheckpointFile, data)
}

// tickBroker moves the broker's replicas' clocks, sends its heartbeat and
// keeps its byte rates.
func (b *Broker) tickBroker(env Env) error {
	for env.Now()-b.secondStartMs >= 1000 {
		b.lastSecIn, b.lastSecOut = b.bytesIn-b.secondIn, b.bytesOut-b.secondOut
		b.secondIn, b.secondOut = b.bytesIn, b.bytesOut
		b.secondStartMs += 1000
	}
	b.runFlusher(env)
	if b.state != BrokerRunning {
		return nil
	}
	b.fs.SetNow(env.Now())
	if env.Now() >= b.nextBeatMs {
		b.nextBeatMs = env.Now() + b.cfg.BrokerHeartbeatIntervalMs
		env.Send(netsim.Envelope{From: b.id, To: netsim.Controller, Kind: netsim.KindHeartbeat, Incarnation: b.incarnation, Known: b.Known(),
			PreviousBrokerEpoch: b.previousEpoch})
	}
	b.watchSessions(env)
	for _, s := range b.dueReplicas(env.Now()) {
		if b.idleTick(s, env.Now()) {
			b.schedule(s, env.Now())
			continue
		}
		s.changing()
		mark := markOf(s)
		s.Node.Tick(env.Now())
		if err := b.sendReady(env, s); err != nil {
			return err
		}
		b.touchIfChanged(s, mark)
	}
	if err := b.runLogManager(env); err != nil {
		return err
	}
	if err := b.runCheckpoints(env); err != nil {
		return err
	}
	b.tickCoordinator(env)
	b.tickTxn(env)
	b.expireVerifications(env)
	b.expireOffsets(env)
	return nil
}

// deliverToBroker hands a message to the replica it is for.
func (b *Broker) deliverToBroker(env Env, e *netsim.Envelope) error {
	s := b.replicas[e.TP]
	if s == nil {
		return nil
	}
	s.changing()
	if e.Kind != netsim.KindReplica {
		b.wake(s, env.Now())
		if e.Kind == netsim.KindLeaderAndISR {
			b.applyLeaderAndISR(env, s, e.State)
		}
		return b.processReady(env, s)
	}
	mark := markOf(s)
	s.Node.SetNow(env.Now())
	if b.refuseTooLarge(env, s, e) || b.gateProduce(env, s, e) {
		b.touch(s)
		return nil
	}
	if e.Msg.Type == replica.MsgFetch || e.Msg.Type == replica.MsgOffsetsForLeaderEpoch {
		env.OpenRequest(b.id, e.From, e.TP, e.Msg.CorrelationID, e.FromIncarnation)
	}
	if err := s.Node.Step(e.Msg); err != nil {
		b.touch(s)
		return err
	}
	if e.Msg.Type == replica.MsgFetchHeld && s.Node.FetchHeld() {
		b.heldReceived(env, e.From)
	}
	err := b.sendReady(env, s)
	b.touchIfChanged(s, mark)
	return err
}

// applyLeaderAndISR makes the replica leader or follower as the controller
// decided. Stale decisions are ignored, as Kafka does.
func (b *Broker) applyLeaderAndISR(env Env, s *Partition, st replica.LeaderAndISR) {
	var err error
	if st.Leader == b.id {
		if err = s.Node.BecomeLeader(st); err == nil {
			env.BecameLeader(b.id, s.TP, st.LeaderEpoch, s.Node.Progress().LogEndOffset)
			if s.TP.Topic == metadata.OffsetsTopic {
				b.loadGroups(env, s.TP)
			}
		}
	} else if err = s.Node.BecomeFollower(st); err == nil && s.TP.Topic == metadata.OffsetsTopic {
		b.unloadGroups(env, s.TP)
	}
	if err != nil {
		env.Record(event.Replica, b.id, &s.TP, "ignored LeaderAndIsr: %v", err)
		return
	}
	b.txnElections(env, s)
}

// processReady acts on what a replica asks for.
func (b *Broker) processReady(env Env, s *Partition) error {
	if s.Node.HasReady() {
		b.touch(s)
	}
	return b.sendReady(env, s)
}

// sendReady sends what a replica asks for, without marking it changed
// (the caller does: processReady, or touchIfChanged).
func (b *Broker) sendReady(env Env, s *Partition) error {
	defer b.schedule(s, env.Now())
	if !s.Node.HasReady() {
		return nil
	}
	rd := s.Node.Ready()
	for _, m := range rd.Messages {
		e := netsim.Envelope{From: b.id, To: m.To, Kind: netsim.KindReplica, TP: s.TP, Msg: m}
		switch m.Type {
		case replica.MsgFetchResponse, replica.MsgOffsetsForLeaderEpochResponse:
			e.ToIncarnation = env.CloseRequest(b.id, m.To, s.TP, m.CorrelationID) // -1 (never delivered) when no request is known
		case replica.MsgFetchHeld:
			b.heldSent(env, s, &e)
		}
		env.Send(e)
	}
	for _, r := range rd.ProduceResponses {
		env.Send(netsim.Envelope{From: b.id, To: r.To, Kind: netsim.KindProduceResp, TP: s.TP, Resp: r})
	}
	for _, a := range rd.AlterPartitions {
		env.Send(netsim.Envelope{From: b.id, To: netsim.Controller, Kind: netsim.KindAlterPartition, TP: s.TP, Alter: a})
	}
	for _, ev := range rd.Events {
		env.Record(event.Replica, b.id, &s.TP, "%s", ev)
		if ev.ByPart {
			env.MarkLast(event.PartTruncation)
		}
	}
	s.Node.Advance(rd)
	return b.maybeCheckpoint(env, s, rd.HighWatermark)
}

// maybeCheckpoint notes that the replica's HW changed. With
// [Config.ReplicaHighWatermarkCheckpointIntervalMs] 0 (the scenarios'
// convention: a restarted broker reads the HW it held just before the
// crash), replication-offset-checkpoint is rewritten at the end of the step
// ([World.flushCheckpoints]), so that a step moving many HWs writes the file
// once; otherwise it is written on Kafka's schedule (checkpoints.go).
func (b *Broker) maybeCheckpoint(env Env, s *Partition, hw int64) error {
	if hw != s.lastHW {
		s.changing()
		s.lastHW, b.hwDirty = hw, true
		if i, ok := slices.BinarySearchFunc(b.order, s.TP, metadata.ComparePartitions); ok {
			b.ownHWs()[i] = hw
		}
		s.Log.Kafka().OnHighWatermarkUpdated(hw)
	}
	return nil
}

// failStart records a failed broker start as an internal error: the
// broker halts (crashed), and can be started again.
func (b *Broker) failStart(env Env, err error) error {
	b.state = BrokerRunning // so that internalError halts it
	env.InternalError(b.id, fmt.Errorf("broker %d: start: %w", b.id, err))
	return nil
}
