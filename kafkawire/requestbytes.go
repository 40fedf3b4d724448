package kafkawire

import "sync"

// DefaultQueuedMaxRequestBytes is the bytes of client requests the server
// holds at most, across every connection and broker: 256 MiB. Kafka's
// queued.max.request.bytes defaults to -1 (unbounded, requests are bounded
// by queued.max.requests, 500, instead); a bound in bytes is what keeps a
// server of a few GB alive whatever its clients send.
const DefaultQueuedMaxRequestBytes = 256 << 20

// requestBytes counts the bytes of the requests read and not yet served,
// across the server's connections, against queued.max.request.bytes, as
// Kafka 3.7's SocketServer does with a SimpleMemoryPool in non-strict mode
// (created with queued.max.request.bytes and socket.request.max.bytes): a
// frame's bytes are taken once its size is read, whenever any of the
// bound is left (so the bytes held reach at most the bound plus one
// frame); when none is, the connection reads nothing more until bytes are
// released, as Kafka's Selector mutes a channel under memory pressure.
// Nothing is refused or closed for it: the client waits, as its requests
// wait in Kafka.
type requestBytes struct {
	limit int64 // queued.max.request.bytes; <= 0: unbounded

	mu    sync.Mutex
	held  int64
	freed chan struct{} // closed and replaced when bytes are released
}

func newRequestBytes(limit int64) *requestBytes {
	return &requestBytes{limit: limit, freed: make(chan struct{})}
}

// take takes n bytes, waiting while none of the bound is left; first is
// called once if it has to wait. It returns false, having taken nothing,
// if done is closed first.
func (p *requestBytes) take(n int64, done <-chan struct{}, first func(held int64)) bool {
	waited := false
	for {
		p.mu.Lock()
		if p.limit <= 0 || p.held < p.limit {
			p.held += n
			p.mu.Unlock()
			return true
		}
		held, freed := p.held, p.freed
		p.mu.Unlock()
		if !waited && first != nil {
			first(held)
		}
		waited = true
		select {
		case <-freed:
		case <-done:
			return false
		}
	}
}

// release gives back n bytes taken and wakes the connections waiting.
func (p *requestBytes) release(n int64) {
	if n == 0 {
		return
	}
	p.mu.Lock()
	p.held -= n
	close(p.freed)
	p.freed = make(chan struct{})
	p.mu.Unlock()
}

// inUse returns the bytes held.
func (p *requestBytes) inUse() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}
