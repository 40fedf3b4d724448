package replica

import (
	"maps"
	"slices"
)

// Clone returns an independent copy of the node over log, which must be the
// node's owner's copy of the node's log (the clone of its [Log], in the same
// state): its role, epochs, replicas and ISR, high watermark, the leader's
// view of its followers, parked fetches and produces, idempotent producers'
// sequences and pending ISR proposal, the follower's fetch state and
// truncation, and the output not yet handed out by [Node.Ready]. From then on
// the two change apart, and alike under the same calls.
//
// What it shares, and why that is safe:
//   - the messages, produce answers, ISR proposals and events not yet handed
//     out, as values: the slices they carry (records fetched, ISRs) are never
//     changed once emitted, by the node or its caller ([Message]);
//   - the Config, its functions as they are.
//
// The rest is copied: a clone costs one copy of each followers' progress,
// parked request and producer (a producer's state is its epoch and last
// five batches, whatever its history).
func (n *Node) Clone(log Log) *Node {
	c := *n
	c.log = log
	c.replicas, c.isr = slices.Clone(n.replicas), slices.Clone(n.isr)
	c.lead = n.lead.clone()
	c.follow.part = n.follow.part.clone()
	c.out = Ready{
		Messages:         slices.Clone(n.out.Messages),
		ProduceResponses: slices.Clone(n.out.ProduceResponses),
		AlterPartitions:  slices.Clone(n.out.AlterPartitions),
		Events:           slices.Clone(n.out.Events),
		HighWatermark:    n.out.HighWatermark,
	}
	return &c
}

// clone returns a copy of the leader's state (see [Node.Clone]).
func (s leaderState) clone() leaderState {
	c := s
	c.pendingISR = slices.Clone(s.pendingISR)
	c.parkedFetches = slices.Clone(s.parkedFetches)
	c.parkedProduces = slices.Clone(s.parkedProduces)
	if s.followers != nil {
		c.followers = make(map[int32]*followerProgress, len(s.followers))
		for id, f := range s.followers {
			progress := *f
			c.followers[id] = &progress
		}
	}
	c.producers = maps.Clone(s.producers)
	return c
}

// clone returns a copy of the truncation handed to Config.Truncate, nil for
// none.
func (p *partTruncation) clone() *partTruncation {
	if p == nil {
		return nil
	}
	c := *p
	c.start.Epochs = slices.Clone(p.start.Epochs)
	c.asked, c.answers = slices.Clone(p.asked), slices.Clone(p.answers)
	return &c
}

// Clone returns an independent copy of the log: its entries, epoch cache and
// recovery point. The two share the entries, neither writing in place below
// what they share (a truncation below it makes the next append copy), so a
// clone costs a copy of the epoch cache, not of the records.
func (l *MemLog) Clone() *MemLog {
	c := *l
	l.shared = len(l.entries)
	c.entries, c.shared = slices.Clip(l.entries), l.shared
	c.cache = *l.cache.Clone()
	return &c
}

// Clone returns an independent copy of the cache.
func (c *EpochCache) Clone() *EpochCache { return &EpochCache{entries: slices.Clone(c.entries)} }
