package cluster

import (
	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
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
func (h *host) BrokerRunning(id int32) bool { return h.brokers[id-1].state == BrokerRunning }

// BrokerState implements controller.Env.
func (h *host) BrokerState(id int32) string { return h.brokers[id-1].state.String() }
