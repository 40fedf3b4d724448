package broker

import (
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/netsim"
)

// ProducerIDBase is the first producer id InitProducerId hands a client
// (Kafka's controller hands out blocks from 0; the world's own idempotent
// producers use their node ids, 101..).
const ProducerIDBase int64 = 10000

// MaxAnswers bounds the answers [Requests] keeps until they are taken;
// older ones fall off (a world nobody reads from, as a replayed one).
const MaxAnswers = 4096

// ErrRequest wraps the refusal of a client's request the brokers cannot
// take (an unknown api key, a body that does not parse); the wire layer
// closes the connection, as a Kafka broker does on a request it cannot
// read.
var ErrRequest = errors.New("cluster: external request")

// Request is one request of a Kafka client outside the simulation, as its
// bytes came over the wire (without the size and the request header).
type Request struct {
	// Client numbers the client (1..); its node id is
	// netsim.ExternalNode(Client).
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
	// refused are the verdicts on the partitions of a Produce whose
	// batches were let go once they were refused, and size the body's
	// size as it came (refusal.go).
	refused []verdict
	size    int
}

// String prints the request as the timeline's action line.
func (x *Request) String() string {
	size := len(x.Body)
	if x.refused != nil {
		size = x.size
	}
	return fmt.Sprintf("external client=%d broker=%d %s v%d (%d bytes)", x.Client, x.Broker, kmsg.NameForKey(x.Key), x.Version, size)
}

// Answer is the brokers' answer to a client's request.
type Answer struct {
	// ID is the request's, as [Requests.Serve] numbered it.
	ID uint64
	// Response is the answer (of the request's key). For a Produce with
	// acks=0 it is still given: the wire layer sends nothing but closes the
	// connection if a partition failed (KafkaApis.handleProduceRequest).
	// The brokers in a MetadataResponse have no Host and Port: the wire
	// layer knows its listeners (advertised.listeners).
	Response kmsg.Response
}

// Requests is the brokers' side of the Kafka clients outside the
// simulation: it numbers their requests, hands each to the broker it came
// to ([Requests.Serve]), keeps the requests that wait (acks=all produces
// for the ISR, fetches for MinBytes or MaxWaitMillis: Kafka's purgatories;
// group requests at a coordinator), queues the answers until they are
// taken, and counts what the brokers saw of each client. Its zero value is
// ready. It is the state of the cluster's request handling, not of one
// broker: a request's id and its client are the cluster's.
type Requests struct {
	nextID  uint64
	corr    int64
	nextPID int64
	// pending are the requests waiting for the world (acks=all produces,
	// long-polling fetches), by id; waiting maps a produce's correlation
	// id at a replica to its request and partition.
	pending map[uint64]*pending
	waiting map[int64]produceSlot
	answers []Answer
	// clients are the clients the brokers remember, by number
	// (clients.go); sweepMs is when Tick next forgets the idle ones.
	clients []Client
	sweepMs int64
	// maxClients, if above 0, replaces MaxClients (tests).
	maxClients int
	// groups are the group requests handed to a coordinator and not yet
	// answered, by the address they were handed under (groups.go).
	groups map[string]*groupWait
	// txns are the requests waiting for a transaction coordinator's (or a
	// leader's markers') answer, txnCommits the TxnOffsetCommits waiting
	// for their append, by correlation id (txnrequests.go).
	txns       map[int64]*txnWait
	txnCommits map[int64]txnCommitWait
	// verifies are the partitions of produces waiting for their
	// coordinator's verification, by its correlation id (verify.go).
	verifies map[int64]produceVerify
	// offsetsAdded are the TxnOffsetCommits (v5+) whose offsets partition
	// the transaction coordinator added, taken again.
	offsetsAdded map[uint64]bool
	// prepared is the request being served's preparation, if any
	// (SetPrepared); it is no state of the cluster.
	prepared *Prepared
	// replay checks and decodes the client batches of the requests served
	// unprepared (a replay of the timeline), with buffers it reuses; it is
	// no state of the cluster either.
	replay replayPreparer
	// refused gathers the partitions of the Produce being served that
	// were refused at once, for Compact; no state of the cluster.
	refused refusals
}

// pending is one request waiting for the world: a produce whose
// partitions wait for their replicas' answers, or a fetch waiting for
// bytes or its deadline.
type pending struct {
	id          uint64
	client      int32
	broker      int32
	incarnation int
	produce     *kmsg.ProduceResponse
	open        int // produce partitions not answered yet
	fetch       *kmsg.FetchRequest
	deadlineMs  int64
}

// produceSlot is one partition of a pending produce.
type produceSlot struct {
	id          uint64
	topic, part int
	records     int
}

// LastID is the id the latest request served got.
func (rq *Requests) LastID() uint64 { return rq.nextID }

// Answers returns the answers given since the last call, oldest first,
// and forgets them.
func (rq *Requests) Answers() []Answer {
	out := rq.answers
	rq.answers = nil
	return out
}

// Pending returns how many requests wait for the world.
func (rq *Requests) Pending() int { return len(rq.pending) }

// Decode parses x's body, or takes what [Prepare] parsed of it (see
// SetPrepared).
func (rq *Requests) Decode(x *Request) (kmsg.Request, error) {
	if p := rq.preparedFor(x); p != nil {
		return p.req, p.err
	}
	return decodeBody(x)
}

// decodeBody parses a request's body.
func decodeBody(x *Request) (kmsg.Request, error) {
	req := kmsg.RequestForKey(x.Key)
	if req == nil {
		return nil, fmt.Errorf("%w: unknown api key %d", ErrRequest, x.Key)
	}
	if x.Version < 0 || x.Version > req.MaxVersion() {
		return nil, fmt.Errorf("%w: %s version %d", ErrRequest, kmsg.NameForKey(x.Key), x.Version)
	}
	req.SetVersion(x.Version)
	if err := req.ReadFrom(x.Body); err != nil {
		return nil, fmt.Errorf("%w: %s v%d: %w", ErrRequest, kmsg.NameForKey(x.Key), x.Version, err)
	}
	return req, nil
}

// Serve numbers request x and hands it to broker x.Broker (brokers[i] is
// broker i+1), which answers it now or later ([Requests.Answers]). It
// reports false when the broker is down: the connection met a broker that
// is down, the wire layer closes it (or, powered off, lets it hang), and
// nothing answers. A request that does not parse, or whose api the brokers
// do not serve, is [ErrRequest].
func (rq *Requests) Serve(env APIEnv, brokers []*Broker, x *Request) (bool, error) {
	req, err := rq.Decode(x)
	if err != nil {
		return false, err
	}
	rq.nextID++
	id := rq.nextID
	rq.client(env, x)
	b := brokers[x.Broker-1]
	if b.State() != BrokerRunning {
		return false, nil
	}
	if isGroupKey(x.Key) {
		rq.sweepGroups(brokers)
	}
	if isTxnKey(x.Key) {
		rq.sweepTxns(brokers)
	}
	switch r := req.(type) {
	case *kmsg.MetadataRequest:
		rq.answer(id, b.metadata(env, x, r))
	case *kmsg.ProduceRequest:
		rq.produce(env, b, id, x, r)
	case *kmsg.FetchRequest:
		rq.fetch(env, b, id, x, r)
	case *kmsg.ListOffsetsRequest:
		rq.answer(id, b.listOffsets(env, r))
	case *kmsg.OffsetForLeaderEpochRequest:
		rq.answer(id, b.offsetForLeaderEpoch(env, x, r))
	case *kmsg.InitProducerIDRequest:
		rq.initProducerID(env, b, id, x, r)
	case *kmsg.AddPartitionsToTxnRequest:
		rq.addPartitionsToTxn(env, b, id, x, r)
	case *kmsg.AddOffsetsToTxnRequest:
		rq.addOffsetsToTxn(env, b, id, x, r)
	case *kmsg.EndTxnRequest:
		rq.endTxn(env, b, id, x, r)
	case *kmsg.TxnOffsetCommitRequest:
		rq.txnOffsetCommit(env, b, id, x, r)
	case *kmsg.WriteTxnMarkersRequest:
		rq.writeTxnMarkersReq(env, b, id, x, r)
	case *kmsg.DescribeProducersRequest:
		rq.answer(id, b.describeProducers(env, r))
	case *kmsg.ListTransactionsRequest:
		rq.answer(id, b.listTransactions(env, r))
	case *kmsg.DescribeTransactionsRequest:
		rq.answer(id, b.describeTransactions(r))
	case *kmsg.CreateTopicsRequest:
		rq.answer(id, b.createTopics(env, r))
	case *kmsg.CreatePartitionsRequest:
		rq.answer(id, b.createPartitions(env, x, r))
	case *kmsg.DeleteTopicsRequest:
		rq.answer(id, b.deleteTopics(env, r))
	case *kmsg.DescribeConfigsRequest:
		rq.answer(id, b.describeConfigs(env, x, r))
	case *kmsg.IncrementalAlterConfigsRequest:
		rq.answer(id, b.incrementalAlterConfigs(env, x, r))
	case *kmsg.AlterConfigsRequest:
		rq.answer(id, b.alterConfigs(env, x, r))
	case *kmsg.FindCoordinatorRequest:
		rq.answer(id, rq.findCoordinator(env, r))
	case *kmsg.ListGroupsRequest:
		rq.answer(id, b.listGroups(env, r))
	case *kmsg.DescribeGroupsRequest:
		rq.answer(id, b.describeGroups(env, r))
	case *kmsg.JoinGroupRequest:
		rq.joinGroup(env, b, id, x, r)
	case *kmsg.SyncGroupRequest:
		rq.syncGroup(env, b, id, x, r)
	case *kmsg.HeartbeatRequest:
		rq.heartbeat(env, b, id, x, r)
	case *kmsg.LeaveGroupRequest:
		rq.leaveGroup(env, b, id, x, r)
	case *kmsg.OffsetCommitRequest:
		rq.offsetCommit(env, b, id, x, r)
	case *kmsg.OffsetFetchRequest:
		rq.offsetFetch(env, b, id, x, r)
	case *kmsg.DeleteGroupsRequest:
		rq.answer(id, b.deleteGroups(env, x, r))
	case *kmsg.ConsumerGroupHeartbeatRequest:
		rq.consumerGroupHeartbeat(env, b, id, x, r)
	case *kmsg.ConsumerGroupDescribeRequest:
		rq.answer(id, b.consumerGroupDescribe(env, r))
	case *kmsg.DescribeTopicPartitionsRequest:
		rq.answer(id, b.describeTopicPartitions(env, r))
	case *kmsg.DescribeClusterRequest:
		rq.answer(id, b.describeCluster(env, r))
	case *kmsg.DescribeLogDirsRequest:
		rq.answer(id, b.describeLogDirs(r))
	case *kmsg.DescribeQuorumRequest:
		rq.answer(id, b.describeQuorum(env, r))
	case *kmsg.ListPartitionReassignmentsRequest:
		rq.answer(id, b.listPartitionReassignments(r))
	default:
		return false, fmt.Errorf("%w: %s is not served", ErrRequest, kmsg.NameForKey(x.Key))
	}
	return true, nil
}

// answer queues the answer to request id.
func (rq *Requests) answer(id uint64, resp kmsg.Response) {
	if len(rq.answers) >= MaxAnswers {
		rq.answers = slices.Delete(rq.answers, 0, 1)
	}
	rq.answers = append(rq.answers, Answer{ID: id, Response: resp})
}

// Tick forgets the requests whose broker went down or restarted since
// (their connections are closed or hang) and the clients idle for
// [ClientExpiryMs], and answers the fetches that waited long enough or
// found enough bytes. The world calls it after each
// request it serves and at each of its ticks.
func (rq *Requests) Tick(env APIEnv, brokers []*Broker) {
	for _, id := range slices.Sorted(maps.Keys(rq.pending)) {
		p := rq.pending[id]
		b := brokers[p.broker-1]
		if b.State() != BrokerRunning || b.Incarnation() != p.incarnation {
			rq.drop(p)
			continue
		}
		if p.fetch != nil {
			resp, bytes, failed := consumerFetch(env, b, p.fetch)
			if failed || bytes >= int(p.fetch.MinBytes) || env.Now() >= p.deadlineMs {
				delete(rq.pending, id)
				rq.answer(id, resp)
			}
		}
	}
	rq.expireVerifications(env, brokers)
	rq.forgetIdle(env)
}

func (rq *Requests) drop(p *pending) {
	delete(rq.pending, p.id)
	for corr, s := range rq.waiting {
		if s.id == p.id {
			delete(rq.waiting, corr)
		}
	}
}

// park keeps p waiting for the world.
func (rq *Requests) park(p *pending) {
	if rq.pending == nil {
		rq.pending = map[uint64]*pending{}
	}
	rq.pending[p.id] = p
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

// topicNamed returns the metadata's topic named name, nil if none.
func topicNamed(env Env, name string) *metadata.Topic {
	ts := env.Topics()
	i, ok := slices.BinarySearchFunc(ts, name, func(t metadata.Topic, n string) int { return strings.Compare(t.Name, n) })
	if !ok {
		return nil
	}
	return &ts[i]
}

// topicByID returns the metadata's topic whose id is id, nil if none.
func topicByID(env Env, id [16]byte) *metadata.Topic {
	ts := env.Topics()
	for i := range ts {
		if TopicUUID(ts[i].ID) == id {
			return &ts[i]
		}
	}
	return nil
}

// hasPartition reports whether t exists and has partition p.
func hasPartition(t *metadata.Topic, p int32) bool {
	return t != nil && p >= 0 && int(p) < len(t.Assignment)
}

// clientNode is client n's node id on the network.
func clientNode(n int32) int32 { return netsim.ExternalNode(n) }
