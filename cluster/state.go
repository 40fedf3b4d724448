package cluster

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/client"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/vfs"
)

// State is a snapshot of the world, with the JSON field names documented
// in the package comment. [World.State] builds it; [State.Text] prints it.
type State struct {
	TimeMs     int64           `json:"time_ms"`
	Rules      string          `json:"rules"`
	Brokers    []BrokerInfo    `json:"brokers"`
	Partitions []PartitionInfo `json:"partitions"`
	Producers  []ProducerInfo  `json:"producers"`
	Consumers  []ConsumerInfo  `json:"consumers,omitempty"`
	// Groups are the consumer groups, sorted by name.
	Groups []GroupInfo `json:"groups,omitempty"`
	// Network lists the cut links as [a, b] pairs.
	Network [][2]int32 `json:"cut_links,omitempty"`
	// ActiveController is, in KRaft combined mode, the broker whose
	// controller is active (-1 while none is); omitted (0) when the
	// controller is a separate node.
	ActiveController int32 `json:"active_controller,omitempty"`
}

// BrokerInfo is one broker in a [State].
type BrokerInfo struct {
	ID int32 `json:"id"`
	// State is "running", "stopped", "crashed", "off" or "failed" (its last
	// start could not load its log dir: [World.StartFailure]).
	State string `json:"state"`
	// Controller is the controller's view: "unfenced", "fenced" or
	// "unregistered".
	Controller string `json:"controller"`
	// DiskBytes are the bytes of its files on disk; CacheBytes those only
	// in the page cache (lost by a power cut).
	DiskBytes  int64 `json:"disk_bytes"`
	CacheBytes int64 `json:"cache_bytes"`
	// DiskCapacity is the size of its disk ([Config.BrokerDiskBytes]), 0
	// when unlimited.
	DiskCapacity int64 `json:"disk_capacity,omitempty"`
	// BytesInPerSec and BytesOutPerSec are the network bytes of the last
	// whole second.
	BytesInPerSec  int64 `json:"bytes_in_per_sec"`
	BytesOutPerSec int64 `json:"bytes_out_per_sec"`
	// FetchReads counts its reads of a partition's log for consumers'
	// fetches (not followers'); FetchScannedBatches and FetchScannedBytes
	// the batch headers, and their bytes, that those reads' scans walked
	// past from the offset index entry to the batch each read returns
	// (LogSegment.translateOffset: OffsetIndex.lookup, then
	// FileRecords.searchForOffsetWithSize; kafkalog.ReadStats). They count
	// from the world's start. Kafka has no metric for them: on a real broker
	// the scan shows only as the reads of each batch header from the .log
	// (FileLogInputStream.nextBatch).
	FetchReads          int64 `json:"fetch_reads,omitempty"`
	FetchScannedBatches int64 `json:"fetch_scanned_batches,omitempty"`
	FetchScannedBytes   int64 `json:"fetch_scanned_bytes,omitempty"`
	// LastFetchOffset is the offset the latest of those reads asked for, and
	// LastFetchFirstBatch the base offset of the batch its records began
	// with: the batch whose last offset reaches LastFetchOffset (-1 when it
	// returned none). Both are 0 before the first read.
	LastFetchOffset     int64 `json:"last_fetch_offset,omitempty"`
	LastFetchFirstBatch int64 `json:"last_fetch_first_batch,omitempty"`
	// UncleanablePartitions are the partitions ("topic-partition", sorted)
	// its log cleaner marked uncleanable since its process started: a
	// cleaning round failed on what their log holds (a damaged batch), and
	// the cleaner passes them over until the broker restarts or stops
	// hosting them, as Kafka 3.7's LogCleaner does. Kafka counts them in
	// the metric uncleanable-partitions-count (kafka.log:type=LogCleanerManager)
	// and names each in a WARN of its log-cleaner.log.
	UncleanablePartitions []string `json:"uncleanable_partitions,omitempty"`
}

// PartitionInfo is one partition: the controller's record and every
// running replica's log.
type PartitionInfo struct {
	Topic       string  `json:"topic"`
	Partition   int32   `json:"partition"`
	Leader      int32   `json:"leader"`
	LeaderEpoch int32   `json:"leader_epoch"`
	Replicas    []int32 `json:"replicas"`
	ISR         []int32 `json:"isr"`
	// ELR and LastKnownELR are the eligible leader replicas and the last
	// known leader of a partition without one (KIP-966; only under rules
	// with [replica.RuleSet.EligibleLeaderReplicas], and only when not
	// empty).
	ELR            []int32 `json:"elr,omitempty"`
	LastKnownELR   []int32 `json:"last_known_elr,omitempty"`
	LogStartOffset int64   `json:"log_start_offset"`
	HighWatermark  int64   `json:"high_watermark"`
	LogEndOffset   int64   `json:"log_end_offset"`
	// LastStableOffset is the leader's last stable offset (what a
	// read_committed consumer reads up to), and OpenTransactions the
	// transactions open on the partition, by first offset; both only for a
	// partition a transactional producer wrote to (nil otherwise).
	LastStableOffset *int64            `json:"last_stable_offset,omitempty"`
	OpenTransactions []OpenTransaction `json:"open_transactions,omitempty"`
	// AbortedTransactions are the aborted transactions the leader's
	// .txnindex files hold, segment by segment (what a read_committed
	// fetch is told to skip).
	AbortedTransactions []AbortedTransaction `json:"aborted_transactions,omitempty"`
	Logs                []LogInfo            `json:"logs"`
}

// AbortedTransaction is an entry of a .txnindex: an aborted transaction's
// producer id, first offset and the offset of its ABORT marker.
type AbortedTransaction struct {
	ProducerID  int64 `json:"producer_id"`
	FirstOffset int64 `json:"first_offset"`
	LastOffset  int64 `json:"last_offset"`
}

// OpenTransaction is a transaction open on a partition: its producer id
// and the offset of its first record (the last stable offset stops at the
// earliest).
type OpenTransaction struct {
	ProducerID  int64 `json:"producer_id"`
	FirstOffset int64 `json:"first_offset"`
}

// LogInfo is one replica's log.
type LogInfo struct {
	Broker int32 `json:"broker"`
	// Role is "leader", "follower" or "none"; "down" if the broker is not
	// running (the records are then read from its disk as recovery would).
	Role          string       `json:"role"`
	LogEndOffset  int64        `json:"log_end_offset"`
	HighWatermark int64        `json:"high_watermark"`
	Epochs        []EpochInfo  `json:"epochs"`
	Records       []RecordInfo `json:"records"`
	// Omitted counts the log's records left out before Records, and
	// FirstOffset is then the offset of the log's first record; both are
	// 0 in [World.State], which lists every record, and set only by
	// [World.StateWith] (not part of the JSON state).
	Omitted     int   `json:"-"`
	FirstOffset int64 `json:"-"`
}

// EpochInfo is one leader epoch cache entry.
type EpochInfo struct {
	Epoch       int32 `json:"epoch"`
	StartOffset int64 `json:"start_offset"`
}

// RecordInfo is one record of a replica's log.
type RecordInfo struct {
	Offset      int64  `json:"offset"`
	Key         string `json:"key,omitempty"`
	Value       string `json:"value"`
	LeaderEpoch int32  `json:"leader_epoch"`
	// Durable is false while the record is only in the page cache.
	Durable bool `json:"durable"`
	// DiffersFromLeader marks a record unlike the leader's at that offset.
	DiffersFromLeader bool `json:"differs_from_leader,omitempty"`
	// Tombstone marks a null value (extra, omitted when false).
	Tombstone bool `json:"tombstone,omitempty"`
	// KeySize and ValueSize are the whole key's and value's lengths when
	// [StateOptions.Preview] cut them (-1: null), else 0 (not part of the
	// JSON state).
	KeySize   int `json:"-"`
	ValueSize int `json:"-"`
	// ProducerID is the producer id of the record's batch (-1: none), and
	// Control marks a transaction marker; neither is part of the JSON
	// state.
	ProducerID int64 `json:"-"`
	Control    bool  `json:"-"`
}

// ProducerInfo is one producer and what it was told.
type ProducerInfo struct {
	Name string `json:"name"`
	Sent int    `json:"sent"`
	// Acked counts the records acknowledged with an offset (acks=1 or
	// all), LostAfterAck those of them the partition no longer holds.
	Acked        int `json:"acked"`
	LostAfterAck int `json:"lost_after_ack"`
	Failed       int `json:"failed"`
	// SentNoAck counts the records sent with acks=0: no answer comes, so
	// neither acknowledged nor failed.
	SentNoAck int          `json:"sent_no_ack"`
	Results   []ResultInfo `json:"results"`
}

// ResultInfo is one record's outcome: an offset, an error, or neither
// (pending).
type ResultInfo struct {
	Value     string `json:"value"`
	Partition int32  `json:"partition"`
	Offset    *int64 `json:"offset,omitempty"`
	Error     string `json:"error,omitempty"`
	// Status is "acked", "lost" (acknowledged, then gone from the
	// partition), "failed", "pending" or (acks=0) "sent".
	Status string `json:"status"`
}

// ConsumerInfo is one consumer: a simple one (Name, Topic, Partition,
// Position, Read) or a group member (ID, Group, Processed, Duplicates,
// MemberID, Status); see its MarshalJSON.
type ConsumerInfo struct {
	Name      string
	Topic     string
	Partition int32
	Position  int64
	Read      int
	// ID is the group consumer's client.id (its name).
	ID    string
	Group string
	// Processed counts records handed to the application; Duplicates those
	// the group had processed before (redelivered after a crash or a
	// failed commit).
	Processed, Duplicates int
	// MemberID is the coordinator-given member id, "" when not joined.
	MemberID string
	// Status is "running", "crashed" or "closed".
	Status string
}

// State returns a snapshot of the world.
func (w *World) State() State { return w.state(StateOptions{}) }

// StateOptions narrows what [World.StateWith] lists of the replica logs.
// The zero value lists everything, as [World.State] does.
type StateOptions struct {
	// Records, when set, says which partitions' logs list their records;
	// the logs of the others list none (LogInfo.Omitted counts them).
	Records func(topic string, partition int32) bool
	// Tail, when above 0, keeps only the newest Tail records of each log
	// listed, the older ones counted in LogInfo.Omitted.
	Tail int
	// Preview, when above 0, lists each record's key and value cut to
	// Preview bytes (RecordInfo.KeySize and ValueSize say how long they
	// are whole), read without decompressing a batch further than its
	// last record listed and without holding a whole value
	// (replicalog.Mirror.PreviewFrom); DiffersFromLeader then compares
	// the records' previews and sizes. A client's batches of one 60 MiB
	// value each are listed from a few kilobytes of each.
	Preview int
}

// Brokers returns the brokers as [World.State] lists them, without
// looking at any replica log: as cheap after a client wrote millions of
// records as before (a tool that needs only the brokers, such as
// kafka-topics --describe, asks this, not State).
func (w *World) Brokers() []BrokerInfo {
	out := make([]BrokerInfo, 0, len(w.brokers))
	for i, b := range w.brokers {
		ctl := w.ctl.Registration(int32(i + 1)).Status()
		bytesIn, bytesOut := b.Rates()
		f := b.FetchStats()
		out = append(out, BrokerInfo{ID: b.ID(), State: b.State().String(), Controller: ctl,
			DiskBytes: b.FS().DurableBytes("/"), CacheBytes: b.FS().CacheBytes("/"), DiskCapacity: w.cfg.BrokerDiskBytes,
			BytesInPerSec: bytesIn, BytesOutPerSec: bytesOut,
			FetchReads: f.Reads, FetchScannedBatches: f.ScannedBatches, FetchScannedBytes: f.ScannedBytes,
			LastFetchOffset: f.LastOffset, LastFetchFirstBatch: f.FirstBatch, UncleanablePartitions: uncleanableNames(b)})
	}
	return out
}

// uncleanableNames names the partitions b's cleaner marked uncleanable
// (nil for none).
func uncleanableNames(b *broker.Broker) []string {
	var out []string
	for _, k := range b.Uncleanable() {
		out = append(out, k.String())
	}
	return out
}

// Groups returns the consumer groups as [World.State] lists them, and
// those only a client's offset commits made (assign and commit), which
// State leaves out: finding them reads the offsets partitions' logs, a
// cost kafka-consumer-groups takes and a view of every frame does not.
func (w *World) Groups() []GroupInfo { return w.groupInfos(true) }

// StateWith returns the snapshot [World.State] returns, but with only the
// records opts asks for: a page that shows the tail of one partition's
// logs need not list (and compare with the leader's) every record of
// every partition. Every record listed is as State lists it, its
// DiffersFromLeader mark compared with the leader's whole log.
func (w *World) StateWith(opts StateOptions) State { return w.state(opts) }

func (w *World) state(opts StateOptions) State {
	s := State{TimeMs: w.now, Rules: w.cfg.Rules.String(), Network: w.net.CutLinks()}
	if w.cfg.CombinedControllers {
		s.ActiveController = w.ctl.Active()
		if !w.ctl.Up(w.env()) {
			s.ActiveController = -1
		}
	}
	s.Brokers = w.Brokers()
	for _, tp := range w.ctl.Partitions() {
		if tp.Topic == OffsetsTopic {
			continue // shown through the groups
		}
		tail := -1 // every record
		if opts.Records != nil && !opts.Records(tp.Topic, tp.Partition) {
			tail = 0
		} else if opts.Tail > 0 {
			tail = opts.Tail
		}
		s.Partitions = append(s.Partitions, w.partitionInfo(tp, tail, opts.Preview))
	}
	for _, p := range w.producers {
		s.Producers = append(s.Producers, producerInfo(p))
	}
	for _, c := range w.consumers {
		if c.IsGroup() {
			s.Consumers = append(s.Consumers, groupConsumerInfo(c))
			continue
		}
		cfg := c.Config()
		s.Consumers = append(s.Consumers, ConsumerInfo{Name: cfg.Name, Topic: cfg.Topic, Partition: cfg.Partition, Position: c.Position(), Read: len(c.Records())})
	}
	s.Groups = w.groupInfos(false)
	return s
}

func producerInfo(p *Producer) ProducerInfo {
	dropped, counts := p.Dropped()
	pi := ProducerInfo{Name: p.Name(), Sent: dropped + p.ResultCount(), Results: []ResultInfo{}}
	for _, r := range p.EachResult() {
		ri := ResultInfo{Value: r.Value, Partition: r.Partition, Error: r.Error, Status: r.Outcome()}
		if r.Acked && r.Offset >= 0 {
			off := r.Offset
			ri.Offset = &off
		}
		counts.Add(r)
		pi.Results = append(pi.Results, ri)
	}
	pi.Acked, pi.LostAfterAck, pi.Failed, pi.SentNoAck = counts.Acked, counts.Lost, counts.Failed, counts.SentNoAck
	return pi
}

// partitionInfo describes tp with the newest tail records of each log
// (every record when tail < 0), cut to preview bytes when preview > 0.
func (w *World) partitionInfo(tp partitionKey, tail, preview int) PartitionInfo {
	p, _ := w.ctl.View(tp)
	pi := PartitionInfo{Topic: tp.Topic, Partition: tp.Partition, Leader: p.Leader, LeaderEpoch: p.LeaderEpoch,
		Replicas: slices.Clone(p.Replicas), ISR: slices.Clone(p.ISR), ELR: slices.Clone(p.ELR), LastKnownELR: slices.Clone(p.LastKnownELR),
		HighWatermark: -1, LogEndOffset: -1, LogStartOffset: -1}
	var leaderLog *LogInfo
	for _, id := range p.Replicas {
		li := w.logInfo(w.brokers[id-1], tp, tail, preview)
		pi.Logs = append(pi.Logs, li)
		if id == p.Leader && li.Role == replica.RoleLeader.String() {
			leaderLog = &pi.Logs[len(pi.Logs)-1]
		}
	}
	if leaderLog != nil {
		pi.HighWatermark, pi.LogEndOffset = leaderLog.HighWatermark, leaderLog.LogEndOffset
		if s := w.brokers[p.Leader-1].Peek(tp); s != nil {
			pi.LogStartOffset = s.Log.LogStartOffset()
			pi.LastStableOffset, pi.OpenTransactions, pi.AbortedTransactions = transactionsOf(s.Log.Kafka(), pi.HighWatermark)
			switch {
			case tail >= 0 && preview > 0:
				markPreviewDifferences(pi.Logs, leaderLog.Broker, s.Log, preview)
			case tail >= 0:
				markDifferencesWith(pi.Logs, leaderLog.Broker, s.Log)
			}
		}
		if tail < 0 {
			markDifferences(pi.Logs, leaderLog)
		}
	}
	return pi
}

// markDifferencesWith flags every listed record unlike the leader's at its
// offset, looked up in the leader's mirror (the listed records of a
// follower behind may be older than those listed of the leader's).
func markDifferencesWith(logs []LogInfo, leader int32, l *replicalog.Log) {
	for i := range logs {
		if logs[i].Broker == leader {
			continue
		}
		for j, r := range logs[i].Records {
			k := l.Index(r.Offset)
			if k >= l.Mirror().Len() || l.Mirror().At(k).Offset != r.Offset {
				continue
			}
			if e := l.Mirror().At(k); string(e.Value) != r.Value || string(e.Key) != r.Key || e.LeaderEpoch != r.LeaderEpoch {
				logs[i].Records[j].DiffersFromLeader = true
			}
		}
	}
}

// markDifferences flags every record unlike the leader's at its offset.
func markDifferences(logs []LogInfo, leader *LogInfo) {
	at := map[int64]RecordInfo{}
	for _, r := range leader.Records {
		at[r.Offset] = r
	}
	for i := range logs {
		if logs[i].Broker == leader.Broker {
			continue
		}
		for j, r := range logs[i].Records {
			if l, ok := at[r.Offset]; ok && (l.Value != r.Value || l.Key != r.Key || l.LeaderEpoch != r.LeaderEpoch) {
				logs[i].Records[j].DiffersFromLeader = true
			}
		}
	}
}

// logInfo describes a broker's replica of tp: live if it runs, else what
// its page cache (crashed, stopped) or disk (off) holds, read without
// changing anything.
//
// With tail >= 0 only the newest tail records are listed, the others
// counted in Omitted; with preview > 0, their keys and values cut.
func (w *World) logInfo(b *broker.Broker, tp partitionKey, tail, preview int) LogInfo {
	li := LogInfo{Broker: b.ID(), Role: "down", Epochs: []EpochInfo{}, Records: []RecordInfo{}}
	var log *replicalog.Log
	if s := b.Peek(tp); s != nil {
		st := s.Node.Status()
		li.Role, li.HighWatermark, log = st.Role.String(), st.HighWatermark, s.Log
	} else {
		log, li.HighWatermark = w.peeks.log(b, tp, w.ctl.Settings(tp.Topic).Log, w.clock)
		if log == nil {
			return li
		}
	}
	li.LogEndOffset = log.LogEndOffset()
	for _, e := range log.Epochs() {
		li.Epochs = append(li.Epochs, EpochInfo{Epoch: e.Epoch, StartOffset: e.StartOffset})
	}
	from := 0
	if tail >= 0 && log.Mirror().Len() > tail {
		from = log.Mirror().Len() - tail
		li.Omitted, li.FirstOffset = from, log.Mirror().OffsetAt(0)
	}
	durable := log.DurableFrom(b.FS(), from)
	if n := log.Mirror().Len() - from; n > 0 {
		li.Records = make([]RecordInfo, 0, n)
	}
	pid := int64(-1) // the producer id of the batch the entries belong to
	if preview > 0 {
		for i, p := range log.Mirror().PreviewFrom(from, preview) {
			pid = batchProducer(&p.Entry, pid)
			ri := recordInfo(&p.Entry, durable[i-from], pid)
			ri.KeySize, ri.ValueSize = p.KeySize, p.ValueSize
			li.Records = append(li.Records, ri)
		}
		return li
	}
	for i, e := range log.Mirror().From(from) {
		pid = batchProducer(e, pid)
		li.Records = append(li.Records, recordInfo(e, durable[i-from], pid))
	}
	return li
}

// batchProducer is the producer id of the batch entry e belongs to: read
// from its bytes when e begins a batch, else pid, the previous entry's.
func batchProducer(e *replica.Entry, pid int64) int64 {
	if e.Batch == nil {
		return pid
	}
	if h, err := kafkalog.ReadBatchHeader(e.Batch); err == nil {
		return h.ProducerID
	}
	return -1
}

// recordInfo is entry e, of a batch of producer id pid, as State lists it.
func recordInfo(e *replica.Entry, durable bool, pid int64) RecordInfo {
	ri := RecordInfo{Offset: e.Offset, Key: string(e.Key), Value: string(e.Value), LeaderEpoch: e.LeaderEpoch, Durable: durable, Tombstone: e.Value == nil, ProducerID: pid}
	if t, ok := client.ControlEntry(e); ok {
		ri.Key, ri.Value, ri.Control = "", markerLabel(t), true // a transaction marker
	}
	return ri
}

// markPreviewDifferences is markDifferencesWith for records listed cut to
// preview bytes: each is compared with the leader's preview at its offset
// (key, value, their sizes and the leader epoch), read from the leader's
// mirror alongside the follower's records, over the offsets it lists.
func markPreviewDifferences(logs []LogInfo, leader int32, l *replicalog.Log, preview int) {
	for i := range logs {
		rs := logs[i].Records
		if logs[i].Broker == leader || len(rs) == 0 {
			continue
		}
		j := 0
		for _, p := range l.Mirror().PreviewFrom(l.Index(rs[0].Offset), preview) {
			for j < len(rs) && rs[j].Offset < p.Entry.Offset {
				j++
			}
			if j == len(rs) {
				break
			}
			if rs[j].Offset != p.Entry.Offset {
				continue
			}
			lr := recordInfo(&p.Entry, false, -1)
			if r := &rs[j]; lr.Value != r.Value || lr.Key != r.Key || lr.LeaderEpoch != r.LeaderEpoch || p.KeySize != r.KeySize || p.ValueSize != r.ValueSize {
				r.DiffersFromLeader = true
			}
			j++
		}
	}
}

// log opens a stopped broker's log on a clone of its file system (with
// the topic's log config cfg, at Kafka's clock now), so that looking
// changes nothing, and returns it with its HW checkpoint. Opening reads
// and decodes the whole log, which after a client's flood takes seconds:
// the log opened is kept and given again while the broker's files and the
// topic's log config are as they were.
func (c *peekCache) log(b *broker.Broker, tp partitionKey, cfg kafkalog.Config, now int64) (*replicalog.Log, int64) {
	key := peekKey{broker: b.ID(), tp: tp}
	if p, ok := c.logs[key]; ok && p.fs == b.FS() && p.version == b.FS().ContentVersion() && p.cfg == cfg {
		return p.log, p.hw
	}
	p := peeked{fs: b.FS(), version: b.FS().ContentVersion(), cfg: cfg}
	p.log, p.hw = openPeek(b, tp, cfg, now)
	if c.logs == nil {
		c.logs = map[peekKey]peeked{}
	}
	c.logs[key] = p
	return p.log, p.hw
}

// openPeek is peekCache.log without its cache.
func openPeek(b *broker.Broker, tp partitionKey, cfg kafkalog.Config, now int64) (*replicalog.Log, int64) {
	fsys := b.FS().Clone()
	hws, _ := broker.ReadCheckpoint(fsys, "replication-offset-checkpoint") // one that does not parse reads as 0
	if _, err := fsys.Stat(broker.PartitionDir(tp)); err != nil {
		return nil, 0
	}
	log, err := replicalog.Open(fsys, broker.PartitionDir(tp), cfg, &now)
	if err != nil {
		return nil, 0
	}
	return log, min(hws[tp], log.LogEndOffset())
}

// peekCache holds the logs peekCache.log opened, by broker and partition (a nil
// log: none to open), each with the file system, its ContentVersion and
// the log config it was opened with. It is a cache: a snapshot or a clone
// of the world starts without it (cloneState).
type peekCache struct {
	logs map[peekKey]peeked
}

type peekKey struct {
	broker int32
	tp     partitionKey
}

type peeked struct {
	fs      *vfs.MemFS
	version int64
	cfg     kafkalog.Config
	log     *replicalog.Log
	hw      int64
}

// forget drops the logs peeked on broker id (it starts: its files are
// about to change, and the memory is better freed).
func (c *peekCache) forget(id int32) {
	for k := range c.logs {
		if k.broker == id {
			delete(c.logs, k)
		}
	}
}

// JSON returns the state as indented JSON.
func (s State) JSON() ([]byte, error) { return json.MarshalIndent(s, "", "  ") }

// SegmentCount is one segment of a replica's log as [World.SegmentCounts]
// gives it: what [SegmentInfo] says without listing the offsets.
type SegmentCount = broker.SegmentCount

// PartitionFileSize returns the size of file name (such as
// "00000000000000000000.index") in broker id's directory of the
// partition, as its page cache has it; false when there is none. It reads
// the broker's files in place, unlike [World.BrokerFS], whose copy makes
// the broker's next write to a file copy that file.
func (w *World) PartitionFileSize(id int32, topic string, partition int32, name string) (int64, bool) {
	b, err := w.broker(id)
	if err != nil {
		return 0, false
	}
	st, err := b.FS().Stat(b.FS().PathJoin(LogDir, fmt.Sprintf("%s-%d", topic, partition), name))
	if err != nil {
		return 0, false
	}
	return st.Size(), true
}

// SegmentCounts returns the newest n segments (every one when n <= 0) of
// broker id's running replica of the partition, oldest first, with the
// number of records each holds: [World.Segments] without the offsets,
// for a page that shows a long log's segments at every update.
func (w *World) SegmentCounts(id int32, topic string, partition int32, n int) ([]SegmentCount, error) {
	b, err := w.broker(id)
	if err != nil {
		return nil, err
	}
	return b.SegmentCounts(partitionKey{Topic: topic, Partition: partition}, n)
}

// markerLabel is how the state shows a control record: ⟨COMMIT⟩.
func markerLabel(t kafkalog.ControlRecordType) string { return "⟨" + t.String() + "⟩" }

// transactionsOf returns the last stable offset of a leader's log at high
// watermark hw, its open transactions and those its .txnindex files hold
// as aborted, nil when no transactional producer wrote to it (no producer
// has a transaction open or ended one with a marker).
func transactionsOf(log *kafkalog.Log, hw int64) (*int64, []OpenTransaction, []AbortedTransaction) {
	txnal := false
	for _, p := range log.Producers() {
		txnal = txnal || p.CoordinatorEpoch >= 0 || p.CurrentTxnFirstOffset >= 0
	}
	if !txnal {
		return nil, nil, nil
	}
	lso := log.LastStableOffset(hw)
	var open []OpenTransaction
	for _, t := range log.OngoingTxns() {
		open = append(open, OpenTransaction{ProducerID: t.ProducerID, FirstOffset: t.FirstOffset})
	}
	var aborted []AbortedTransaction
	for _, t := range log.AllAbortedTxns() {
		aborted = append(aborted, AbortedTransaction{ProducerID: t.ProducerID, FirstOffset: t.FirstOffset, LastOffset: t.LastOffset})
	}
	return &lso, open, aborted
}
