package cluster

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
)

// This file is the world's side of real Kafka clients (kcat, franz-go, the
// Java client...) talking to its brokers: the requests come in as
// [ActExternal] actions holding their bytes, so that the timeline replays
// them; the answers go out through [World.ExternalAnswers]. The world does
// no I/O: the listeners, the framing and the connections are the wire
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
const ExternalProducerIDBase int64 = 10000

// ErrExternal wraps the refusal of an external request the world cannot
// take (an unknown api key, a body that does not parse); the wire layer
// closes the connection, as a Kafka broker does on a request it cannot
// read.
var ErrExternal = errors.New("cluster: external request")

// ExternalRequest is one request of a Kafka client outside the world, as
// its bytes came over the wire (without the size and the request header).
type ExternalRequest struct {
	// Client numbers the client (1..); its node id is [ExternalNode].
	Client int32
	// ClientID is the header's client.id, Remote the client's address
	// (for the view only).
	ClientID, Remote string
	// Broker is the broker the connection is to.
	Broker int32
	// Key and Version are the request header's api key and version.
	Key, Version int16
	// Body is the request body, encoded at Version.
	Body []byte
}

// ExternalAnswer is the world's answer to an external request.
type ExternalAnswer struct {
	// ID is the request's, as [World.External] returned it.
	ID uint64
	// Response is the answer (of the request's key). For a Produce with
	// acks=0 it is still given: the wire layer sends nothing but closes the
	// connection if a partition failed (KafkaApis.handleProduceRequest).
	// The brokers in a MetadataResponse have no Host and Port: the wire
	// layer knows its listeners (advertised.listeners).
	Response kmsg.Response
}

// ExternalClient is what the brokers saw of one external client.
type ExternalClient struct {
	// Number is the client's number (node [ExternalNode](Number)).
	Number int32
	// ClientID and Remote are those of its latest request.
	ClientID, Remote string
	// Requests counts its requests by api name ("Produce", "Fetch"...).
	Requests map[string]int
	// Acks is the acks of its latest produce ("" before any), Idempotent
	// whether its latest batch carried a producer id.
	Acks       string
	Idempotent bool
	// ProducerID is its latest batch's producer id (-1: none).
	ProducerID int64
	// Sent, Acked and Failed count the records of its produce batches:
	// taken, acknowledged (acks=1 or all), and answered with an error, as
	// the leaders answered them; SentNoAck those sent with acks=0, which
	// get no answer; LostAfterAck the acknowledged ones the partition no
	// longer holds (lostafterack.go).
	Sent, Acked, Failed, SentNoAck, LostAfterAck int
	// Fetched counts the record bytes its fetches returned.
	Fetched int64
	// LastError is the latest error a partition of its answered.
	LastError string
	// LastMs is the world's time at its latest request.
	LastMs int64
	// acked are the runs of offsets acknowledged to it, for LostAfterAck.
	acked []ackedRange
}

// externalState is the world's side of external clients.
type externalState struct {
	nextID  uint64
	corr    int64
	nextPID int64
	// pending are the requests waiting for the world (acks=all produces,
	// long-polling fetches), by id; waiting maps a produce's correlation
	// id at a replica to its request and partition.
	pending map[uint64]*extPending
	waiting map[int64]extSlot
	answers []ExternalAnswer
	clients []ExternalClient
	// prepared is the request being applied's preparation, if any
	// (World.ExternalPrepared); it is no state of the world.
	prepared *PreparedExternal
	// replay checks and decodes the client batches of the requests the
	// world applies unprepared (a replay of the timeline), with buffers it
	// reuses; it is no state of the world either.
	replay replayPreparer
}

// replayPreparer is a [Preparer] the world keeps for the requests it
// prepares itself. A snapshot or a clone starts without it (cloneState):
// its buffers are scratch space.
type replayPreparer struct {
	pp *Preparer
}

// get returns the Preparer, made at first use.
func (r *replayPreparer) get() *Preparer {
	if r.pp == nil {
		r.pp = &Preparer{}
	}
	return r.pp
}

// extPending is one request waiting for the world.
type extPending struct {
	id          uint64
	client      int32
	broker      int32
	incarnation int
	produce     *kmsg.ProduceResponse
	open        int // produce partitions not answered yet
	fetch       *kmsg.FetchRequest
	deadlineMs  int64
}

// extSlot is one partition of a pending produce.
type extSlot struct {
	id          uint64
	topic, part int
	records     int
}

// MaxExternalAnswers bounds the answers kept for [World.ExternalAnswers];
// older ones fall off (a world nobody reads from, as a replayed one).
const MaxExternalAnswers = 4096

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
	return w.ext.nextID, nil
}

// ExternalAnswers returns the answers given since the last call, oldest
// first, and forgets them.
func (w *World) ExternalAnswers() []ExternalAnswer {
	out := w.ext.answers
	w.ext.answers = nil
	return out
}

// ExternalClients returns what the brokers saw of each external client,
// by number. The caller must not modify it.
func (w *World) ExternalClients() []ExternalClient { return w.ext.clients }

// ExternalPending returns how many external requests wait for the world.
func (w *World) ExternalPending() int { return len(w.ext.pending) }

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

// decodeExternalBody parses an external request's body.
func decodeExternalBody(x *ExternalRequest) (kmsg.Request, error) {
	req := kmsg.RequestForKey(x.Key)
	if req == nil {
		return nil, fmt.Errorf("%w: unknown api key %d", ErrExternal, x.Key)
	}
	if x.Version < 0 || x.Version > req.MaxVersion() {
		return nil, fmt.Errorf("%w: %s version %d", ErrExternal, kmsg.NameForKey(x.Key), x.Version)
	}
	req.SetVersion(x.Version)
	if err := req.ReadFrom(x.Body); err != nil {
		return nil, fmt.Errorf("%w: %s v%d: %w", ErrExternal, kmsg.NameForKey(x.Key), x.Version, err)
	}
	return req, nil
}

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
	_, err := w.decodeExternal(x)
	return err
}

// externalString prints an external request as its action line.
func externalString(x *ExternalRequest) string {
	if x == nil {
		return string(ActExternal)
	}
	return fmt.Sprintf("external client=%d broker=%d %s v%d (%d bytes)", x.Client, x.Broker, kmsg.NameForKey(x.Key), x.Version, len(x.Body))
}

// client returns external client n's record, adding it if new.
func (w *World) extClient(x *ExternalRequest) *ExternalClient {
	for len(w.ext.clients) < int(x.Client) {
		w.ext.clients = append(w.ext.clients, ExternalClient{Number: int32(len(w.ext.clients) + 1), ProducerID: -1})
	}
	c := &w.ext.clients[x.Client-1]
	c.ClientID, c.Remote, c.LastMs = x.ClientID, x.Remote, w.now
	if c.Requests == nil {
		c.Requests = map[string]int{}
	}
	c.Requests[kmsg.NameForKey(x.Key)]++
	return c
}

// external applies one external request (the action's work).
func (w *World) external(x *ExternalRequest) error {
	req, err := w.decodeExternal(x)
	if err != nil {
		return err
	}
	w.ext.nextID++
	id := w.ext.nextID
	w.extClient(x)
	b := w.brokers[x.Broker-1]
	if b.State() != BrokerRunning {
		// The connection met a broker that is down: the wire layer
		// closes it (or, powered off, lets it hang); nothing answers.
		return nil
	}
	switch r := req.(type) {
	case *kmsg.MetadataRequest:
		w.answer(id, w.extMetadata(x, r))
	case *kmsg.ProduceRequest:
		w.extProduce(id, x, b, r)
	case *kmsg.FetchRequest:
		w.extFetch(id, x, b, r)
	case *kmsg.ListOffsetsRequest:
		w.answer(id, w.extListOffsets(b, r))
	case *kmsg.OffsetForLeaderEpochRequest:
		w.answer(id, w.extOffsetForLeaderEpoch(x, b, r))
	case *kmsg.InitProducerIDRequest:
		w.answer(id, w.extInitProducerID(x, r))
	case *kmsg.CreateTopicsRequest:
		w.answer(id, w.extCreateTopics(r))
	case *kmsg.CreatePartitionsRequest:
		w.answer(id, w.extCreatePartitions(x, r))
	case *kmsg.DeleteTopicsRequest:
		w.answer(id, w.extDeleteTopics(r))
	case *kmsg.DescribeConfigsRequest:
		w.answer(id, w.extDescribeConfigs(x, r))
	case *kmsg.IncrementalAlterConfigsRequest:
		w.answer(id, w.extIncrementalAlterConfigs(x, r))
	case *kmsg.AlterConfigsRequest:
		w.answer(id, w.extAlterConfigs(x, r))
	default:
		if isGroupKey(x.Key) {
			w.externalGroupRequest(id, x, req)
			break
		}
		return fmt.Errorf("%w: %s is not served", ErrExternal, kmsg.NameForKey(x.Key))
	}
	w.quiet()
	w.pollExternal()
	return nil
}

// answer queues the answer to request id.
func (w *World) answer(id uint64, resp kmsg.Response) {
	if len(w.ext.answers) >= MaxExternalAnswers {
		w.ext.answers = slices.Delete(w.ext.answers, 0, 1)
	}
	w.ext.answers = append(w.ext.answers, ExternalAnswer{ID: id, Response: resp})
}

// tickExternal forgets the requests whose broker went down since (their
// connections are closed or hang) and answers the fetches that waited
// long enough or found enough bytes.
func (w *World) tickExternal() {
	if len(w.ext.pending) == 0 {
		return
	}
	w.pollExternal()
}

// pollExternal is tickExternal's work, also done after each external
// request.
func (w *World) pollExternal() {
	for _, id := range w.pendingIDs() {
		p := w.ext.pending[id]
		b := w.brokers[p.broker-1]
		if b.State() != BrokerRunning || b.Incarnation() != p.incarnation {
			w.dropPending(p)
			continue
		}
		if p.fetch != nil {
			resp, bytes, failed := w.fetchResponse(b, p.client, p.fetch)
			if failed || bytes >= int(p.fetch.MinBytes) || w.now >= p.deadlineMs {
				delete(w.ext.pending, id)
				w.answer(id, resp)
			}
		}
	}
}

// pendingIDs returns the pending requests' ids in order (map order is
// random; the world's is not).
func (w *World) pendingIDs() []uint64 {
	ids := make([]uint64, 0, len(w.ext.pending))
	for id := range w.ext.pending {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func (w *World) dropPending(p *extPending) {
	delete(w.ext.pending, p.id)
	for corr, s := range w.ext.waiting {
		if s.id == p.id {
			delete(w.ext.waiting, corr)
		}
	}
}

// TopicUUID returns the 16 bytes of a topic id printed in base64 (the
// zero id for one that does not parse).
func TopicUUID(id string) [16]byte {
	var out [16]byte
	b, err := base64.RawURLEncoding.DecodeString(id)
	if err == nil && len(b) == 16 {
		copy(out[:], b)
	}
	return out
}

// topicByID returns the topic whose id is id, nil if none.
func (w *World) topicByID(id [16]byte) *Topic {
	for i := range w.ctl.Topics() {
		if TopicUUID(w.ctl.Topics()[i].ID) == id {
			return &w.ctl.Topics()[i]
		}
	}
	return nil
}

// ClusterID is the world's cluster.id: a Uuid as Kafka prints it, drawn
// from the seed like a topic id.
func (w *World) ClusterID() string { return metadata.NewTopicID(w.cfg.Seed, "\x00cluster.id") }
