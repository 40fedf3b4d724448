package kafkawire

import (
	"net"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// Backend is the cluster behind the listeners: the server hands it every
// decoded request but ApiVersions, and asks it what a connection meets.
//
// The world is a deterministic simulation advanced in steps by its owner, so a
// Backend is not a blocking RPC. Submit only queues the request as an action of
// the world and returns at once; the Outcome is delivered later, from whichever
// goroutine advances the world, when the world has produced it (acks=all waits
// for the ISR, Fetch for MaxWaitMillis or MinBytes, JoinGroup for the
// rebalance). A request the world will never answer (a powered-off broker, a
// cut link) simply never gets its Outcome.
//
// Both methods are called from the server's connection goroutines, possibly
// concurrently: a Backend synchronises with its world itself.
type Backend interface {
	// State says what a connection from conn to broker meets now: Serving,
	// Refusing (the broker was stopped or killed: connections are closed) or
	// Silent (the broker is powered off, or the link between this client and
	// the broker is cut: nothing is read or answered, the connection stays
	// open). It is asked on accept (conn.ClientID is still "" then), before
	// each request is handled and before each response is written, and again
	// by waiting connections after Server.Wake. It must not block.
	State(broker int32, conn ConnInfo) State

	// Submit hands one decoded request, sent by conn to broker, to the world.
	// req's version is the one the client sent and is within
	// Config.APIVersions. The Pending's Outcome is a response of the same
	// key (its version is set by the server to the request's), or Close, or
	// nothing ever (a zero Pending).
	//
	// The server answers ApiVersions itself, and a Fetch of an incremental
	// fetch session (KIP-227) with FETCH_SESSION_ID_NOT_FOUND, as a Kafka 3.7
	// broker without session cache slots does (FetchManager.newContext): a
	// Backend answers every full Fetch with SessionID 0. For Produce with
	// acks=0 the server sends nothing back and closes the connection if the
	// Backend's response holds any partition error (KafkaApis.handleProduceRequest).
	// A null RecordBatches in a Fetch response is sent empty, as Kafka sends
	// MemoryRecords.EMPTY (librdkafka rejects a null record set).
	//
	// body is the request's body as the client sent it (its frame after the
	// header, with any bytes after the body, which Kafka ignores too), and
	// req's strings and byte slices (a Produce's record batches) alias it.
	// Both belong to the Backend, to keep or change: the frame is not
	// reused, and the server reads nothing of req's records. conn is a
	// snapshot: ClientID is the header's of this request. Submit must not
	// block on the world's progress.
	Submit(broker int32, conn ConnInfo, req kmsg.Request, body []byte) Pending
}

// ConnObserver is implemented by a Backend that wants to know when
// connections open and close (the page shows them; the server also keeps
// Server.Connections). The calls are made from connection goroutines.
type ConnObserver interface {
	// ConnOpened is called once a connection is accepted.
	ConnOpened(conn ConnInfo)
	// ConnClosed is called once when it is closed, with the reason.
	ConnClosed(conn ConnInfo, reason string)
}

// State is what a connection to a broker meets.
type State int

// The states of a broker as a connection sees it.
const (
	// Serving: requests are read and answered.
	Serving State = iota
	// Refusing: the broker process is down (stopped or killed). New
	// connections are closed at once, open ones are closed before their next
	// request or response: the client sees its connection reset, as from a
	// host whose port has no listener.
	Refusing
	// Silent: the host does not answer (powered off, or the link from this
	// client is cut). Nothing more is read or written; the connection stays
	// open until the client gives up, the state changes (Server.Wake) or the
	// idle timeout, which does not run while Silent.
	Silent
)

var stateNames = [...]string{"serving", "refusing", "silent"}

// String returns "serving", "refusing" or "silent".
func (s State) String() string {
	if s < 0 || int(s) >= len(stateNames) {
		return "State(" + itoa(int64(s)) + ")"
	}
	return stateNames[s]
}

// ConnInfo describes one client connection.
type ConnInfo struct {
	// ID is unique among the connections of one Server, counted from 1.
	ID uint64
	// Broker is the node id of the listener the client connected to.
	Broker int32
	// ClientID is the client.id of the connection's latest request header
	// ("" before the first request; a null client id reads as "", as in Kafka's
	// RequestHeader.parse).
	ClientID string
	// ClientSoftwareName and ClientSoftwareVersion are what the client said in
	// ApiVersions v3+ (KIP-511), once it said something valid; "" before (Kafka
	// shows "unknown").
	ClientSoftwareName    string
	ClientSoftwareVersion string
	// Remote is the client's address, Local the listener's address.
	Remote, Local net.Addr
	// Opened is when the connection was accepted (wall clock).
	Opened time.Time
}

// Outcome is how the world answers one request.
type Outcome struct {
	// Response is the answer, of the request's key. nil with Close false
	// means that nothing is sent and the connection goes on (acks=0).
	Response kmsg.Response
	// Close closes the connection instead of answering (Kafka closes a
	// connection on a request it cannot parse or a broker that goes away).
	Close bool
	// Reason says why, for the log.
	Reason string
}

// Respond is the Outcome that sends resp.
func Respond(resp kmsg.Response) Outcome { return Outcome{Response: resp} }

// CloseConn is the Outcome that closes the connection, saying why.
func CloseConn(reason string) Outcome { return Outcome{Close: true, Reason: reason} }

// Pending is the future Outcome of one request. The zero Pending never
// completes: the request is never answered (its connection hangs until the
// client gives up).
type Pending struct {
	c <-chan Outcome
}

// Resolve delivers the Outcome of a Pending. It never blocks; calls after the
// first are ignored. It may be called from any goroutine, also after the
// connection has gone (the Outcome is then dropped).
type Resolve func(Outcome)

// NewPending returns a Pending and the function that completes it.
func NewPending() (Pending, Resolve) {
	c := make(chan Outcome, 1)
	var once sync.Once
	return Pending{c: c}, func(o Outcome) {
		once.Do(func() { c <- o })
	}
}

// Ready is a Pending that is already complete.
func Ready(o Outcome) Pending {
	c := make(chan Outcome, 1)
	c <- o
	return Pending{c: c}
}

// Never is the Pending that never completes (the zero Pending).
func Never() Pending { return Pending{} }

// Done returns the channel that delivers the Outcome (nil, which blocks
// forever, for Never).
func (p Pending) Done() <-chan Outcome { return p.c }
