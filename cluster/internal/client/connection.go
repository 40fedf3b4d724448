package client

import "github.com/kafkalive/kafkalive/replica"

// Reconnect backoff (Kafka's NetworkClient and ClusterConnectionStates).
const (
	// ReconnectBackoffMs is reconnect.backoff.ms's default: how long a
	// producer waits before connecting again to a broker it could not
	// reach.
	ReconnectBackoffMs = 50
	// ReconnectBackoffMaxMs is reconnect.backoff.max.ms's default: since
	// Kafka 0.11 (KIP-144) the wait doubles with each failure in a row up
	// to it.
	ReconnectBackoffMaxMs = 1000
)

// connState is what a producer knows of its connection to a broker that
// refused it: how many connection attempts failed in a row, when it may
// try again, and the request whose refusal it counted last.
type connState struct {
	failures  int
	retryAtMs int64
	corr      int64
}

// connectionRefused notes that request corr to broker found no broker
// running: the producer sends nothing to it for the reconnect backoff, as
// Kafka's NetworkClient refuses to send to a node until its connection
// delay passed (ClusterConnectionStates.updateReconnectBackoff): 50 ms
// (reconnect.backoff.ms), doubled with each failure in a row up to 1 s
// (reconnect.backoff.max.ms) since Kafka 0.11 (KIP-144); before, 50 ms
// each time. The ±20% jitter is not modelled. The partitions of
// requests refused together count one failure.
func (p *Producer) connectionRefused(env Env, broker int32, corr int64) {
	c := p.conns[broker]
	if c.corr == corr {
		return
	}
	backoff := int64(ReconnectBackoffMs)
	if p.settings.Rules >= replica.V0_11 {
		for k := 0; k < c.failures && backoff < ReconnectBackoffMaxMs; k++ {
			backoff *= 2
		}
		backoff = min(backoff, ReconnectBackoffMaxMs)
	}
	if p.conns == nil {
		p.conns = map[int32]connState{}
	}
	p.conns[broker] = connState{failures: c.failures + 1, retryAtMs: env.Now() + backoff, corr: corr}
}

// connected notes an answer from broker: its connection works.
func (p *Producer) connected(broker int32) { delete(p.conns, broker) }

// connecting reports whether the producer waits out the reconnect
// backoff of broker.
func (p *Producer) connecting(env Env, broker int32) bool {
	c, ok := p.conns[broker]
	return ok && env.Now() < c.retryAtMs
}
