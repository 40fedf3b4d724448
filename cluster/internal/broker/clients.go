package broker

import (
	"cmp"
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// The brokers remember what they saw of each client (the page's list of
// clients, "cut client N"), and forget it as Kafka forgets a client: a
// client that sends nothing for [ClientExpiryMs] of the world's time, with
// no request waiting, is forgotten at the next sweep (every
// [ClientSweepMs]); and at most [MaxClients] are remembered, the least
// recently active forgotten first. So clients that come and go, each with
// a client.id of its own, cost what the last hour's clients cost, and no
// work is done per client per tick.

// ClientExpiryMs is how long the brokers remember a client that sends
// nothing: an hour, as Kafka 3.7 keeps a client.id's quota sensors
// (ClientQuotaManager.InactiveSensorExpirationTimeSeconds, 3600), the
// per-client state a broker keeps beyond a connection; a connection idle
// for connections.max.idle.ms (10 minutes) is closed long before.
const ClientExpiryMs = 60 * 60 * 1000

// ClientSweepMs is how often Tick looks for idle clients: every 30 s, as
// Kafka's Metrics expires sensors (Metrics.ExpireSensorTask).
const ClientSweepMs = 30 * 1000

// MaxClients bounds the clients remembered at once (the simulation's own
// bound; Kafka's nearest is max.connections, unbounded by default): a
// client with a client.id of its own per request cannot grow the world's
// memory beyond it. Over it, a sweep forgets the least recently active
// quarter of those that wait for nothing.
const MaxClients = 10_000

// MaxAckedRanges bounds the runs of offsets acknowledged to one client
// that the brokers keep to count the records lost after their
// acknowledgement (Client.LostAfterAck; Kafka keeps none, a client alone
// knows what it was told): over it the oldest run is forgotten, and its
// records are no longer counted if they are lost. A sweep also keeps the
// runs of all clients together within MaxAckedRangesTotal (2 MiB), each
// client its newest.
const (
	MaxAckedRanges      = 1024
	MaxAckedRangesTotal = 1 << 16
)

// Client is what the brokers saw of one client.
type Client struct {
	// Number is the client's number (node netsim.ExternalNode(Number)).
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
	// longer holds ([Requests.MarkLostAfterAck]).
	Sent, Acked, Failed, SentNoAck, LostAfterAck int
	// Fetched counts the record bytes its fetches returned.
	Fetched int64
	// LastError is the latest error a partition of its answered.
	LastError string
	// LastMs is the world's time at its latest request.
	LastMs int64
	// acked are the runs of offsets acknowledged to it, for LostAfterAck
	// (at most MaxAckedRanges).
	acked []ackedRange
}

// Clients returns what the brokers remember of each client, by number:
// those heard from within [ClientExpiryMs] or waiting for an answer. The
// caller must not modify it.
func (rq *Requests) Clients() []Client { return rq.clients }

// clientAt returns client n's record, nil if the brokers do not remember
// it.
func (rq *Requests) clientAt(n int32) *Client {
	i, ok := slices.BinarySearchFunc(rq.clients, n, func(c Client, n int32) int { return cmp.Compare(c.Number, n) })
	if !ok {
		return nil
	}
	return &rq.clients[i]
}

// client returns client x.Client's record, adding it if new, and counts
// x.
func (rq *Requests) client(env Env, x *Request) *Client {
	i, ok := slices.BinarySearchFunc(rq.clients, x.Client, func(c Client, n int32) int { return cmp.Compare(c.Number, n) })
	if !ok {
		rq.clients = slices.Insert(rq.clients, i, Client{Number: x.Client, ProducerID: -1})
	}
	c := &rq.clients[i]
	c.ClientID, c.Remote, c.LastMs = x.ClientID, x.Remote, env.Now()
	if c.Requests == nil {
		c.Requests = map[string]int{}
	}
	c.Requests[kmsg.NameForKey(x.Key)]++
	if !ok && len(rq.clients) > rq.clientLimit() {
		rq.sweepMs = env.Now() // forget some at the next Tick
	}
	return c
}

// clientLimit is the most clients remembered at once.
func (rq *Requests) clientLimit() int {
	if rq.maxClients > 0 {
		return rq.maxClients
	}
	return MaxClients
}

// forgetIdle forgets, every ClientSweepMs, the clients idle for
// ClientExpiryMs that wait for nothing, and then, while more than the
// limit remain, the least recently active (the lowest numbers first on a
// tie) of those that wait for nothing, down to three quarters of it; over
// the limit still (the others wait), it sweeps again at the next tick.
func (rq *Requests) forgetIdle(env Env) {
	now := env.Now()
	if now < rq.sweepMs || len(rq.clients) == 0 {
		return
	}
	rq.sweepMs = now + ClientSweepMs
	waits := map[int32]bool{}
	for _, p := range rq.pending {
		waits[p.client] = true
	}
	forget := map[int32]bool{}
	var idle []*Client
	for i := range rq.clients {
		switch c := &rq.clients[i]; {
		case waits[c.Number]:
		case c.LastMs < now-ClientExpiryMs:
			forget[c.Number] = true
		default:
			idle = append(idle, c)
		}
	}
	if over := len(rq.clients) - len(forget) - rq.clientLimit()*3/4; len(rq.clients)-len(forget) > rq.clientLimit() && over > 0 {
		slices.SortFunc(idle, func(a, b *Client) int {
			return cmp.Or(cmp.Compare(a.LastMs, b.LastMs), cmp.Compare(a.Number, b.Number))
		})
		for _, c := range idle[:min(over, len(idle))] {
			forget[c.Number] = true
		}
	}
	if len(forget) > 0 {
		rq.clients = slices.DeleteFunc(rq.clients, func(c Client) bool { return forget[c.Number] })
		if len(rq.clients) > 0 && cap(rq.clients) > 2*len(rq.clients)+16 {
			rq.clients = slices.Clone(rq.clients) // let the forgotten go
		}
	}
	if len(rq.clients) > rq.clientLimit() {
		// Over the limit with requests waiting: sweep again at the next
		// tick (no more work than Tick's own walk of those requests).
		rq.sweepMs = now
	}
	rq.trimAcked()
}

// trimAcked keeps the clients' runs of acknowledged offsets within
// MaxAckedRangesTotal: while over, each client keeps its newest share.
func (rq *Requests) trimAcked() {
	total := 0
	for i := range rq.clients {
		total += len(rq.clients[i].acked)
	}
	if total <= MaxAckedRangesTotal {
		return
	}
	share := max(MaxAckedRangesTotal/len(rq.clients), 1)
	for i := range rq.clients {
		if c := &rq.clients[i]; len(c.acked) > share {
			c.acked = slices.Clone(c.acked[len(c.acked)-share:])
		}
	}
}
