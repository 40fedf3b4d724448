package web

import "github.com/kafkalive/kafkalive/cluster"

// NotObserved is the value of a figure the page of an observed cluster
// was not told (a broker's page cache, its traffic; a follower's high
// watermark): the page prints it as "not observed", never as a number.
const NotObserved = -1

// ModeObserved is View.Mode on the page of a real cluster watched from
// outside (kafkalive observe --addr): the same panels as the simulation's,
// filled from the observer's samples, read-only.
const ModeObserved = "observed"

// ObservedView is what the page of an observed cluster says besides the
// panels: which sample it shows and what that poll cost, what the cluster
// did not answer, what no observer can see, the metadata quorum, the
// topic configs of the partition shown, and why nothing on the page acts.
// The panels themselves are the View's: brokers, partitions, groups,
// events, the partition in detail.
type ObservedView struct {
	ClusterID string `json:"cluster_id"`
	// Seq is the sample shown; First and Last the samples the timeline
	// keeps; AtMs the wall clock of the sample shown (Unix milliseconds).
	Seq   uint64 `json:"seq"`
	First uint64 `json:"first"`
	Last  uint64 `json:"last"`
	AtMs  int64  `json:"at"`
	// Requests counts the Kafka requests the poll wrote, TookMs how long
	// it ran.
	Requests int     `json:"requests"`
	TookMs   float64 `json:"took_ms"`
	// Unanswered are what the poll asked and got no answer to, one line
	// each.
	Unanswered []string `json:"unanswered,omitempty"`
	// NotObservable are what no observer outside the brokers can see.
	NotObservable []string `json:"not_observable"`
	// ELRObserved says whether the cluster told the partitions' eligible
	// leader replicas (DescribeTopicPartitions, Kafka 3.7 on): without it
	// an empty ELR is not observed, not known to be empty.
	ELRObserved bool `json:"elr_observed"`
	// ReadOnly says why nothing on the page acts, and what the terminal
	// runs.
	ReadOnly string `json:"read_only"`
	// Quorum is the metadata quorum (nil: not observed).
	Quorum *QuorumView `json:"quorum,omitempty"`
	// Configs are the configs of the topic shown in detail that are not
	// the brokers' defaults (nil: not observed).
	Configs []ConfigView `json:"configs,omitempty"`
	// Producers are the producers DescribeProducers told of the partition
	// shown, and ProducersSeq the sample that asked (0: not observed; the
	// observer asks a bounded number of partitions a poll, in turn).
	Producers    []ActiveProducerView `json:"producers,omitempty"`
	ProducersSeq uint64               `json:"producers_seq,omitempty"`
}

// QuorumView is the metadata quorum as its leader describes it
// (DescribeQuorum).
type QuorumView struct {
	LeaderID      int32              `json:"leader_id"`
	LeaderEpoch   int32              `json:"leader_epoch"`
	HighWatermark int64              `json:"high_watermark"`
	Voters        []QuorumMemberView `json:"voters"`
	Observers     []QuorumMemberView `json:"observers,omitempty"`
}

// QuorumMemberView is one replica of the metadata log and its log end
// offset (NotObserved: the leader does not know).
type QuorumMemberView struct {
	ID           int32 `json:"id"`
	LogEndOffset int64 `json:"leo"`
}

// ConfigView is one config of a topic: its value and where it comes from
// (DYNAMIC_TOPIC_CONFIG, STATIC_BROKER_CONFIG...).
type ConfigView struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// ActiveProducerView is one producer with state on a partition, as
// DescribeProducers tells it: its id and epoch, the sequence of its last
// batch and that batch's timestamp, and the first offset of its open
// transaction (-1: none).
type ActiveProducerView struct {
	ProducerID            int64 `json:"producer_id"`
	ProducerEpoch         int32 `json:"producer_epoch"`
	LastSequence          int32 `json:"last_sequence"`
	LastTimestamp         int64 `json:"last_timestamp"`
	CoordinatorEpoch      int32 `json:"coordinator_epoch"`
	CurrentTxnStartOffset int64 `json:"current_txn_start_offset"`
}

// TableRow is one partition of the partition table with what its filters
// need: its topic's min.insync.replicas, and whether its leader is a live
// broker (listed and not fenced).
type TableRow struct {
	PartRow
	MinISR     int
	LeaderLive bool
}

// TableOf answers q over every partition's row, as the live page's table
// does: the rows of the page shown and the table's figures. A page fed
// from elsewhere than a World (an observed cluster) builds its table with
// it.
func TableOf(rows []TableRow, q TableQuery) ([]PartRow, TableView) {
	in := make([]tableRow, len(rows))
	for i, r := range rows {
		in[i] = tableRow{PartRow: r.PartRow, minISR: r.MinISR, leaderLive: r.LeaderLive}
	}
	return table(in, q)
}

// GroupViewOf is g as the page shows it, its long lists cut as the live
// page cuts them; logStart gives a partition's log start offset (false:
// unknown).
func GroupViewOf(g cluster.GroupInfo, logStart func(topic string, partition int32) (int64, bool)) GroupView {
	return groupView(g, logStart)
}

// Frames is one page's end of the update stream for a source that
// streams its updates itself (a benchmark of a connected page; [Watch] is
// the stream of both transports): the frames it sent, and the update the
// last one made.
type Frames struct{ fr frames }

// Next returns the frame that brings the page from the last update sent
// to e (the whole update first, then patches); false when nothing it
// shows changed.
func (f *Frames) Next(e *EncodedUpdate) ([]byte, bool, error) { return f.fr.next(e) }
