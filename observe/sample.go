package observe

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"time"
)

// NotObserved is the value of an offset, a size or an id the cluster did
// not answer in a poll (the broker that holds it was down, or the cluster
// does not serve the API that tells it). It is never a guess.
const NotObserved = -1

// Sample is what one poll saw of the cluster. Every slice and pointer in
// it is immutable once the poll is done: samples share what did not
// change between them (see [Timeline]).
type Sample struct {
	// Seq numbers the samples from 1.
	Seq uint64 `json:"seq"`
	// At is when the poll began (the observer's wall clock) and Took how
	// long it ran.
	At   time.Time     `json:"at"`
	Took time.Duration `json:"took_ns"`
	// Requests counts the Kafka requests the poll wrote to the brokers.
	Requests int `json:"requests"`
	// ClusterID is the cluster's id, ControllerID the broker the cluster
	// names its controller (-1: none named).
	ClusterID    string `json:"cluster_id"`
	ControllerID int32  `json:"controller_id"`
	// Brokers are every broker seen since the observer started, by id:
	// those the cluster lists, and those it listed before and no longer
	// does (Down).
	Brokers []Broker `json:"brokers"`
	// TopicsListed is set when the cluster answered Metadata: Topics and
	// Partitions are then the cluster's (else unknown, and empty);
	// GroupsListed when every broker answered ListGroups (else Groups are
	// those that were listed).
	TopicsListed bool `json:"topics_listed"`
	GroupsListed bool `json:"groups_listed"`
	// ELRListed is set when the cluster answered DescribeTopicPartitions
	// for every topic: the partitions' ELR and LastKnownELR are then
	// observed (else not, and empty).
	ELRListed bool `json:"elr_listed"`
	// Topics are the topics, by name; Partitions their partitions, by
	// topic then partition.
	Topics     []*Topic     `json:"topics"`
	Partitions []*Partition `json:"partitions"`
	// Groups are the consumer groups the coordinators list, by name.
	Groups []*Group `json:"groups"`
	// Quorum is the metadata quorum, nil when the cluster did not answer
	// DescribeQuorum (a cluster that does not serve it, as franz-go's
	// kfake, or no active controller).
	Quorum *Quorum `json:"quorum"`
	// Unanswered says, one line each, what this poll asked and got no
	// answer to.
	Unanswered []string `json:"unanswered,omitempty"`
	// size is the bytes the sample holds of its own (share.go).
	size int64
}

// BrokerState is what the observer saw of a broker.
type BrokerState string

// The states of a broker, as seen from outside.
const (
	// BrokerUp: the cluster lists it alive and it answered.
	BrokerUp BrokerState = "up"
	// BrokerUnreachable: the cluster lists it alive but the observer's
	// requests to it failed (its process may have just died: the
	// controller fences it when its session times out).
	BrokerUnreachable BrokerState = "unreachable"
	// BrokerFenced: the cluster lists it as registered and fenced
	// (DescribeCluster v2, KIP-1073).
	BrokerFenced BrokerState = "fenced"
	// BrokerDown: the cluster no longer lists it.
	BrokerDown BrokerState = "down"
)

// Broker is one broker.
type Broker struct {
	ID    int32       `json:"id"`
	Host  string      `json:"host"`
	Port  int32       `json:"port"`
	Rack  string      `json:"rack,omitempty"`
	State BrokerState `json:"state"`
	// LogDir is its log directory as DescribeLogDirs names it ("" not
	// observed), TotalBytes and UsableBytes its volume's size and free
	// space (NotObserved before DescribeLogDirs v4).
	LogDir      string `json:"log_dir"`
	TotalBytes  int64  `json:"total_bytes"`
	UsableBytes int64  `json:"usable_bytes"`
}

// Topic is one topic.
type Topic struct {
	Name     string  `json:"name"`
	ID       TopicID `json:"id"`
	Internal bool    `json:"internal,omitempty"`
	// Configs are its configs as DescribeConfigs answers them, by name
	// (nil: not observed).
	Configs []TopicConfig `json:"configs"`
}

// TopicConfig is one config of a topic: its value, where it comes from
// (kmsg.ConfigSource's names: DYNAMIC_TOPIC_CONFIG, DEFAULT_CONFIG...)
// and its synonyms, most specific first.
type TopicConfig struct {
	Name      string    `json:"name"`
	Value     string    `json:"value"`
	Source    string    `json:"source"`
	Sensitive bool      `json:"sensitive,omitempty"`
	Synonyms  []Synonym `json:"synonyms,omitempty"`
}

// Synonym is one of a config's synonyms.
type Synonym struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// Partition is one partition: the cluster's metadata and each replica's
// log as far as the cluster tells it.
type Partition struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	// Leader is -1 while the partition has none; LeaderEpoch is the
	// metadata's.
	Leader      int32   `json:"leader"`
	LeaderEpoch int32   `json:"leader_epoch"`
	Replicas    []int32 `json:"replicas"`
	ISR         []int32 `json:"isr"`
	// Offline are the replicas whose broker the cluster does not list.
	Offline []int32 `json:"offline,omitempty"`
	// ErrorCode is the metadata's error for the partition (5,
	// LEADER_NOT_AVAILABLE, while it has no leader).
	ErrorCode int16 `json:"error_code,omitempty"`
	// LogStartOffset, HighWatermark and LastStableOffset are the
	// leader's (ListOffsets EARLIEST, LATEST read_uncommitted and
	// read_committed), NotObserved when it did not answer.
	LogStartOffset   int64 `json:"log_start_offset"`
	HighWatermark    int64 `json:"high_watermark"`
	LastStableOffset int64 `json:"last_stable_offset"`
	// ELR are the eligible leader replicas and LastKnownELR the last
	// known leader (KIP-966; DescribeTopicPartitions), nil when empty or
	// not observed (Sample.ELRListed says which).
	ELR          []int32 `json:"elr,omitempty"`
	LastKnownELR []int32 `json:"last_known_elr,omitempty"`
	// Producers are the producers with state on the partition
	// (DescribeProducers at its leader), as of the poll ProducersSeq (0:
	// never asked). A poll asks a bounded number of partitions
	// (MaxProducerPartitions a broker), in turn; the others keep what the
	// poll that last asked them was told, with its number.
	Producers    []Producer `json:"producers,omitempty"`
	ProducersSeq uint64     `json:"producers_seq,omitempty"`
	// Logs are the replicas' logs, in Replicas' order.
	Logs []ReplicaLog `json:"logs"`
}

// Producer is one producer with state on a partition, as its leader's
// DescribeProducers answers: its id and epoch, its last batch's sequence
// and timestamp, the epoch of the transaction coordinator that last wrote
// its marker, and the first offset of its open transaction (-1: none).
type Producer struct {
	ID                    int64 `json:"producer_id"`
	Epoch                 int32 `json:"producer_epoch"`
	LastSequence          int32 `json:"last_sequence"`
	LastTimestamp         int64 `json:"last_timestamp"`
	CoordinatorEpoch      int32 `json:"coordinator_epoch"`
	CurrentTxnStartOffset int64 `json:"current_txn_start_offset"`
}

// ReplicaLog is one replica's log as its broker describes it.
type ReplicaLog struct {
	Broker int32 `json:"broker"`
	// LogEndOffset is the replica's own log end offset (ListOffsets
	// LATEST with the debugging replica id, -2, at its broker); Size the
	// bytes of its segments and OffsetLag max(0, HW − LEO) of that
	// replica (DescribeLogDirs). NotObserved when its broker did not
	// answer. Records between a follower's high watermark and its log end
	// are counted, never read.
	LogEndOffset int64 `json:"log_end_offset"`
	Size         int64 `json:"size"`
	OffsetLag    int64 `json:"offset_lag"`
}

// Group is one consumer group.
type Group struct {
	Name string `json:"name"`
	// Coordinator is the broker that answered for it.
	Coordinator int32 `json:"coordinator"`
	// State is the coordinator's (Empty, PreparingRebalance,
	// CompletingRebalance, Stable, Dead); ProtocolType "consumer" for
	// consumers; Protocol the chosen assignor. A group's generation is not
	// told to observers (DescribeGroups has none).
	State        string `json:"state"`
	ProtocolType string `json:"protocol_type"`
	Protocol     string `json:"protocol"`
	// Members are its members, by member id.
	Members []Member `json:"members"`
	// Offsets are its committed offsets with the partition's high
	// watermark and the lag, by topic then partition.
	Offsets []GroupOffset `json:"offsets"`
}

// Member is one member of a group.
type Member struct {
	ID         string `json:"member_id"`
	InstanceID string `json:"group_instance_id,omitempty"`
	ClientID   string `json:"client_id"`
	Host       string `json:"client_host"`
	// Assignment is what the group's leader assigned it, for a consumer
	// group.
	Assignment []TopicPartition `json:"assignment"`
}

// TopicPartition names a partition.
type TopicPartition struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
}

// GroupOffset is a group's committed offset of one partition.
type GroupOffset struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	// Committed is the committed offset, LogEndOffset the partition's
	// high watermark in the same poll (NotObserved if its leader did not
	// answer), Lag their difference (NotObserved if either is).
	Committed    int64 `json:"committed"`
	LogEndOffset int64 `json:"log_end_offset"`
	Lag          int64 `json:"lag"`
	// Member is the member the partition is assigned to, "" if none.
	Member string `json:"member_id,omitempty"`
}

// Quorum is the metadata quorum as its leader describes it.
type Quorum struct {
	LeaderID      int32           `json:"leader_id"`
	LeaderEpoch   int32           `json:"leader_epoch"`
	HighWatermark int64           `json:"high_watermark"`
	Voters        []QuorumReplica `json:"voters"`
	Observers     []QuorumReplica `json:"observers"`
}

// QuorumReplica is one replica of the metadata log: its log end offset
// and when it last fetched and caught up (the cluster's clock, in
// milliseconds; NotObserved when the leader does not know).
type QuorumReplica struct {
	ID                    int32 `json:"replica_id"`
	LogEndOffset          int64 `json:"log_end_offset"`
	LastFetchTimestamp    int64 `json:"last_fetch_timestamp"`
	LastCaughtUpTimestamp int64 `json:"last_caught_up_timestamp"`
}

// TopicID is a topic's id, printed as Kafka prints a Uuid: unpadded
// base64url (kafka-topics --describe's TopicId).
type TopicID [16]byte

// String returns the id as Kafka prints it.
func (id TopicID) String() string { return base64.RawURLEncoding.EncodeToString(id[:]) }

// MarshalText implements encoding.TextMarshaler.
func (id TopicID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (id *TopicID) UnmarshalText(b []byte) error {
	raw, err := base64.RawURLEncoding.DecodeString(string(b))
	if err != nil || len(raw) != len(id) {
		return fmt.Errorf("observe: topic id %q is not 16 bytes of unpadded base64url", b)
	}
	copy(id[:], raw)
	return nil
}

// Unobservable lists what no observer outside the brokers can see, which
// the observer marks as not observed rather than guesses.
var Unobservable = []string{
	"the page cache: which of a broker's bytes are only in memory (a crash keeps them, a power cut loses them)",
	"the contents of segments: records are counted by offsets, never read (an observer sends no Fetch)",
	"the records between a follower's high watermark and its log end: their offsets are seen, not their contents",
	"each follower's high watermark: only the leader's is answered",
	"a group's generation and a member's fetch position",
	"anything before the observer started: its timeline begins with its first poll",
}

// Partition returns the sample's partition topic-partition, nil if none.
func (s *Sample) Partition(topic string, partition int32) *Partition {
	i, ok := slices.BinarySearchFunc(s.Partitions, TopicPartition{topic, partition}, func(p *Partition, k TopicPartition) int {
		if c := strings.Compare(p.Topic, k.Topic); c != 0 {
			return c
		}
		return cmp.Compare(p.Partition, k.Partition)
	})
	if !ok {
		return nil
	}
	return s.Partitions[i]
}

// Broker returns the sample's broker id, false if none.
func (s *Sample) Broker(id int32) (Broker, bool) {
	for _, b := range s.Brokers {
		if b.ID == id {
			return b, true
		}
	}
	return Broker{}, false
}
