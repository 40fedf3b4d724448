package kafkawire

import (
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Kafka's defaults for the limits the server applies (KafkaConfig, 3.7).
const (
	// DefaultSocketRequestMaxBytes is socket.request.max.bytes: 100 MiB.
	DefaultSocketRequestMaxBytes = 100 * 1024 * 1024
	// DefaultConnectionsMaxIdle is connections.max.idle.ms: 10 minutes.
	DefaultConnectionsMaxIdle = 10 * time.Minute
)

// Listener is one broker's listening address.
type Listener struct {
	// NodeID is the broker's id.
	NodeID int32
	// Addr is host:port; port 0 picks a free port (see Server.Addr).
	Addr string
}

// DefaultListeners are brokers 1, 2 and 3 on 127.0.0.1:9092, 9093 and 9094.
func DefaultListeners() []Listener {
	return []Listener{{1, "127.0.0.1:9092"}, {2, "127.0.0.1:9093"}, {3, "127.0.0.1:9094"}}
}

// LoopbackListeners are the given brokers on 127.0.0.1, each on a free port
// chosen when the server listens (for tests: nothing can take the port between
// choosing and listening).
func LoopbackListeners(ids ...int32) []Listener {
	ls := make([]Listener, len(ids))
	for i, id := range ids {
		ls[i] = Listener{id, "127.0.0.1:0"}
	}
	return ls
}

// Config configures a Server.
type Config struct {
	// Listeners, one per broker (DefaultListeners when empty).
	Listeners []Listener
	// Backend answers the requests; required.
	Backend Backend
	// APIVersions is the table advertised and accepted (DefaultAPIVersions
	// when nil).
	APIVersions []APIVersion
	// Features is what ApiVersions v3+ says of the cluster's features
	// (none when nil; Kafka37Features and Kafka41Features are a new
	// cluster's of those releases).
	Features *Features
	// SocketRequestMaxBytes is socket.request.max.bytes: a larger size prefix
	// closes the connection (DefaultSocketRequestMaxBytes when 0).
	SocketRequestMaxBytes int32
	// QueuedMaxRequestBytes is queued.max.request.bytes: the bytes of
	// requests read and not yet answered that the server holds at most,
	// across every connection of every broker; past it, connections read
	// nothing more until answers free bytes (one frame may go past it, as
	// in Kafka). DefaultQueuedMaxRequestBytes when 0 (or
	// SocketRequestMaxBytes if that is more); negative: unbounded (Kafka's
	// -1). As in Kafka, it must be at least SocketRequestMaxBytes.
	QueuedMaxRequestBytes int64
	// ConnectionsMaxIdle is connections.max.idle.ms: a connection with no
	// bytes read or written for that long, and no request in progress, is
	// closed (DefaultConnectionsMaxIdle when 0; negative: never). Wall clock:
	// the network runs outside the simulated world's time.
	ConnectionsMaxIdle time.Duration
	// Log, when set, receives the server's events (listening, accepted,
	// refused, closed and why). It is called from connection goroutines and
	// must not block.
	Log func(Event)
	// Tap, when set, sees the requests and responses of the connections
	// it asks for.
	Tap Tap
}

// Event is one line of the server's log.
type Event struct {
	Time time.Time
	// Broker is the listener's node id.
	Broker int32
	// Conn is the connection's id (0 for a listener's event).
	Conn uint64
	// ClientID and Remote identify the client ("" when unknown).
	ClientID, Remote string
	Msg              string
}

// String is "broker 1 conn 3 (client rdkafka 127.0.0.1:5678): msg".
func (e Event) String() string {
	s := "broker " + strconv.Itoa(int(e.Broker))
	if e.Conn != 0 {
		s += " conn " + strconv.FormatUint(e.Conn, 10) + " (client " + strconv.Quote(e.ClientID) + " " + e.Remote + ")"
	}
	return s + ": " + e.Msg
}

// Server serves Kafka's protocol for a set of brokers: one listener each,
// framing, request decoding, ApiVersions, ordered responses and connection
// lifecycle; every other request goes to the Backend.
type Server struct {
	cfg Config
	// versions is the served table, replaced whole by SetVersions.
	versions atomic.Pointer[Versions]
	idle     time.Duration
	queued   *requestBytes

	mu        sync.Mutex
	listeners map[int32]net.Listener
	order     []int32
	conns     map[uint64]*conn
	nextID    uint64
	closed    bool
	started   bool
	wake      chan struct{}

	wg sync.WaitGroup
}

// New checks cfg and binds every listener (the addresses are known from then
// on: Server.Addr); Start begins accepting.
func New(cfg Config) (*Server, error) {
	if cfg.Backend == nil {
		return nil, fmt.Errorf("%w: no Backend", ErrConfig)
	}
	if len(cfg.Listeners) == 0 {
		cfg.Listeners = DefaultListeners()
	}
	if cfg.APIVersions == nil {
		cfg.APIVersions = DefaultAPIVersions()
	}
	versions, err := NewVersions(cfg.APIVersions)
	if err != nil {
		return nil, err
	}
	if cfg.Features != nil {
		versions.features = *cfg.Features
	}
	if cfg.SocketRequestMaxBytes < 0 {
		return nil, fmt.Errorf("%w: SocketRequestMaxBytes %d", ErrConfig, cfg.SocketRequestMaxBytes)
	}
	if cfg.SocketRequestMaxBytes == 0 {
		cfg.SocketRequestMaxBytes = DefaultSocketRequestMaxBytes
	}
	if cfg.QueuedMaxRequestBytes == 0 {
		cfg.QueuedMaxRequestBytes = max(DefaultQueuedMaxRequestBytes, int64(cfg.SocketRequestMaxBytes))
	}
	if cfg.QueuedMaxRequestBytes > 0 && cfg.QueuedMaxRequestBytes < int64(cfg.SocketRequestMaxBytes) {
		// KafkaConfig.validateValues: "queued.max.request.bytes must be
		// larger or equal to socket.request.max.bytes".
		return nil, fmt.Errorf("%w: QueuedMaxRequestBytes %d below SocketRequestMaxBytes %d", ErrConfig, cfg.QueuedMaxRequestBytes, cfg.SocketRequestMaxBytes)
	}
	idle := cfg.ConnectionsMaxIdle
	if idle == 0 {
		idle = DefaultConnectionsMaxIdle
	}
	s := &Server{
		cfg: cfg, idle: idle, queued: newRequestBytes(cfg.QueuedMaxRequestBytes),
		listeners: map[int32]net.Listener{},
		conns:     map[uint64]*conn{},
		wake:      make(chan struct{}),
	}
	s.versions.Store(versions)
	for _, l := range cfg.Listeners {
		if _, dup := s.listeners[l.NodeID]; dup {
			s.closeListeners()
			return nil, fmt.Errorf("%w: broker %d listed twice", ErrConfig, l.NodeID)
		}
		ln, err := net.Listen("tcp", l.Addr)
		if err != nil {
			s.closeListeners()
			return nil, fmt.Errorf("kafkawire: broker %d: %w", l.NodeID, err)
		}
		s.listeners[l.NodeID] = ln
		s.order = append(s.order, l.NodeID)
	}
	return s, nil
}

func (s *Server) closeListeners() {
	for _, ln := range s.listeners {
		ln.Close()
	}
}

// Versions returns the served table.
func (s *Server) Versions() *Versions { return s.versions.Load() }

// SetVersions replaces the served table and features (nil: none), as a
// broker restarted on another Kafka release would answer: requests read
// from then on are decoded and answered by the new table, on every
// connection. It checks list as New does.
func (s *Server) SetVersions(list []APIVersion, features *Features) error {
	v, err := NewVersions(list)
	if err != nil {
		return err
	}
	if features != nil {
		v.features = *features
	}
	s.versions.Store(v)
	return nil
}

// Brokers returns the node ids of the listeners, in Config order.
func (s *Server) Brokers() []int32 { return slices.Clone(s.order) }

// Addr returns the address broker listens on (nil for an unknown broker).
func (s *Server) Addr(broker int32) net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	ln := s.listeners[broker]
	if ln == nil {
		return nil
	}
	return ln.Addr()
}

// Advertised returns the host and port a Backend puts in Metadata and
// FindCoordinator for broker (Kafka's advertised.listeners): the listener's
// address. ok is false for an unknown broker.
func (s *Server) Advertised(broker int32) (host string, port int32, ok bool) {
	a, _ := s.Addr(broker).(*net.TCPAddr)
	if a == nil {
		return "", 0, false
	}
	return a.IP.String(), int32(a.Port), true
}

// Start begins accepting connections on every listener.
func (s *Server) Start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started || s.closed {
		return
	}
	s.started = true
	for _, id := range s.order {
		ln := s.listeners[id]
		s.logf(id, nil, "listening on %s", ln.Addr())
		s.wg.Add(1)
		go s.accept(id, ln)
	}
}

// Close closes the listeners and every connection, and waits for the
// server's goroutines to end.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.closeListeners()
	conns := s.connList()
	s.mu.Unlock()
	for _, c := range conns {
		c.close("server closed")
	}
	s.wg.Wait()
	return nil
}

// Disconnect closes every connection to broker, saying why in the log
// (broker stopped, killed; or powered on again: the connections of before the
// power cut are gone). It returns how many it closed.
func (s *Server) Disconnect(broker int32, reason string) int {
	s.mu.Lock()
	var cs []*conn
	for _, c := range s.conns {
		if c.info.Broker == broker {
			cs = append(cs, c)
		}
	}
	s.mu.Unlock()
	for _, c := range cs {
		c.close(reason)
	}
	return len(cs)
}

// DisconnectAll closes every connection, saying why (the world jumped back
// in time: no client may keep a conversation with a past that is gone). It
// returns how many it closed.
func (s *Server) DisconnectAll(reason string) int {
	s.mu.Lock()
	cs := s.connList()
	s.mu.Unlock()
	for _, c := range cs {
		c.close(reason)
	}
	return len(cs)
}

// Wake tells waiting connections that Backend.State may have changed (a
// link healed, a broker powered on or stopped): each asks it again. Call it
// after every world step that changed a broker's state or a link.
func (s *Server) Wake() {
	s.mu.Lock()
	close(s.wake)
	s.wake = make(chan struct{})
	s.mu.Unlock()
}

func (s *Server) wakeChan() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.wake
}

// QueuedRequestBytes returns the bytes of the requests read and not yet
// answered, across every connection (bounded by
// Config.QueuedMaxRequestBytes, plus at most one frame).
func (s *Server) QueuedRequestBytes() int64 { return s.queued.inUse() }

// Connections returns the open connections, by id.
func (s *Server) Connections() []ConnInfo {
	s.mu.Lock()
	cs := s.connList()
	s.mu.Unlock()
	out := make([]ConnInfo, len(cs))
	for i, c := range cs {
		out[i] = c.snapshot()
	}
	return out
}

// ConnCounts counts open connections.
type ConnCounts struct {
	// ByBroker counts them by the broker connected to.
	ByBroker map[int32]int
	// ByClient counts them by client id ("" before a connection's first
	// request).
	ByClient map[string]int
}

// Counts returns the number of open connections per broker and per client.
func (s *Server) Counts() ConnCounts {
	cc := ConnCounts{ByBroker: map[int32]int{}, ByClient: map[string]int{}}
	for _, ci := range s.Connections() {
		cc.ByBroker[ci.Broker]++
		cc.ByClient[ci.ClientID]++
	}
	return cc
}

// connList is the open connections by id; s.mu is held.
func (s *Server) connList() []*conn {
	cs := make([]*conn, 0, len(s.conns))
	for _, c := range s.conns {
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b *conn) int {
		switch {
		case a.info.ID < b.info.ID:
			return -1
		case a.info.ID > b.info.ID:
			return 1
		}
		return 0
	})
	return cs
}

func (s *Server) accept(broker int32, ln net.Listener) {
	defer s.wg.Done()
	for {
		nc, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			s.logf(broker, nil, "accept: %v", err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			nc.Close()
			return
		}
		s.nextID++
		c := newConn(s, broker, s.nextID, nc)
		s.mu.Unlock()
		if st := s.cfg.Backend.State(broker, c.snapshot()); st == Refusing {
			s.logf(broker, c, "refused: the broker is down")
			if tc, ok := nc.(*net.TCPConn); ok {
				tc.SetLinger(0) // a reset, as from a port nobody listens on
			}
			nc.Close()
			continue
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			nc.Close()
			return
		}
		s.conns[c.info.ID] = c
		s.wg.Add(2)
		s.mu.Unlock()
		s.logf(broker, c, "accepted")
		if o, ok := s.cfg.Backend.(ConnObserver); ok {
			o.ConnOpened(c.snapshot())
		}
		go c.readLoop()
		go c.serveLoop()
	}
}

// removed is called once by a closing connection.
func (s *Server) removed(c *conn, reason string) {
	s.mu.Lock()
	delete(s.conns, c.info.ID)
	s.mu.Unlock()
	s.logf(c.info.Broker, c, "closed: %s", reason)
	if o, ok := s.cfg.Backend.(ConnObserver); ok {
		o.ConnClosed(c.snapshot(), reason)
	}
}

func (s *Server) logf(broker int32, c *conn, format string, args ...any) {
	if s.cfg.Log == nil {
		return
	}
	e := Event{Time: time.Now(), Broker: broker, Msg: fmt.Sprintf(format, args...)}
	if c != nil {
		ci := c.snapshot()
		e.Conn, e.ClientID = ci.ID, ci.ClientID
		if ci.Remote != nil {
			e.Remote = ci.Remote.String()
		}
	}
	s.cfg.Log(e)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
