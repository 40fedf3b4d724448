package cluster

import (
	"math/rand/v2"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
	"github.com/kafkalive/kafkalive/cluster/internal/topicconfig"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// host is the world as its machines see it: the clock, the network, the
// recorder, and what they may ask of each other (each machine's Env is a
// part of it). Its methods route; the rules live in the machines.
type host World

// env returns the world as its machines see it.
func (w *World) env() *host { return (*host)(w) }

func (h *host) w() *World { return (*World)(h) }

// Now implements the machines' Env: the world's time.
func (h *host) Now() int64 { return h.now }

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

// Clock implements broker.Env.
func (h *host) Clock() *int64 { return &h.now }

// Rand implements broker.Env.
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

// Topics implements broker.Env.
func (h *host) Topics() []metadata.Topic { return h.ctl.Topics() }

// Settings implements broker.Env.
func (h *host) Settings(topic string) topicconfig.Settings { return h.ctl.Settings(topic) }

// Leader implements broker.Env.
func (h *host) Leader(k partitionKey) int32 { return h.ctl.Leader(k) }

// InternalError implements broker.Env.
func (h *host) InternalError(id int32, err error) { h.w().internalError(h.brokers[id-1], err) }

// RequestFailed implements broker.Env.
func (h *host) RequestFailed(id int32, client string, inc int, r group.Request) {
	h.w().requestFailed(h.brokers[id-1], client, inc, r)
}

// ExternalGroupAnswered implements broker.Env.
func (h *host) ExternalGroupAnswered(id int32, o group.Outgoing) bool {
	return h.w().extGroupAnswered(h.brokers[id-1], o)
}

// UnloadResignedExternal implements broker.Env.
func (h *host) UnloadResignedExternal(id int32) { h.w().unloadResignedExternal(h.brokers[id-1]) }
