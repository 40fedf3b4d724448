//go:build !js

package web

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkawire"
)

// Kafka serves the world a Live shows to real Kafka clients (kcat, franz-go,
// the Java client...): it is the kafkawire.Backend of the brokers'
// listeners. Each request becomes an action of the world
// (cluster.World.External) applied by Kafka's own goroutine (Run), which
// hands the answers back to the connections as the world gives them; the
// world's clock is the Live's (Server.Run advances it at wall-clock pace,
// speed 1 while a client is connected).
//
// A client is numbered by its client.id, in the order they were first
// seen: the page's "cut client N" cuts the links between client N and the
// brokers (the connections hang, as on a real cut). A client.id with no
// connection whose number the world no longer remembers (it forgets a
// client an hour after its last request, cluster.ExternalClientExpiryMs)
// is forgotten too, at most [ClientSweepInterval] later, unless a link of
// it is cut (it comes back with a new number: a number names one client.id
// in the world's history); the brokers' states and cut links are looked at
// for the connected clients alone, so that clients that came and went cost
// nothing once gone. A broker that is
// stopped or killed closes its connections; a powered-off one stops
// answering, and when it is started again the connections of before are
// closed (the host rebooted). When the world shown is replaced (going
// back in time, Reset, a scenario), every connection is closed with the
// reason: a conversation with a future that is gone cannot go on.
type Kafka struct {
	live *Live
	// wire records the exchanges of the clients the page's view of the
	// wire watches (wire.go).
	wire *Wire

	mu      sync.Mutex
	srv     *kafkawire.Server
	queue   []queued
	kick    chan struct{}
	waiting map[uint64]waiter
	world   *cluster.World
	clients map[string]int32
	// next is the highest number given; swept is when the client ids
	// were last swept (wall clock).
	next  int32
	swept time.Time
	// conns are the open connections, each with the client.id of its
	// latest request.
	conns map[uint64]kafkawire.ConnInfo
	// brokers and cuts cache what State answers from: each broker's state
	// and the cut links (broker, client node) of the connected clients,
	// refreshed at every pump.
	brokers map[int32]cluster.BrokerState
	cuts    map[[2]int32]bool
	notice  string
	log     io.Writer
}

type queued struct {
	req      cluster.ExternalRequest
	prepared *cluster.PreparedExternal
	resolve  kafkawire.Resolve
	conn     uint64
}

type waiter struct {
	resolve kafkawire.Resolve
	conn    uint64
}

// PumpInterval is how often Run hands the world's answers back to the
// connections when no new request wakes it.
const PumpInterval = 5 * time.Millisecond

// ClientSweepInterval is how often Run forgets the client ids without a
// connection that the world has forgotten (wall clock).
const ClientSweepInterval = time.Minute

// NewKafka returns the backend of live's brokers; Attach gives it its
// server, Run serves.
func NewKafka(l *Live) *Kafka {
	k := &Kafka{live: l, wire: NewWire(), kick: make(chan struct{}, 1), waiting: map[uint64]waiter{}, clients: map[string]int32{},
		conns: map[uint64]kafkawire.ConnInfo{}, brokers: map[int32]cluster.BrokerState{}, cuts: map[[2]int32]bool{}}
	l.mu.Lock()
	l.kafka = k
	k.world = l.world()
	l.mu.Unlock()
	k.refresh(k.world)
	return k
}

// Attach gives k the server whose listeners it answers (for the brokers'
// advertised addresses, Wake and Disconnect).
func (k *Kafka) Attach(s *kafkawire.Server) {
	k.mu.Lock()
	k.srv = s
	k.mu.Unlock()
}

// StartKafka listens for Kafka clients on listeners (one per broker),
// serving live's world, until ctx is done; log, if set, gets the
// listeners' events. It returns the server (its addresses: Server.Addr).
func StartKafka(ctx context.Context, l *Live, listeners []kafkawire.Listener, log io.Writer) (*kafkawire.Server, error) {
	k := NewKafka(l)
	k.log = log
	l.mu.Lock()
	versions, features := servedVersions(l.world().Config().Rules)
	l.mu.Unlock()
	cfg := kafkawire.Config{Listeners: listeners, Backend: k, Tap: k.wire, APIVersions: versions, Features: features}
	if log != nil {
		cfg.Log = func(e kafkawire.Event) { fmt.Fprintf(log, "kafkalive: kafka: %s\n", e) }
	}
	s, err := kafkawire.New(cfg)
	if err != nil {
		return nil, err
	}
	k.Attach(s)
	s.Start()
	go func() {
		<-ctx.Done()
		s.Close()
	}()
	go k.Run(ctx)
	return s, nil
}

// State implements kafkawire.Backend from the states of the last pump.
func (k *Kafka) State(broker int32, conn kafkawire.ConnInfo) kafkawire.State {
	k.mu.Lock()
	defer k.mu.Unlock()
	st, ok := k.brokers[broker]
	switch {
	case !ok || st == cluster.BrokerStopped || st == cluster.BrokerCrashed:
		return kafkawire.Refusing
	case st == cluster.BrokerOff:
		return kafkawire.Silent
	}
	if n, ok := k.clients[conn.ClientID]; ok && conn.ClientID != "" && k.cuts[[2]int32{broker, cluster.ExternalNode(n)}] {
		return kafkawire.Silent
	}
	return kafkawire.Serving
}

// Submit implements kafkawire.Backend: the request is queued for Run.
func (k *Kafka) Submit(broker int32, conn kafkawire.ConnInfo, req kmsg.Request, body []byte) kafkawire.Pending {
	p, resolve := kafkawire.NewPending()
	x := cluster.ExternalRequest{Key: req.Key(), Version: req.GetVersion(), Body: body}
	// decoded, and a Produce's batches checked and decoded, here on the
	// connection's goroutine: the world's lock is held for less. The body
	// is the world's from here on (Preparer.HandOver): its leaders stamp
	// and keep a Produce's batches where they lie in it.
	pp := preparers.Get().(*cluster.Preparer)
	prepared := pp.Prepare(&x)
	preparers.Put(pp)
	k.mu.Lock()
	n := k.number(conn.ClientID)
	if _, open := k.conns[conn.ID]; open {
		k.conns[conn.ID] = conn // its client.id is this request's
	}
	remote := ""
	if conn.Remote != nil {
		remote = conn.Remote.String()
	}
	x.Client, x.ClientID, x.Remote, x.Broker = n, conn.ClientID, remote, broker
	k.queue = append(k.queue, queued{req: x, prepared: prepared, resolve: resolve, conn: conn.ID})
	k.mu.Unlock()
	select {
	case k.kick <- struct{}{}:
	default:
	}
	return p
}

// number returns client.id id's number, giving it the next if new (never
// one given before: the world's history names clients by number); k.mu is
// held.
func (k *Kafka) number(id string) int32 {
	if n, ok := k.clients[id]; ok {
		return n
	}
	k.next++
	k.clients[id] = k.next
	return k.next
}

// preparers keep the buffers of the connections' request preparation
// (cluster.Preparer), one at a time per goroutine.
var preparers = sync.Pool{New: func() any { return &cluster.Preparer{HandOver: true} }}

// ConnOpened implements kafkawire.ConnObserver.
func (k *Kafka) ConnOpened(conn kafkawire.ConnInfo) {
	k.mu.Lock()
	k.conns[conn.ID] = conn
	k.mu.Unlock()
	k.live.touch() // the clients panel lists it
}

// ConnClosed implements kafkawire.ConnObserver: the requests it waited
// for are forgotten (the world may still act on them).
func (k *Kafka) ConnClosed(conn kafkawire.ConnInfo, reason string) {
	k.mu.Lock()
	delete(k.conns, conn.ID)
	for id, w := range k.waiting {
		if w.conn == conn.ID {
			delete(k.waiting, id)
		}
	}
	k.mu.Unlock()
	k.live.touch()
}

// touch records a change of what the page shows beside the world (a Kafka
// client connected), for the updates and the streams.
func (l *Live) touch() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bump()
}

// Run applies the queued requests to the world and hands its answers back
// until ctx is done.
func (k *Kafka) Run(ctx context.Context) {
	t := time.NewTicker(PumpInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-k.kick:
		case <-t.C:
		}
		k.pump()
	}
}

// pump is one round of Run.
func (k *Kafka) pump() {
	k.mu.Lock()
	q := k.queue
	k.queue = nil
	srv := k.srv
	k.mu.Unlock()
	var resolves []func()
	var disconnect []int32
	disconnectAll := ""
	l := k.live
	l.mu.Lock()
	w := l.world()
	k.mu.Lock()
	if w != k.world {
		disconnectAll = k.worldChanged(w)
		for id, wt := range k.waiting {
			delete(k.waiting, id)
			resolves = append(resolves, func() { wt.resolve(kafkawire.CloseConn(disconnectAll)) })
		}
		k.world = w
		w.ExternalAnswers() // answers of requests made to the world it came from
		if srv != nil {
			if err := serveVersionsOf(srv, w); err != nil {
				k.notice = "kafka: " + err.Error()
			}
		}
	}
	k.mu.Unlock()
	acted := false
	for _, x := range q {
		id, err := w.ExternalPrepared(x.req, x.prepared)
		if err != nil {
			reason := err.Error()
			resolve := x.resolve
			resolves = append(resolves, func() { resolve(kafkawire.CloseConn(reason)) })
			continue
		}
		acted = true
		k.mu.Lock()
		k.waiting[id] = waiter{resolve: x.resolve, conn: x.conn}
		k.mu.Unlock()
	}
	answers := w.ExternalAnswers()
	if acted || len(answers) > 0 {
		if w == l.w {
			l.scripted = false // the shell cannot replay a client's requests
		}
		l.bump()
	}
	k.mu.Lock()
	if len(k.conns) > 0 && l.speed > 1 {
		l.speed = 1 // real clients' timeouts are wall-clock: the world keeps their pace
		l.bump()
	}
	for _, a := range answers {
		wt, ok := k.waiting[a.ID]
		if !ok {
			continue
		}
		delete(k.waiting, a.ID)
		if md, ok := a.Response.(*kmsg.MetadataResponse); ok && srv != nil {
			advertise(srv, md)
		}
		if srv != nil {
			advertiseCoordinators(srv, a.Response)
			advertiseLeaders(srv, a.Response)
			advertiseCluster(srv, a.Response)
		}
		resp := a.Response
		resolves = append(resolves, func() { wt.resolve(kafkawire.Respond(resp)) })
	}
	k.mu.Unlock()
	changed, disconnect := k.refresh(w)
	k.sweepClients(w)
	l.mu.Unlock()
	for _, r := range resolves {
		r()
	}
	if srv == nil {
		return
	}
	if disconnectAll != "" {
		srv.DisconnectAll(disconnectAll)
	}
	for _, b := range disconnect {
		srv.Disconnect(b, fmt.Sprintf("broker %d was powered on again: the connections from before the power cut are gone", b))
	}
	if changed {
		srv.Wake()
	}
}

// worldChanged says why the connections to the world shown before are
// closed; l.mu and k.mu are held.
func (k *Kafka) worldChanged(w *cluster.World) string {
	switch k.live.replaced {
	case replacedByScenario:
		k.notice = "a guided scenario started: every Kafka connection was closed (clients reconnect to the scenario's world)"
	case replacedByLeave:
		k.notice = "the scenario was left for the live cluster: every Kafka connection was closed (clients reconnect to the live cluster)"
	case replacedByFork:
		k.notice = fmt.Sprintf("the world went back in time to t=%s: every Kafka connection was closed (a client cannot go on talking to a future that is gone); clients reconnect and see the world as it was then", seconds(w.NowMs()))
	default:
		k.notice = "the world was replaced (reset): every Kafka connection was closed"
	}
	return k.notice
}

// refresh caches the brokers' states and the cut links of the connected
// clients for State; it reports whether anything changed and which brokers
// came back from a power cut. l.mu is held.
func (k *Kafka) refresh(w *cluster.World) (changed bool, poweredOn []int32) {
	k.mu.Lock()
	defer k.mu.Unlock()
	connected := k.connectedNumbers()
	for id := int32(1); id <= int32(w.Config().Brokers); id++ {
		st, _ := w.BrokerState(id)
		old, ok := k.brokers[id]
		if ok && old != st {
			changed = true
			if old == cluster.BrokerOff {
				poweredOn = append(poweredOn, id)
			}
		}
		k.brokers[id] = st
		for n := range connected {
			key := [2]int32{id, cluster.ExternalNode(n)}
			if cut := w.LinkCut(id, cluster.ExternalNode(n)); cut != k.cuts[key] {
				k.cuts[key], changed = cut, true
			}
		}
	}
	for key := range k.cuts {
		if !connected[key[1]-cluster.ExternalNodeBase] {
			delete(k.cuts, key) // a client no longer connected: looked at again when it is
		}
	}
	return changed, poweredOn
}

// connectedNumbers is the set of the numbers of the clients with an open
// connection; k.mu is held.
func (k *Kafka) connectedNumbers() map[int32]bool {
	out := make(map[int32]bool, len(k.conns))
	for _, c := range k.conns {
		if n, ok := k.clients[c.ClientID]; ok {
			out[n] = true
		}
	}
	return out
}

// sweepClients forgets, every ClientSweepInterval, the client ids without
// a connection whose number w does not remember (cluster.World.ExternalClients)
// and whose links are whole. l.mu is held.
func (k *Kafka) sweepClients(w *cluster.World) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if time.Since(k.swept) < ClientSweepInterval {
		return
	}
	k.swept = time.Now()
	connected := map[string]bool{}
	for _, c := range k.conns {
		connected[c.ClientID] = true
	}
	known := w.ExternalClients()
	for id, n := range k.clients {
		if connected[id] {
			continue
		}
		if _, ok := slices.BinarySearchFunc(known, n, func(c cluster.ExternalClient, n int32) int { return int(c.Number - n) }); ok {
			continue
		}
		cut := false
		for b := int32(1); b <= int32(w.Config().Brokers); b++ {
			cut = cut || w.LinkCut(b, cluster.ExternalNode(n))
		}
		if cut {
			continue
		}
		delete(k.clients, id)
	}
}

// advertise fills in the brokers' host and port from the listeners
// (advertised.listeners); a broker without a listener is left out.
func advertise(srv *kafkawire.Server, md *kmsg.MetadataResponse) {
	md.Brokers = slices.DeleteFunc(md.Brokers, func(b kmsg.MetadataResponseBroker) bool {
		return srv.Addr(b.NodeID) == nil
	})
	for i := range md.Brokers {
		md.Brokers[i].Host, md.Brokers[i].Port, _ = srv.Advertised(md.Brokers[i].NodeID)
	}
}

// ClientNumber returns the number of the client with client.id id (0: not
// seen), for "cut client N".
func (k *Kafka) ClientNumber(id string) int32 {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.clients[id]
}

// Connections returns the open connections, by id.
func (k *Kafka) Connections() []kafkawire.ConnInfo {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make([]kafkawire.ConnInfo, 0, len(k.conns))
	for _, c := range k.conns {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b kafkawire.ConnInfo) int { return int(a.ID) - int(b.ID) })
	return out
}

// decorate adds the Kafka clients to a view of w (the world shown: the
// present, or a moment of the past, which lists only the clients seen by
// then); l.mu is held.
func (k *Kafka) decorate(l *Live, v *View, w *cluster.World) {
	k.mu.Lock()
	defer k.mu.Unlock()
	kv := &KafkaView{Connections: len(k.conns), Notice: k.notice}
	if k.srv != nil {
		for _, id := range k.srv.Brokers() {
			if a := k.srv.Addr(id); a != nil {
				kv.Listeners = append(kv.Listeners, strconv.Itoa(int(id))+" "+a.String())
			}
		}
	}
	perClient := map[string]int{}
	for _, c := range k.conns {
		perClient[c.ClientID]++
	}
	for _, c := range shownClients(w.ExternalClients(), func(c *cluster.ExternalClient) bool {
		return perClient[c.ClientID] > 0 && k.clients[c.ClientID] == c.Number
	}, &kv.Hidden) {
		cv := KafkaClientView{Number: c.Number, ClientID: c.ClientID, Remote: c.Remote, Connections: perClient[c.ClientID],
			Acks: c.Acks, Idempotent: c.Idempotent, Sent: c.Sent, Acked: c.Acked, LostAfterAck: c.LostAfterAck, SentNoAck: c.SentNoAck, Failed: c.Failed, Fetched: c.Fetched,
			Requests: c.Requests, LastError: c.LastError}
		if k.clients[c.ClientID] != c.Number {
			cv.Connections = 0 // a number the world gave another client before a fork
		}
		for id := int32(1); id <= int32(w.Config().Brokers); id++ {
			if w.LinkCut(id, cluster.ExternalNode(c.Number)) {
				cv.Cut = append(cv.Cut, id)
			}
		}
		kv.Clients = append(kv.Clients, cv)
	}
	slices.SortFunc(kv.Clients, func(a, b KafkaClientView) int { return int(a.Number - b.Number) })
	if l.paused && kv.Connections > 0 {
		kv.PausedNote = "the clock is paused: connected Kafka clients get no answers that need time (acks=all, long polls) and will time out"
	}
	v.Kafka = kv
	if j := v.Journey; j != nil {
		j.Wire = k.wire.carrying(j.Topic, topicUUID(w, j.Topic), j.Partition, j.Offset)
	}
}

// topicUUID is the id of w's topic name as the wire carries it (zero: no
// such topic).
func topicUUID(w *cluster.World, name string) [16]byte {
	for _, t := range w.Topics() {
		if t.Name == name {
			return cluster.TopicUUID(t.ID)
		}
	}
	return [16]byte{}
}

// bootstrap is broker 1's listener, "" before the server is attached.
func (k *Kafka) bootstrap() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.srv == nil {
		return ""
	}
	if a := k.srv.Addr(1); a != nil {
		return a.String()
	}
	return ""
}

// shownClients returns the clients the page lists: every connected one,
// and of the others the MaxClientsShown that sent a request last (the
// latest numbers first on a tie); hidden is set to how many are left out.
func shownClients(all []cluster.ExternalClient, connected func(*cluster.ExternalClient) bool, hidden *int) []cluster.ExternalClient {
	var shown, recent []cluster.ExternalClient
	later := func(a, b *cluster.ExternalClient) bool {
		return a.LastMs > b.LastMs || a.LastMs == b.LastMs && a.Number > b.Number
	}
	idle, oldest := 0, 0 // oldest: recent's index of the one whose last request came first
	for i := range all {
		c := &all[i]
		if connected(c) {
			shown = append(shown, *c)
			continue
		}
		idle++
		if len(recent) < MaxClientsShown {
			recent = append(recent, *c)
		} else if later(c, &recent[oldest]) {
			recent[oldest] = *c
		} else {
			continue
		}
		if len(recent) == MaxClientsShown {
			oldest = 0
			for j := range recent {
				if later(&recent[oldest], &recent[j]) {
					oldest = j
				}
			}
		}
	}
	*hidden = idle - len(recent)
	return append(shown, recent...)
}
