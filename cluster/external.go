package cluster

import (
	"fmt"

	"github.com/kafkalive/kafkalive/cluster/internal/broker"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
)

// This file is the world's side of real Kafka clients (kcat, franz-go, the
// Java client...) talking to its brokers: the requests come in as
// [ActExternal] actions holding their bytes, so that the timeline replays
// them; the answers go out through [World.ExternalAnswers]. The brokers
// serve them, one file per Kafka API (cluster/internal/broker's api_*.go),
// and keep the requests that wait (broker.Requests). The world does no
// I/O: the listeners, the framing and the connections are the wire
// layer's (package kafkawire, driven by package web).

// ExternalNodeBase is added to an external client's number to make its
// node id on the world's network: [World.Partition] with a broker and
// ExternalNode(n) cuts the link between client n and that broker (the
// page's "cut client N").
const ExternalNodeBase = netsim.ExternalBase

// ExternalNode returns the network node id of external client n (1..).
func ExternalNode(n int32) int32 { return netsim.ExternalNode(n) }

// ExternalProducerIDBase is the first producer id InitProducerId hands an
// external client (Kafka's controller hands out blocks from 0; the
// world's own idempotent producers use their node ids, 101..).
const ExternalProducerIDBase = broker.ProducerIDBase

// ErrExternal wraps the refusal of an external request the world cannot
// take (an unknown api key, a body that does not parse); the wire layer
// closes the connection, as a Kafka broker does on a request it cannot
// read.
var ErrExternal = broker.ErrRequest

// ExternalRequest is one request of a Kafka client outside the world, as
// its bytes came over the wire (without the size and the request header):
// its client's number (1..; its node id is [ExternalNode]), client.id and
// address, the broker the connection is to, the header's api key and
// version, and the body encoded at that version.
type ExternalRequest = broker.Request

// ExternalAnswer is the world's answer to an external request: the
// request's ID, as [World.External] returned it, and the response (of the
// request's key). For a Produce with acks=0 it is still given: the wire
// layer sends nothing but closes the connection if a partition failed
// (KafkaApis.handleProduceRequest). The brokers in a MetadataResponse have
// no Host and Port: the wire layer knows its listeners
// (advertised.listeners).
type ExternalAnswer = broker.Answer

// ExternalClientExpiryMs is how long the brokers remember an external
// client that sends nothing and waits for nothing: an hour of the world's
// time, as Kafka 3.7 keeps a client.id's quota sensors
// (ClientQuotaManager.InactiveSensorExpirationTimeSeconds); they look for
// such clients every 30 s (Metrics.ExpireSensorTask) and remember at most
// [MaxExternalClients] at once, forgetting the least recently active
// first.
const ExternalClientExpiryMs = broker.ClientExpiryMs

// MaxExternalClients bounds the external clients the brokers remember at
// once (the simulation's own bound).
const MaxExternalClients = broker.MaxClients

// ExternalClient is what the brokers saw of one external client: its
// number, the client.id and address of its latest request, its requests
// by api name, the acks and producer id of its latest produce, the records
// its produces sent, had acknowledged (acks=1 or all), had refused, sent
// with acks=0, and lost after their acknowledgement (a replica that lacked
// them became leader), the record bytes its fetches returned, its latest
// error and the time of its latest request.
type ExternalClient = broker.Client

// MaxExternalAnswers bounds the answers kept for [World.ExternalAnswers];
// older ones fall off (a world nobody reads from, as a replayed one).
const MaxExternalAnswers = broker.MaxAnswers

// PreparedExternal is the work on an external request that depends on its
// bytes alone: its body decoded and, for a Produce, each partition's record
// batch checked (CRC, lengths) and its records decoded. [PrepareExternal]
// does it on the caller's goroutine, before the world's lock is taken (the
// wire layer prepares each request on its connection's goroutine), and
// [World.ExternalPrepared] uses it. The world's answer is the same with or
// without it: the world does whatever was not prepared, and a replay of the
// timeline prepares nothing.
type PreparedExternal = broker.Prepared

// Preparer prepares external requests ([PrepareExternal]) with buffers it
// reuses from one request to the next: a client batch's decompressed
// records and the one record it reads at a time. Its zero value is ready;
// one Preparer must not be used by two goroutines at once. With HandOver
// each body it prepares is handed to the world for good: the world keeps a
// Produce's batches where they lie in the body (the leader stamps offsets
// and its epoch in place, as Kafka 3.7's LogValidator does in its request
// buffer), and the caller must then neither change nor reuse the body.
type Preparer = broker.Preparer

// PrepareExternal prepares x for [World.ExternalPrepared]. x.Body must not
// change afterwards. A caller that prepares many requests on one goroutine
// uses a [Preparer], which keeps its decoding buffers between them.
func PrepareExternal(x *ExternalRequest) *PreparedExternal { return broker.Prepare(x) }

// External hands the world one request of an external client, as an
// action ([ActExternal]), and returns its id. The answer comes with that id
// from [World.ExternalAnswers], at once or after later steps (acks=all
// waits for the ISR, a fetch for MaxWaitMillis or MinBytes); a request at a
// broker that goes down is never answered (the wire layer closes or hangs
// the connection). A request that does not parse is [ErrExternal].
func (w *World) External(req ExternalRequest) (uint64, error) {
	if err := w.Do(Action{Kind: ActExternal, External: &req}); err != nil {
		return 0, err
	}
	return w.reqs.LastID(), nil
}

// ExternalPrepared is [World.External] with the work p did (p from
// [PrepareExternal] of the same request; nil is none).
func (w *World) ExternalPrepared(req ExternalRequest, p *PreparedExternal) (uint64, error) {
	w.reqs.SetPrepared(p)
	defer w.reqs.SetPrepared(nil)
	return w.External(req)
}

// ExternalAnswers returns the answers given since the last call, oldest
// first, and forgets them.
func (w *World) ExternalAnswers() []ExternalAnswer { return w.reqs.Answers() }

// ExternalClients returns what the brokers remember of the external
// clients, by number: those heard from within [ExternalClientExpiryMs] or
// waiting for an answer. The caller must not modify it.
func (w *World) ExternalClients() []ExternalClient { return w.reqs.Clients() }

// ExternalPending returns how many external requests wait for the world.
func (w *World) ExternalPending() int { return w.reqs.Pending() }

// BrokerState returns broker id's state (false for an unknown broker).
func (w *World) BrokerState(id int32) (BrokerState, bool) {
	b, err := w.broker(id)
	if err != nil {
		return 0, false
	}
	return b.State(), true
}

// LinkCut reports whether the link between nodes a and b is cut.
func (w *World) LinkCut(a, b int32) bool { return w.net.Cut(a, b) }

func (w *World) validateExternal(x *ExternalRequest) error {
	if x == nil {
		return fmt.Errorf("%w: external action without a request", ErrInvalidConfig)
	}
	if _, err := w.broker(x.Broker); err != nil {
		return err
	}
	if x.Client < 1 || x.Client > 1<<20 {
		return fmt.Errorf("%w: external client %d", ErrInvalidConfig, x.Client)
	}
	_, err := w.reqs.Decode(x)
	return err
}

// externalString prints an external request as its action line.
func externalString(x *ExternalRequest) string {
	if x == nil {
		return string(ActExternal)
	}
	return x.String()
}

// external applies one external request (the action's work): the broker
// serves it, then the world runs until the network is quiet and answers
// the requests that waited for that. A Produce whose batches were refused
// is kept in the history as the brokers compacted it (broker.Requests.Compact:
// the verdicts instead of the refused bytes), so that its bytes go at once.
func (w *World) external(x *ExternalRequest) error {
	served, err := w.reqs.Serve(w.env(), w.brokers, x)
	if c := w.reqs.Compact(x); c != nil {
		w.keepCompacted(x, c)
	}
	if !served {
		return err
	}
	w.quiet()
	w.reqs.Tick(w.env(), w.brokers)
	return nil
}

// keepCompacted puts c in the place of x, the request of the action being
// applied, in the history, and counts the bytes it weighs no longer.
func (w *World) keepCompacted(x, c *ExternalRequest) {
	if n := len(w.actions); n > 0 && w.actions[n-1].External == x {
		a := &w.actions[n-1]
		before := actionSize(a)
		a.External = c
		w.actionBytes += actionSize(a) - before
	}
}

// TopicUUID returns the 16 bytes of a topic id printed in base64 (the
// zero id for one that does not parse).
func TopicUUID(id string) [16]byte { return broker.TopicUUID(id) }

// ClusterID is the world's cluster.id: a Uuid as Kafka prints it, drawn
// from the seed like a topic id.
func (w *World) ClusterID() string { return w.cfg.clusterID() }

// clusterID is the cluster.id of a world of c (World.ClusterID).
func (c Config) clusterID() string { return metadata.NewTopicID(c.Seed, "\x00cluster.id") }
