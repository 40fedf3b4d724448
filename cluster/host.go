package cluster

import (
	"math/rand/v2"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/client"
	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/kafkaerr"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// host is the world as its machines see it: the clock, the network, the
// recorder, and what they may ask of each other (each machine's Env is a
// part of it). Its methods route; the rules live in the machines.
type host World

// env returns the world as its machines see it.
func (w *World) env() *host { return (*host)(w) }

func (h *host) w() *World { return (*World)(h) }

// Now implements the machines' Env: Kafka's clock ([World.ClockMs]).
func (h *host) Now() int64 { return h.clock }

// Send implements the machines' Env: a message onto the network.
func (h *host) Send(e netsim.Envelope) { h.w().send(e) }

// Record implements event.Recorder.
func (h *host) Record(kind event.Kind, broker int32, tp *kafkalog.TopicPartition, format string, args ...any) {
	h.w().record(kind, broker, tp, format, args...)
}

// MarkLast implements event.Recorder.
func (h *host) MarkLast(impl string) { h.w().markLast(impl) }

// BrokerRunning implements controller.Env.
func (h *host) BrokerRunning(id int32) bool { return h.brokers[id-1].State() == BrokerRunning }

// BrokerState implements controller.Env.
func (h *host) BrokerState(id int32) string { return h.brokers[id-1].State().String() }

// Clock implements broker.Env: Kafka's clock, which the logs read.
func (h *host) Clock() *int64 { return &h.clock }

// Rand implements broker.Env and client.Env.
func (h *host) Rand() *rand.Rand { return h.rnd }

// DropFrom implements broker.Env.
func (h *host) DropFrom(id int32) { h.net.Drop([]int32{id}, nil) }

// OpenRequest implements broker.Env.
func (h *host) OpenRequest(leader, follower int32, k partitionKey, corr int64, inc int) {
	h.net.OpenRequest(leader, follower, k, corr, inc)
}

// CloseRequest implements broker.Env.
func (h *host) CloseRequest(leader, follower int32, k partitionKey, corr int64) int {
	return h.net.CloseRequest(leader, follower, k, corr)
}

// Topics implements broker.Env and client.Env.
func (h *host) Topics() []metadata.Topic { return h.ctl.Topics() }

// Settings implements broker.Env.
func (h *host) Settings(topic string) topicconfig.Settings { return h.ctl.Settings(topic) }

// Leader implements broker.Env.
func (h *host) Leader(k partitionKey) int32 { return h.ctl.Leader(k) }

// BrokerEpoch is the controller's registration of broker id's incarnation inc.
func (h *host) BrokerEpoch(id int32, inc int) (int64, bool) {
	r := h.ctl.Registration(id)
	return r.Epoch, r.Registered && r.Incarnation == inc
}

// InternalError implements broker.Env.
func (h *host) InternalError(id int32, err error) { h.w().internalError(h.brokers[id-1], err) }

// RequestFailed implements broker.Env: consumer client's process
// incarnation inc learns that its request r to broker id failed.
func (h *host) RequestFailed(id int32, client string, inc int, r group.Request) {
	if c := h.w().consumer(client); c != nil {
		c.RequestFailed(h, inc, id, r)
	}
}

// ExternalGroupAnswered implements broker.Env.
func (h *host) ExternalGroupAnswered(id int32, o group.Outgoing) bool {
	return h.reqs.GroupAnswered(h.brokers[id-1], o)
}

// UnloadResignedExternal implements broker.Env.
func (h *host) UnloadResignedExternal(id int32) { h.reqs.UnloadResigned(h, h.brokers[id-1]) }

// PartitionCount implements client.Env.
func (h *host) PartitionCount(topic string) (int32, bool) {
	t := h.ctl.Topic(topic)
	if t == nil {
		return 0, false
	}
	return int32(len(t.Assignment)), true
}

// LogConfig implements client.Env.
func (h *host) LogConfig(topic string) kafkalog.Config { return h.ctl.Settings(topic).Log }

// PartitionLeader implements client.Env.
func (h *host) PartitionLeader(topic string, partition int32) int32 {
	return h.ctl.Leader(partitionKey{Topic: topic, Partition: partition})
}

// LeaderLog implements client.Env.
func (h *host) LeaderLog(tp kafkalog.TopicPartition) client.LeaderLog {
	b, s := h.w().consumersLeader(tp)
	if s == nil {
		return nil
	}
	return leaderLog{h: h, b: b, s: s}
}

// Cut implements client.Env.
func (h *host) Cut(a, b int32) bool { return h.net.Cut(a, b) }

// Coordinator implements client.Env and broker.APIEnv.
func (h *host) Coordinator(group string) (int32, bool) {
	if b := h.w().coordinatorOf(group); b != nil {
		return b.ID(), true
	}
	return 0, false
}

// TxnCoordinator implements broker.APIEnv: the running broker whose
// transaction coordinator coordinates transactional id id.
func (h *host) TxnCoordinator(id string) (int32, bool) {
	leader := h.ctl.Leader(metadata.TxnStatePartition(id, h.cfg.TransactionStateLogNumPartitions))
	if leader == replica.NoLeader || !h.brokers[leader-1].CoordinatesTxn(id) {
		return 0, false
	}
	return leader, true
}

// TransactionVersion implements client.Env: the cluster's finalized
// transaction.version.
func (h *host) TransactionVersion() int16 { return h.cfg.transactionVersion() }

// EnsureTxnStateTopic implements broker.APIEnv.
func (h *host) EnsureTxnStateTopic() error { return h.w().ensureTxnStateTopic() }

// AllocateProducerID implements broker.Env: the cluster's producer ids
// (the external clients' requests' numbering keeps them).
func (h *host) AllocateProducerID() int64 { return h.reqs.AllocateProducerID() }

// BrokerGone implements broker.Env.
func (h *host) BrokerGone(id int32, inc int) bool {
	b := h.brokers[id-1]
	return b.State() != BrokerRunning || b.Incarnation() != inc
}

// BrokerIncarnation implements broker.Env.
func (h *host) BrokerIncarnation(id int32) int { return h.brokers[id-1].Incarnation() }

// EnsureOffsetsTopic implements client.Env and broker.APIEnv.
func (h *host) EnsureOffsetsTopic() error { return h.w().ensureOffsetsTopic() }

// CommittedOffset implements client.Env: the group's coordinator answers.
func (h *host) CommittedOffset(groupID string, tp kafkalog.TopicPartition) (int64, bool, int16) {
	b := h.w().coordinatorOf(groupID)
	if b == nil {
		return -1, false, kafkaerr.CoordinatorNotAvailable
	}
	return b.StableCommitted(h, groupID, group.TopicPartition(tp))
}

// MarkProcessed implements client.Env.
func (h *host) MarkProcessed(group string, tp kafkalog.TopicPartition, offset int64) bool {
	return h.progress.Mark(group, tp, offset)
}

// leaderLog is a leader replica as a consumer reads it (client.LeaderLog):
// broker b's partition s.
type leaderLog struct {
	h *host
	b *broker.Broker
	s *broker.Partition
}

func (l leaderLog) Broker() int32         { return l.b.ID() }
func (l leaderLog) HighWatermark() int64  { return l.s.Node.Progress().HighWatermark }
func (l leaderLog) LogStartOffset() int64 { return l.s.Log.LogStartOffset() }
func (l leaderLog) LogEndOffset() int64   { return l.s.Log.LogEndOffset() }
func (l leaderLog) LastStableOffset() int64 {
	return l.s.Log.Kafka().LastStableOffset(l.HighWatermark())
}
func (l leaderLog) AbortedTxns(pos, limit int64) []kafkalog.AbortedTxn {
	return l.s.Log.Kafka().CollectAbortedTxns(pos, limit)
}
func (l leaderLog) DamageFrom(pos int64) *replicalog.Damage {
	return l.s.Log.DamageFrom(pos)
}
func (l leaderLog) Fetch(pos int64, limit int) ([]replica.Entry, bool, bool) {
	return l.b.FetchEntries(l.h, l.s, pos, limit)
}
func (l leaderLog) NextOffset(pos int64) (int64, bool) {
	m := l.s.Log.Mirror()
	if i := l.s.Log.Index(pos); i < m.Len() {
		return m.At(i).Offset, true
	}
	return 0, false
}
func (l leaderLog) Count(first, last int64) int {
	n := 0
	for _, e := range l.s.Log.Mirror().From(l.s.Log.Index(first)) {
		if e.Offset > last {
			break
		}
		n++
	}
	return n
}

// BecameLeader implements broker.Env.
func (h *host) BecameLeader(id int32, k partitionKey, epoch int32, leo int64) {
	h.w().markLostAfterAck(id, k, epoch, leo)
}

// Alive implements broker.APIEnv.
func (h *host) Alive() []int32 { return h.ctl.Alive() }

// Partition implements broker.APIEnv.
func (h *host) Partition(k partitionKey) (replica.LeaderAndISR, bool) { return h.ctl.Partition(k) }

// CheckCreateTopic implements broker.APIEnv.
func (h *host) CheckCreateTopic(t kmsg.CreateTopicsRequestTopic) (TopicSpec, int16, string) {
	return h.ctl.CheckCreateTopic(t)
}

// CreateTopic implements broker.APIEnv.
func (h *host) CreateTopic(spec TopicSpec) error { return h.w().createTopic(spec) }

// CheckCreatePartitions implements broker.APIEnv.
func (h *host) CheckCreatePartitions(t kmsg.CreatePartitionsRequestTopic) ([][]int32, int16, string) {
	return h.ctl.CheckCreatePartitions(t)
}

// AddPartitions implements broker.APIEnv.
func (h *host) AddPartitions(topic string, replicas [][]int32, by string) error {
	return h.w().addAssigned(h.ctl.Topic(topic), replicas, by)
}

// TopicInUse implements broker.APIEnv.
func (h *host) TopicInUse(topic string) bool { return h.w().topicInUse(topic) }

// DeleteTopic implements broker.APIEnv.
func (h *host) DeleteTopic(topic, by string) { h.w().deleteTopic(topic, by) }

// CheckAlterConfigs implements broker.APIEnv.
func (h *host) CheckAlterConfigs(topic string, ops []ConfigOp, replace bool) (TopicSpec, int16, string) {
	return h.ctl.CheckAlterConfigs(topic, ops, replace)
}

// AlterConfigs implements broker.APIEnv.
func (h *host) AlterConfigs(topic string, spec TopicSpec, by string) {
	h.w().alterTopicConfigs(topic, spec, by)
}

// Fenced implements broker.APIEnv.
func (h *host) Fenced() []int32 { return h.ctl.Fenced() }

// DescribeQuorum implements broker.APIEnv.
func (h *host) DescribeQuorum() (metadata.QuorumDescription, bool) {
	return h.ctl.DescribeQuorum(h)
}
