package kafkawire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// firstChunk is the most a frame's buffer starts with on a connection that
// has delivered no larger frame: it then doubles as bytes arrive, so that a
// size prefix alone never sizes an allocation (a 100 MiB prefix followed by
// 10 bytes costs 64 KiB). A connection that has delivered a frame of n
// bytes in full gets its next frame's buffer at up to 2n at once (the
// frame's own size when that is less): a producer sending batches of
// similar size reads each into one buffer of its exact size, with no copy,
// and what a stalled client costs stays within twice what it has sent.
const firstChunk = 64 << 10

// A connection is two goroutines: readLoop reads frames and decodes them,
// serveLoop handles them one at a time, in order, and writes the responses.
// The queue between them holds one decoded request, so at most three frames
// are in memory per connection (one being read, one queued, one being
// served). Kafka's SocketServer mutes a connection while one of its requests
// is in progress, so requests of one connection are handled one after
// another and their responses go out in request order; reading one request
// ahead changes nothing a client can see.
type conn struct {
	s  *Server
	nc net.Conn

	mu   sync.Mutex
	info ConnInfo

	queue chan inbound
	done  chan struct{}
	once  sync.Once

	// lastActive is the wall clock (UnixNano) of the last byte read or
	// written; busy is set while a request is in progress.
	lastActive atomic.Int64
	busy       atomic.Bool

	// delivered is the largest frame read in full (readLoop's alone).
	delivered int
}

// inbound is one request read, or the error that ends the reading.
type inbound struct {
	hdr  RequestHeader
	req  kmsg.Request
	body []byte // the frame after the header, which req aliases
	err  error
	at   time.Time // when it was read in full
	// held is the bytes it holds of queued.max.request.bytes, released
	// once it is served (or dropped unserved).
	held int64
}

func newConn(s *Server, broker int32, id uint64, nc net.Conn) *conn {
	c := &conn{
		s: s, nc: nc,
		info: ConnInfo{
			ID: id, Broker: broker,
			Remote: nc.RemoteAddr(), Local: nc.LocalAddr(),
			Opened: time.Now(),
		},
		queue: make(chan inbound, 1),
		done:  make(chan struct{}),
	}
	c.touch()
	return c
}

func (c *conn) snapshot() ConnInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.info
}

func (c *conn) touch() { c.lastActive.Store(time.Now().UnixNano()) }

// close closes the connection once, saying why.
func (c *conn) close(reason string) {
	c.once.Do(func() {
		close(c.done)
		c.nc.Close()
		c.s.removed(c, reason)
	})
}

func (c *conn) closed() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// readLoop reads and decodes frames until the connection ends; a read or
// decode error is queued, so that it ends the connection in its turn, after
// the responses to the requests before it.
func (c *conn) readLoop() {
	defer c.s.wg.Done()
	for {
		in := c.readRequest()
		select {
		case c.queue <- in:
			if c.closed() {
				c.drain() // serveLoop may have drained the queue already
				return
			}
		case <-c.done:
			c.s.queued.release(in.held)
			return
		}
		if in.err != nil && !in.unsupportedAPIVersions() {
			return
		}
	}
}

// unsupportedAPIVersions reports whether in is an ApiVersions request at a
// version the server does not serve: it is answered, not closed on.
func (in inbound) unsupportedAPIVersions() bool {
	return in.hdr.APIKey == apiVersionsKey && errors.Is(in.err, ErrUnsupportedVersion)
}

func (c *conn) readRequest() inbound {
	var size [4]byte
	if err := c.readFull(size[:]); err != nil {
		return inbound{err: err}
	}
	n := int32(binary.BigEndian.Uint32(size[:]))
	if n < 0 || n > c.s.cfg.SocketRequestMaxBytes {
		return inbound{err: fmt.Errorf("%w: %d (socket.request.max.bytes %d)", ErrFrameSize, n, c.s.cfg.SocketRequestMaxBytes)}
	}
	if !c.s.queued.take(int64(n), c.done, c.waitingForBytes) {
		return inbound{err: net.ErrClosed}
	}
	buf, err := c.readFrame(int(n))
	if err != nil {
		c.s.queued.release(int64(n))
		return inbound{err: err}
	}
	hdr, req, err := c.s.Versions().Decode(buf)
	in := inbound{hdr: hdr, req: req, err: err, at: time.Now(), held: int64(n)}
	if err == nil {
		in.body = buf[hdr.Size:]
	}
	return in
}

// readFrame reads a frame of n bytes into a buffer that grows as they
// arrive (firstChunk).
func (c *conn) readFrame(n int) ([]byte, error) {
	buf := make([]byte, min(n, max(firstChunk, 2*c.delivered)))
	if err := c.readFull(buf); err != nil {
		return nil, err
	}
	for len(buf) < n {
		have := len(buf)
		buf = append(buf, make([]byte, min(n-have, have))...)
		if err := c.readFull(buf[have:]); err != nil {
			return nil, err
		}
	}
	c.delivered = max(c.delivered, len(buf))
	return buf, nil
}

// waitingForBytes logs that the connection reads nothing more until
// requests in progress free bytes of queued.max.request.bytes.
func (c *conn) waitingForBytes(held int64) {
	c.s.logf(c.info.Broker, c, "waiting: %d bytes of requests held, queued.max.request.bytes %d", held, c.s.queued.limit)
}

// drain releases the bytes of the requests queued and never served (the
// connection closed first).
func (c *conn) drain() {
	for {
		select {
		case in := <-c.queue:
			c.s.queued.release(in.held)
		default:
			return
		}
	}
}

// errIdle ends a connection idle for connections.max.idle.ms.
var errIdle = errors.New("idle for connections.max.idle.ms")

// readFull fills buf, closing an idle connection: the read deadline is the
// idle timeout, and when it passes the connection is closed unless bytes
// moved meanwhile, a request is in progress or the broker is silent (a
// powered-off host closes nothing).
func (c *conn) readFull(buf []byte) error {
	for n := 0; n < len(buf); {
		if c.s.idle > 0 {
			c.nc.SetReadDeadline(time.Unix(0, c.lastActive.Load()).Add(c.s.idle))
		}
		m, err := c.nc.Read(buf[n:])
		if m > 0 {
			n += m
			c.touch()
		}
		if err == nil {
			continue
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() && !c.closed() {
			if c.busy.Load() || c.s.cfg.Backend.State(c.info.Broker, c.snapshot()) == Silent {
				c.touch()
				continue
			}
			if time.Since(time.Unix(0, c.lastActive.Load())) < c.s.idle {
				continue
			}
			return errIdle
		}
		if errors.Is(err, io.EOF) && n == 0 {
			return io.EOF
		}
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%w: the client closed the connection %d bytes into %d", io.ErrUnexpectedEOF, n, len(buf))
		}
		return err
	}
	return nil
}

// serveLoop handles the queued requests one at a time.
func (c *conn) serveLoop() {
	defer c.s.wg.Done()
	defer c.drain()
	for {
		var in inbound
		select {
		case in = <-c.queue:
		case <-c.done:
			return
		}
		c.busy.Store(true)
		ok := c.serve(in)
		c.s.queued.release(in.held)
		if !ok {
			return
		}
		c.busy.Store(false)
		c.touch()
	}
}

// serve handles one request; false when the connection is closed.
func (c *conn) serve(in inbound) bool {
	if in.err != nil && !in.unsupportedAPIVersions() {
		// A silent host closes nothing: the close waits until it serves.
		if c.await() {
			c.close(closeReason(in.err))
		}
		return false
	}
	if !c.await() {
		return false
	}
	if in.hdr.HeaderVersion > 0 {
		c.mu.Lock()
		c.info.ClientID = in.hdr.ClientID
		c.mu.Unlock()
	}
	var x *Exchange
	if t := c.s.cfg.Tap; t != nil && in.req != nil {
		if info := c.snapshot(); t.Tapping(info) {
			x = &Exchange{Conn: info, Header: in.hdr, Request: in.req, Received: in.at}
			defer func() {
				x.Answered = time.Now()
				t.Exchanged(*x)
			}()
		}
	}
	out, ok := c.outcome(in)
	if !ok {
		x.closed("the connection closed while the request waited")
		return false
	}
	if out.Close {
		x.closed(out.Reason)
		c.close(out.Reason)
		return false
	}
	if out.Response == nil {
		return true
	}
	if !c.await() {
		x.closed("the broker went down before the response was written")
		return false
	}
	if !c.write(in.hdr, out.Response) {
		x.closed("the response could not be written")
		return false
	}
	if x != nil {
		x.Response = out.Response
	}
	return true
}

// closeReason is the log's reason for a read or decode error.
func closeReason(err error) string {
	switch {
	case errors.Is(err, io.EOF):
		return "the client closed the connection"
	case errors.Is(err, errIdle):
		return errIdle.Error()
	case errors.Is(err, net.ErrClosed):
		return "closed"
	}
	return err.Error()
}

// peerCheck is how often a connection waiting for its broker or an answer
// checks whether its client has gone. The reader cannot tell while it holds a
// whole request the server has no room for yet, and Kafka's clients give up
// on a broker that does not answer by closing the connection
// (request.timeout.ms): without the check, a silent broker would collect
// every connection of a retrying client.
var peerCheck = time.Second

// await waits until the broker serves this connection: it returns false when
// the connection was closed (the broker refuses, or a Disconnect or the client
// closed it while the broker was silent).
func (c *conn) await() bool {
	var tick <-chan time.Time
	for {
		wake := c.s.wakeChan()
		switch c.s.cfg.Backend.State(c.info.Broker, c.snapshot()) {
		case Serving:
			return !c.closed()
		case Refusing:
			c.close("the broker is down")
			return false
		}
		if tick == nil {
			t := time.NewTicker(peerCheck)
			defer t.Stop()
			tick = t.C
		}
		select {
		case <-wake:
		case <-tick:
			if peerClosed(c.nc) {
				c.close("the client closed the connection while the broker was silent")
				return false
			}
		case <-c.done:
			return false
		}
	}
}

// outcome answers ApiVersions and incremental fetch sessions itself and asks
// the Backend for everything else, waiting for the Outcome; false when the
// connection was closed meanwhile.
func (c *conn) outcome(in inbound) (Outcome, bool) {
	switch req := in.req.(type) {
	case nil: // ApiVersions at an unsupported version
		resp, _ := c.s.Versions().apiVersionsResponse(nil, in.hdr.APIVersion)
		return Respond(resp), true
	case *kmsg.ApiVersionsRequest:
		resp, ok := c.s.Versions().apiVersionsResponse(req, in.hdr.APIVersion)
		if ok && req.Version >= 3 {
			c.mu.Lock()
			c.info.ClientSoftwareName, c.info.ClientSoftwareVersion = req.ClientSoftwareName, req.ClientSoftwareVersion
			c.mu.Unlock()
		}
		return Respond(resp), true
	case *kmsg.FetchRequest:
		if req.Version >= 7 && req.SessionEpoch != 0 && req.SessionEpoch != -1 {
			resp := req.ResponseKind().(*kmsg.FetchResponse)
			resp.SetVersion(req.Version)
			resp.ErrorCode = errFetchSessionNotFound
			return Respond(resp), true
		}
	}
	p := c.s.cfg.Backend.Submit(c.info.Broker, c.snapshot(), in.req, in.body)
	select {
	case out := <-p.Done():
		return c.check(in, out)
	default:
	}
	t := time.NewTicker(peerCheck)
	defer t.Stop()
	for {
		wake := c.s.wakeChan()
		select {
		case out := <-p.Done():
			return c.check(in, out)
		case <-t.C:
			if peerClosed(c.nc) {
				c.close("the client closed the connection while its " + keyName(in.req.Key()) + " waited")
				return Outcome{}, false
			}
		case <-wake:
			// A broker that went down while a request waited closes the
			// connection; a silent one keeps it.
			if c.s.cfg.Backend.State(c.info.Broker, c.snapshot()) == Refusing {
				c.close("the broker is down")
				return Outcome{}, false
			}
		case <-c.done:
			return Outcome{}, false
		}
	}
}

// check applies what the server enforces on a Backend's Outcome: a response of
// the request's key at its version, and acks=0 (no response; a failed
// partition closes the connection, as KafkaApis.handleProduceRequest does).
func (c *conn) check(in inbound, out Outcome) (Outcome, bool) {
	if out.Close || out.Response == nil {
		if out.Close && out.Reason == "" {
			out.Reason = "closed by the backend"
		}
		return out, true
	}
	if out.Response.Key() != in.req.Key() {
		return CloseConn(fmt.Sprintf("internal error: the backend answered %s to %s", keyName(out.Response.Key()), keyName(in.req.Key()))), true
	}
	out.Response.SetVersion(in.hdr.APIVersion)
	if f, ok := out.Response.(*kmsg.FetchResponse); ok {
		emptyRecords(f)
	}
	if p, ok := in.req.(*kmsg.ProduceRequest); ok && p.Acks == 0 {
		resp := out.Response.(*kmsg.ProduceResponse)
		for _, t := range resp.Topics {
			for _, pt := range t.Partitions {
				if pt.ErrorCode != 0 {
					return CloseConn(fmt.Sprintf("acks=0 produce to %s-%d failed with error %d", t.Topic, pt.Partition, pt.ErrorCode)), true
				}
			}
		}
		return Outcome{}, true
	}
	return out, true
}

// emptyRecords makes every null RecordBatches of f empty: Kafka sends
// MemoryRecords.EMPTY, never null, and librdkafka rejects a null record set
// ("invalid MessageSetSize -1").
func emptyRecords(f *kmsg.FetchResponse) {
	for i := range f.Topics {
		for j := range f.Topics[i].Partitions {
			if p := &f.Topics[i].Partitions[j]; p.RecordBatches == nil {
				p.RecordBatches = []byte{}
			}
		}
	}
}

// write sends one response: int32 size, correlation id, the response header's
// tagged fields where the response is flexible (response header v1; never for
// ApiVersions, whose response header is always v0 so that a client can read it
// at any version, KIP-511), then the body.
func (c *conn) write(hdr RequestHeader, resp kmsg.Response) bool {
	buf := make([]byte, 8, 64)
	binary.BigEndian.PutUint32(buf[4:], uint32(hdr.CorrelationID))
	if resp.IsFlexible() && resp.Key() != apiVersionsKey {
		buf = append(buf, 0)
	}
	buf = resp.AppendTo(buf)
	binary.BigEndian.PutUint32(buf, uint32(len(buf)-4))
	if c.s.idle > 0 {
		c.nc.SetWriteDeadline(time.Now().Add(c.s.idle))
	}
	if _, err := c.nc.Write(buf); err != nil {
		c.close("write: " + err.Error())
		return false
	}
	c.touch()
	return true
}
