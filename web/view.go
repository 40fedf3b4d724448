package web

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kafkalive/kafkalive/cluster"
)

// RecordWindow is how many of the newest records of each replica log an
// update carries: the page draws the tail of the log, not its history.
const RecordWindow = 40

// EventWindow is how many of the newest events an update carries.
const EventWindow = 12

// View is one update of the page: a compact summary of the cluster's state
// with the partition shown in detail. Field names are short because a View
// goes out ten times a second; every value is copied from the cluster's
// state, none is computed by a Kafka rule here.
type View struct {
	// TimeMs is the virtual time of the state; NowMs the live world's time
	// (they differ while the page shows the past).
	TimeMs int64 `json:"t"`
	NowMs  int64 `json:"now"`
	// StartMs is the earliest moment the timeline keeps (the live
	// world's oldest snapshot; cluster.TimelineConfig.KeepMs).
	StartMs int64 `json:"start"`
	// Past is set when the view is a moment of the timeline, not the
	// live world.
	Past bool `json:"past,omitempty"`
	// Mode is "live" or "scenario".
	Mode   string `json:"mode"`
	Paused bool   `json:"paused,omitempty"`
	// Speed is how many times faster than the wall clock the world runs.
	Speed   int64        `json:"speed"`
	Rules   string       `json:"rules"`
	Brokers []BrokerView `json:"brokers"`
	// Partitions are the rows of the partition table's page shown
	// (Focus.Table), at most PageRows of them; Table says which page of
	// how many, and sums up the topics.
	Partitions []PartRow      `json:"parts"`
	Table      TableView      `json:"table"`
	Detail     *DetailView    `json:"detail,omitempty"`
	Producers  []ProducerView `json:"producers"`
	Consumers  []ConsumerView `json:"consumers,omitempty"`
	// Groups are the cluster's consumer groups, in its order, their
	// long lists cut (GroupView): every one with members, and of the
	// others as many as MaxGroupsShown allows in all; GroupsHidden counts
	// those left out.
	Groups       []GroupView `json:"groups"`
	GroupsHidden int         `json:"groups_hidden,omitempty"`
	Events       []string    `json:"events"`
	// Marks are the actions of the world's history, for the timeline.
	Marks []Mark `json:"marks,omitempty"`
	// Learner is the learner's code as the world runs it (exercises/live
	// only): each part's "your code" or "reference", its faults, the events
	// it decided, a guided scenario's verdict.
	Learner  *LearnerView `json:"learner,omitempty"`
	CutLinks [][2]int32   `json:"cut,omitempty"`
	// Controller is the broker whose controller is active (KRaft combined
	// mode), -1 while the voters elect one, 0 for a separate controller
	// node (the scenarios').
	Controller int32 `json:"controller"`
	// Internal is the internal error that stopped the world shown, if
	// any: the page shows it with the commands that replay it.
	Internal *InternalError `json:"internal,omitempty"`
	// Kafka is what real Kafka clients connected to the brokers' listeners
	// do (kafka.go); nil without listeners.
	Kafka *KafkaView `json:"kafka,omitempty"`
	// Journey is the journey of the record the page follows (Focus.Offset
	// and Value), at the moment shown; nil when it follows none.
	Journey *JourneyView `json:"journey,omitempty"`
	// Observed is set on the page of a real cluster watched from outside
	// (Mode ModeObserved): the sample shown, what it could not see, why
	// nothing acts.
	Observed *ObservedView `json:"observed,omitempty"`
}

// BrokerView is one broker.
type BrokerView struct {
	ID    int32  `json:"id"`
	State string `json:"state"`
	// Controller is the controller's view of it: unfenced, fenced or
	// unregistered.
	Controller string `json:"ctl"`
	DiskBytes  int64  `json:"disk"`
	CacheBytes int64  `json:"cache"`
	// DiskCap is the size of its disk, 0 when unlimited.
	DiskCap   int64 `json:"disk_cap,omitempty"`
	InPerSec  int64 `json:"in"`
	OutPerSec int64 `json:"out"`
	// FetchReads, FetchScanned and FetchScannedBytes are its reads for
	// consumers' fetches and the batch headers, and bytes, their scans
	// walked past from the offset index entry (cluster.BrokerInfo).
	FetchReads        int64 `json:"fetch_reads"`
	FetchScanned      int64 `json:"fetch_scanned"`
	FetchScannedBytes int64 `json:"fetch_scanned_bytes"`
	// LastFetch and LastFirstBatch are the offset the latest of those reads
	// asked for and the base offset of the batch it began with (-1: none).
	LastFetch      int64 `json:"last_fetch"`
	LastFirstBatch int64 `json:"last_first_batch"`
	// Uncleanable are the partitions its log cleaner marked uncleanable (a
	// damaged batch: cluster.BrokerInfo.UncleanablePartitions).
	Uncleanable []string `json:"uncleanable,omitempty"`
	// Listener, Rack, LogDir and FreeBytes are an observed broker's
	// (Metadata, DescribeLogDirs; FreeBytes NotObserved before
	// DescribeLogDirs v4); empty on the simulated page.
	Listener  string `json:"listener,omitempty"`
	Rack      string `json:"rack,omitempty"`
	LogDir    string `json:"log_dir,omitempty"`
	FreeBytes int64  `json:"free,omitempty"`
	// V is the broker's version in the update stream (see "The update
	// stream" in the package documentation; 0 outside it).
	V uint64 `json:"v,omitempty"`
}

// PartRow is one line of the partition table.
type PartRow struct {
	Topic     string  `json:"topic"`
	Partition int32   `json:"p"`
	Leader    int32   `json:"leader"`
	Epoch     int32   `json:"epoch"`
	Replicas  []int32 `json:"replicas"`
	ISR       []int32 `json:"isr"`
	// ELR are the eligible leader replicas and LastKnownELR the last
	// known leader (KIP-966, under Kafka 4's rules; omitted when empty).
	ELR          []int32 `json:"elr,omitempty"`
	LastKnownELR []int32 `json:"last_known_elr,omitempty"`
	LogStart     int64   `json:"lso"`
	HW           int64   `json:"hw"`
	LEO          int64   `json:"leo"`
	// Stable is the last stable offset (what read_committed reads up
	// to), set only for a partition a transactional producer wrote to.
	Stable *int64 `json:"stable,omitempty"`
	// MinISR is the topic's min.insync.replicas when the ISR is smaller
	// and the rules hold the high watermark still meanwhile (Kafka 3.7's
	// strict min ISR, KIP-966), 0 otherwise: acks=all writes wait, and
	// the page says why the HW does not move.
	MinISR int `json:"min_isr,omitempty"`
	// Lag is how many records its slowest replica lacks of the leader's
	// log: the leader's log end offset minus that replica's (0 without a
	// leader). Kafka reports it per follower as the replica fetcher's
	// lag (FetcherLagMetrics); a follower behind for longer than
	// replica.lag.time.max.ms leaves the ISR.
	Lag int64 `json:"lag"`
	// V is the row's version in the update stream (0 outside it).
	V uint64 `json:"v,omitempty"`
}

// DetailView is the partition shown in detail: every replica's log tail,
// and the records its producers were told are stored that it no longer
// holds.
type DetailView struct {
	PartRow
	Logs []LogView `json:"logs"`
	// Open are the transactions open on the partition (producer id, first
	// offset): the earliest holds the last stable offset back.
	Open []cluster.OpenTransaction `json:"open_txns,omitempty"`
	// Lost are the newest MaxLostShown records acknowledged to a producer
	// and lost after (cluster.Result.Lost), drawn where they were.
	Lost []LostView `json:"lost,omitempty"`
	// SegmentBytes is the topic's segment.bytes, at which its segments
	// roll (0: not known).
	SegmentBytes int64 `json:"segment_bytes,omitempty"`
}

// LostView is a record acknowledged at Offset and later lost.
type LostView struct {
	Offset   int64  `json:"o"`
	Value    string `json:"v"`
	Producer string `json:"producer"`
}

// MaxLostShown bounds the lost records a view carries.
const MaxLostShown = RecordWindow

// LogView is one replica's log.
type LogView struct {
	Broker int32  `json:"b"`
	Role   string `json:"role"`
	InISR  bool   `json:"inIsr"`
	LEO    int64  `json:"leo"`
	HW     int64  `json:"hw"`
	// First is the offset of the first record of the whole log (the
	// window starts later when the log is long).
	First  int64               `json:"first"`
	Count  int                 `json:"count"`
	Epochs []cluster.EpochInfo `json:"epochs,omitempty"`
	// Segments are the replica's newest segment files.
	Segments []SegmentView `json:"segs,omitempty"`
	Records  []RecordView  `json:"recs"`
	// Bytes is an observed replica's size as its broker's DescribeLogDirs
	// tells it (nil on the simulated page, NotObserved when its broker
	// did not answer): an observer counts a log's bytes and offsets, it
	// never reads its records.
	Bytes *int64 `json:"bytes,omitempty"`
}

// RecordView is one record: offset, key, value, leader epoch, and the
// cluster's marks (only in the page cache; differs from the leader).
type RecordView struct {
	Offset int64  `json:"o"`
	Key    string `json:"k,omitempty"`
	// Value is the value, or a preview of a big one (see preview).
	Value string `json:"v"`
	// Size is a big value's size in bytes, set when Value is a preview.
	Size    int   `json:"size,omitempty"`
	Epoch   int32 `json:"e"`
	Cached  bool  `json:"c,omitempty"`
	Differs bool  `json:"x,omitempty"`
	// Txn is the state of the transaction a transactional record belongs
	// to on this log: "committed" or "aborted" (its producer's COMMIT or
	// ABORT marker follows it), or "open" (no marker yet: read_committed
	// waits at the last stable offset); "" for any other record.
	Txn string `json:"t,omitempty"`
	// Marker is a control record's type, COMMIT or ABORT: a transaction
	// marker, which takes an offset and is never handed to a consumer.
	Marker string `json:"m,omitempty"`
	// PID is the producer id of a transactional record or a marker.
	PID int64 `json:"pid,omitempty"`
}

// ProducerView is one producer: its settings (from the action that added
// it) and its counts.
type ProducerView struct {
	Name  string  `json:"name"`
	Topic string  `json:"topic"`
	Rate  float64 `json:"rate"`
	Acks  string  `json:"acks"`
	// LingerMs is the linger.ms it runs with: as set, or its rule set's
	// default (5 ms under Kafka 4's rules, KIP-1030; 0 under 3.7's).
	LingerMs int64    `json:"linger_ms"`
	Keys     []string `json:"keys,omitempty"`
	Sent     int      `json:"sent"`
	// Acked counts the records acknowledged with an offset, LostAfterAck
	// those of them the partition no longer holds; SentNoAck the acks=0
	// sends, which get no answer.
	Acked        int `json:"acked"`
	LostAfterAck int `json:"lost_after_ack"`
	SentNoAck    int `json:"sent_no_ack"`
	Failed       int `json:"failed"`
	// Last are the outcomes of its newest records, newest last.
	Last []cluster.ResultInfo `json:"last,omitempty"`
	// Copy is set for a consume-transform-produce loop (add-copier).
	Copy *CopyView `json:"copy,omitempty"`
	// V is the producer's version in the update stream (0 outside it).
	V uint64 `json:"v,omitempty"`
}

// CopyView is what a copier reads and commits: its input partition
// ("orders-0"), the group whose offsets its transactions commit, its
// consumer's position (-1 while it reads the committed offset) and how
// many records the transactions it committed copied.
type CopyView struct {
	From     string `json:"from"`
	Group    string `json:"group"`
	Position int64  `json:"position"`
	Copied   int    `json:"copied"`
}

// ConsumerView is one consumer: a simple one (Topic, Partition, Position,
// Read) or a group member (Group, Processed, Duplicates, Status).
type ConsumerView struct {
	Name       string `json:"name"`
	Group      string `json:"group,omitempty"`
	Topic      string `json:"topic,omitempty"`
	Partition  int32  `json:"partition"`
	Position   int64  `json:"position"`
	Read       int    `json:"read"`
	Processed  int    `json:"processed"`
	Duplicates int    `json:"duplicates"`
	Status     string `json:"status,omitempty"`
	// Isolation is "read_committed" for a consumer with that
	// isolation.level ("" for read_uncommitted, the default); for such a
	// simple consumer, Stable and HW are its partition's last stable
	// offset and high watermark, between which it does not read.
	Isolation string `json:"isolation,omitempty"`
	Stable    *int64 `json:"stable,omitempty"`
	HW        *int64 `json:"hw,omitempty"`
}

// Focus names the partition a page shows in detail, the record whose
// journey it follows (Value "": none), and the page of the partition
// table it shows.
type Focus struct {
	Topic     string
	Partition int32
	Offset    int64
	Value     string
	Table     TableQuery
}

// BuildView summarises w's state for the page, with f in detail.
//
// It asks the world for the records it shows only (World.StateWith): the
// newest RecordWindow of each log of the partition in detail.
func BuildView(w *cluster.World, f Focus) View {
	shown := func(topic string, partition int32) bool { return topic == f.Topic && partition == f.Partition }
	st := w.StateWith(recordStateOptions(shown, RecordWindow))
	if !slices.ContainsFunc(st.Partitions, func(p cluster.PartitionInfo) bool { return shown(p.Topic, p.Partition) }) && len(st.Partitions) > 0 {
		// The detail falls back to the first partition.
		first := st.Partitions[0]
		f = Focus{Topic: first.Topic, Partition: first.Partition}
		st = w.StateWith(recordStateOptions(shown, RecordWindow))
	}
	v := View{TimeMs: st.TimeMs, NowMs: st.TimeMs, Mode: "live", Rules: st.Rules, CutLinks: st.Network, Controller: st.ActiveController}
	for _, b := range st.Brokers {
		v.Brokers = append(v.Brokers, BrokerView{ID: b.ID, State: b.State, Controller: b.Controller,
			DiskBytes: b.DiskBytes, CacheBytes: b.CacheBytes, DiskCap: b.DiskCapacity, InPerSec: b.BytesInPerSec, OutPerSec: b.BytesOutPerSec,
			FetchReads: b.FetchReads, FetchScanned: b.FetchScannedBatches, FetchScannedBytes: b.FetchScannedBytes,
			LastFetch: b.LastFetchOffset, LastFirstBatch: b.LastFetchFirstBatch, Uncleanable: b.UncleanablePartitions})
	}
	rows := tableRows(st, minISRs(w), topicMinISR(w))
	v.Partitions, v.Table = table(rows, f.Table)
	for i, p := range st.Partitions {
		if p.Topic == f.Topic && p.Partition == f.Partition {
			v.Detail = detail(w, p, rows[i].PartRow)
		}
	}
	if v.Detail == nil && len(st.Partitions) > 0 {
		v.Detail = detail(w, st.Partitions[0], rows[0].PartRow)
	}
	v.Producers = producerViews(w, st)
	isolation := map[string]string{}
	for _, c := range w.Consumers() {
		if cfg := c.Config(); cfg.IsolationLevel == cluster.ReadCommitted {
			isolation[cfg.Name] = cfg.IsolationLevel
		}
	}
	for _, c := range st.Consumers {
		name := c.Name
		if name == "" {
			name = c.ID
		}
		cv := ConsumerView{Name: name, Group: c.Group, Topic: c.Topic, Partition: c.Partition,
			Position: c.Position, Read: c.Read, Processed: c.Processed, Duplicates: c.Duplicates, Status: c.Status, Isolation: isolation[name]}
		if cv.Isolation != "" && cv.Group == "" {
			i := slices.IndexFunc(st.Partitions, func(p cluster.PartitionInfo) bool { return p.Topic == c.Topic && p.Partition == c.Partition })
			if i >= 0 {
				hw := st.Partitions[i].HighWatermark
				cv.HW, cv.Stable = &hw, st.Partitions[i].LastStableOffset
			}
		}
		v.Consumers = append(v.Consumers, cv)
	}
	groups, hidden := shownGroups(st.Groups)
	v.Groups, v.GroupsHidden = groupViews(groups, rows), hidden
	v.Events = lastEvents(w.Events(), st.TimeMs)
	if v.Detail != nil {
		v.Detail.Lost = lostRecords(w, st, v.Detail.Topic, v.Detail.Partition)
		if f.Value != "" && f.Topic == v.Detail.Topic && f.Partition == v.Detail.Partition {
			v.Journey = journey(w, f.Topic, f.Partition, f.Offset, f.Value)
		}
	}
	return v
}

func partRow(p cluster.PartitionInfo) PartRow {
	return PartRow{Topic: p.Topic, Partition: p.Partition, Leader: p.Leader, Epoch: p.LeaderEpoch,
		Replicas: p.Replicas, ISR: p.ISR, ELR: p.ELR, LastKnownELR: p.LastKnownELR, LogStart: p.LogStartOffset, HW: p.HighWatermark, LEO: p.LogEndOffset, Lag: replicaLag(p), Stable: p.LastStableOffset}
}

// segmentBytes is topic's segment.bytes, 0 for a topic the world does
// not have.
func segmentBytes(w *cluster.World, topic string) int64 {
	st, _ := w.TopicSettings(topic)
	return st.Log.SegmentBytes
}

func detail(w *cluster.World, p cluster.PartitionInfo, row PartRow) *DetailView {
	d := &DetailView{PartRow: row, Open: p.OpenTransactions, SegmentBytes: segmentBytes(w, p.Topic)}
	isr := map[int32]bool{}
	for _, id := range p.ISR {
		isr[id] = true
	}
	for _, l := range p.Logs {
		lv := LogView{Broker: l.Broker, Role: l.Role, InISR: isr[l.Broker], LEO: l.LogEndOffset, HW: l.HighWatermark,
			Count: l.Omitted + len(l.Records), Epochs: l.Epochs, First: -1}
		switch {
		case l.Omitted > 0:
			lv.First = l.FirstOffset
		case len(l.Records) > 0:
			lv.First = l.Records[0].Offset
		}
		lv.Segments = segments(w, l.Broker, p.Topic, p.Partition)
		recs := l.Records
		if len(recs) > RecordWindow {
			recs = recs[len(recs)-RecordWindow:]
		}
		for _, r := range recs {
			rv := RecordView{Offset: r.Offset, Key: recordPreview(r.Key, r.KeySize), Value: recordPreview(r.Value, r.ValueSize), Epoch: r.LeaderEpoch,
				Cached: !r.Durable, Differs: r.DiffersFromLeader}
			if r.ValueSize > PreviewBytes {
				rv.Size = r.ValueSize
			}
			lv.Records = append(lv.Records, rv)
		}
		markTransactions(lv.Records, recs, p.OpenTransactions)
		d.Logs = append(d.Logs, lv)
	}
	return d
}

func producerViews(w *cluster.World, st cluster.State) []ProducerView {
	cfgs := producerConfigs(w)
	rates, lingers, copies := map[string]float64{}, map[string]int64{}, map[string]*CopyView{}
	for _, p := range w.Producers() {
		rates[p.Name()] = p.RatePerSec()
		lingers[p.Name()] = max(0, p.Config().LingerMs)
		if copied, pos, ok := p.CopyCounts(); ok {
			src := p.Config().Copy
			copies[p.Name()] = &CopyView{From: fmt.Sprintf("%s-%d", src.Topic, src.Partition), Group: src.Group, Position: pos, Copied: copied}
		}
	}
	var out []ProducerView
	for _, p := range st.Producers {
		c := cfgs[p.Name]
		acks := c.Acks
		if acks == "" {
			acks = "all"
		}
		pv := ProducerView{Name: p.Name, Topic: c.Topic, Rate: rates[p.Name], Acks: acks, LingerMs: lingers[p.Name], Keys: c.Keys,
			Sent: p.Sent, Acked: p.Acked, LostAfterAck: p.LostAfterAck, SentNoAck: p.SentNoAck, Failed: p.Failed, Copy: copies[p.Name]}
		last := p.Results
		if len(last) > 3 {
			last = last[len(last)-3:]
		}
		for _, r := range last {
			r.Value = preview(r.Value, PreviewBytes)
			pv.Last = append(pv.Last, r)
		}
		out = append(out, pv)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// lastEvents returns the newest events up to time t, newest last, leaving
// out the periodic run actions.
func lastEvents(evs []cluster.Event, t int64) []string {
	var out []string
	for i := len(evs) - 1; i >= 0 && len(out) < EventWindow; i-- {
		e := evs[i]
		if e.TimeMs > t || e.Kind == cluster.EventMessage {
			continue
		}
		if e.Kind == cluster.EventAction && len(e.Text) > 4 && e.Text[:4] == "run " {
			continue
		}
		e.Text = preview(e.Text, TextPreviewBytes)
		out = append(out, eventLine(e))
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// PreviewBytes is the most of a record's key or value, or of a producer
// result's value, an update carries: a bigger one goes as a preview and
// its size, so that a 9 MB value does not make every update 9 MB.
const PreviewBytes = 100

// TextPreviewBytes is the most of an event's or a timeline mark's text an
// update carries (a produce's text holds the value).
const TextPreviewBytes = 200

// preview returns s if it has at most n bytes, else its first n bytes (cut
// at a character's start) followed by "… (SIZE bytes)".
func preview(s string, n int) string { return sizedPreview(s, len(s), n) }

// sizedPreview is preview of a text of size bytes of which s is the
// first (at least n+1 of them when size > n).
func sizedPreview(s string, size, n int) string {
	if size <= n || len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", s[:cut], size)
}

// recordStateOptions are the options of World.StateWith for the page:
// records cut to a preview (one byte more than PreviewBytes, to cut at a
// character's start), so that a 60 MiB value is never read whole.
func recordStateOptions(shown func(string, int32) bool, tail int) cluster.StateOptions {
	return cluster.StateOptions{Records: shown, Tail: tail, Preview: PreviewBytes + 1}
}

// recordPreview is the preview of a key or a value StateWith listed cut
// with its whole size (-1: null, the text as it is: a marker's label).
func recordPreview(s string, size int) string {
	return sizedPreview(s, max(size, len(s)), PreviewBytes)
}

// SegmentView is one segment of a replica: its .log file's name, size and
// records, and the sizes of its .index and .timeindex files as the
// broker's file system holds them (Kafka preallocates the active
// segment's indexes to segment.index.bytes and trims them when the segment
// rolls, as AbstractIndex.resize and LogSegment.onBecomeInactiveSegment do).
type SegmentView struct {
	File string `json:"file"`
	Size int64  `json:"size"`
	// Records counts the segment's records; -1 while the broker is down
	// (it reads its segments back when it starts).
	Records int  `json:"n"`
	Active  bool `json:"active,omitempty"`
	// IndexBytes and TimeIndexBytes are the sizes of the .index and
	// .timeindex files, -1 when there is none.
	IndexBytes     int64 `json:"idx"`
	TimeIndexBytes int64 `json:"tidx"`
}

// MaxSegments is how many of the newest segments of a replica an update
// names.
const MaxSegments = 4

// segments lists a replica's newest segments, oldest first: a running
// replica's as its log gives them, a down broker's as its files are (its
// disk, after a power cut).
func segments(w *cluster.World, broker int32, topic string, partition int32) []SegmentView {
	var out []SegmentView
	if segs, err := w.SegmentCounts(broker, topic, partition, MaxSegments); err == nil {
		// a running replica: its files read in place (a copy of its
		// files at every update would make each append copy its segment)
		size := func(base int64, suffix string) int64 {
			n, ok := w.PartitionFileSize(broker, topic, partition, fmt.Sprintf("%020d%s", base, suffix))
			if !ok {
				return -1
			}
			return n
		}
		for _, s := range segs {
			out = append(out, SegmentView{File: fmt.Sprintf("%020d.log", s.BaseOffset), Size: s.Size, Records: s.Records, Active: s.Active,
				IndexBytes: size(s.BaseOffset, ".index"), TimeIndexBytes: size(s.BaseOffset, ".timeindex")})
		}
		return out
	}
	fsys, err := w.BrokerFS(broker)
	if err != nil {
		return nil
	}
	dir := fsys.PathJoin(cluster.LogDir, fmt.Sprintf("%s-%d", topic, partition))
	size := func(base int64, suffix string) int64 {
		st, err := fsys.Stat(fsys.PathJoin(dir, fmt.Sprintf("%020d%s", base, suffix)))
		if err != nil {
			return -1
		}
		return st.Size()
	}
	names, err := fsys.List(dir)
	if err != nil {
		return nil
	}
	for _, n := range names {
		b, ok := strings.CutSuffix(n, ".log")
		if !ok {
			continue
		}
		base, err := strconv.ParseInt(b, 10, 64)
		if err != nil {
			continue
		}
		out = append(out, SegmentView{File: n, Size: size(base, ".log"), Records: -1,
			IndexBytes: size(base, ".index"), TimeIndexBytes: size(base, ".timeindex")})
	}
	if len(out) > 0 {
		out[len(out)-1].Active = true
	}
	if len(out) > MaxSegments {
		out = out[len(out)-MaxSegments:]
	}
	return out
}

// MaxGroupsShown bounds the consumer groups a view lists besides those
// with members: a script that commits under new group ids by the
// thousand would otherwise make every update of the page as long
// (kafka-consumer-groups --list in the terminal lists them all).
const MaxGroupsShown = 50

// shownGroups returns the groups a view lists, in the cluster's order:
// every one with members, then the others while fewer than
// MaxGroupsShown are listed; and how many it leaves out.
func shownGroups(all []cluster.GroupInfo) ([]cluster.GroupInfo, int) {
	if len(all) <= MaxGroupsShown {
		return all, 0
	}
	room := MaxGroupsShown
	for _, g := range all {
		if len(g.Members) > 0 {
			room--
		}
	}
	var out []cluster.GroupInfo
	for _, g := range all {
		if len(g.Members) > 0 || room > 0 {
			if len(g.Members) == 0 {
				room--
			}
			out = append(out, g)
		}
	}
	return out, len(all) - len(out)
}

// minISRs returns a lookup of each topic's min.insync.replicas under
// rules that hold the high watermark while the ISR is smaller (0 for
// every topic under the others).
func minISRs(w *cluster.World) func(topic string) int {
	if !w.Config().Rules.StrictMinISR() {
		return func(string) int { return 0 }
	}
	return topicMinISR(w)
}

// markTransactions marks, on one replica's log window (views, drawn from
// recs), each transaction marker and each record of a transaction with
// its outcome there: the records of a producer id before its COMMIT or
// ABORT marker are committed or aborted; those after its last marker,
// when the leader has the producer's transaction open, are open. A
// producer id that writes no marker (an idempotent producer) marks
// nothing.
func markTransactions(views []RecordView, recs []cluster.RecordInfo, open []cluster.OpenTransaction) {
	pending := map[int64][]int{}
	for i, r := range recs {
		switch {
		case r.Control:
			outcome, marker := "aborted", "ABORT"
			if strings.Contains(r.Value, "COMMIT") {
				outcome, marker = "committed", "COMMIT"
			}
			views[i].Marker, views[i].PID = marker, r.ProducerID
			for _, j := range pending[r.ProducerID] {
				views[j].Txn, views[j].PID = outcome, r.ProducerID
			}
			delete(pending, r.ProducerID)
		case r.ProducerID >= 0:
			pending[r.ProducerID] = append(pending[r.ProducerID], i)
		}
	}
	for _, t := range open {
		for _, j := range pending[t.ProducerID] {
			if recs[j].Offset >= t.FirstOffset {
				views[j].Txn, views[j].PID = "open", t.ProducerID
			}
		}
	}
}
