package observe

import (
	"context"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Observer polls a Kafka cluster about once an Interval with read-only
// requests and keeps the samples as a [Timeline]. Its methods are safe
// for concurrent use.
type Observer struct {
	cfg    Config
	cl     *kgo.Client
	count  *counter
	poller *poller

	pollMu sync.Mutex // one poll at a time

	mu       sync.Mutex
	basis    basis
	timeline *Timeline
	changed  chan struct{} // closed and replaced at each sample
}

// New returns an observer of the cluster cfg names; nothing is sent
// before Poll or Run.
func New(cfg Config) (*Observer, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	count := &counter{}
	cl, err := kgo.NewClient(cfg.clientOpts(count)...)
	if err != nil {
		return nil, err
	}
	o := &Observer{cfg: cfg, cl: cl, count: count, timeline: newTimeline(cfg), changed: make(chan struct{})}
	o.poller = &poller{cl: cl, adm: kadm.NewClient(cl), requests: count, timeout: cfg.PollTimeout}
	return o, nil
}

// Close closes the observer's connections.
func (o *Observer) Close() { o.cl.Close() }

// Poll polls once now and returns the sample, which the timeline keeps.
// It returns by Config.PollTimeout, or when ctx is done, with what was
// answered by then. Polls do not overlap: Run and Poll wait for each other.
func (o *Observer) Poll(ctx context.Context) *Sample {
	o.pollMu.Lock()
	defer o.pollMu.Unlock()
	s := o.poller.poll(ctx, time.Now())
	o.mu.Lock()
	evs := o.basis.events(s)
	o.timeline.add(s, evs)
	close(o.changed)
	o.changed = make(chan struct{})
	o.mu.Unlock()
	return s
}

// Run polls every Interval until ctx is done; a poll that takes longer
// than the interval is followed by the next at once.
func (o *Observer) Run(ctx context.Context) {
	t := time.NewTicker(o.cfg.Interval)
	defer t.Stop()
	for {
		o.Poll(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Look runs fn on the timeline, holding it still.
func (o *Observer) Look(fn func(t *Timeline)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	fn(o.timeline)
}

// Latest returns the newest sample, nil before the first poll.
func (o *Observer) Latest() *Sample {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.timeline.Latest()
}

// Changed returns a channel closed at the next sample.
func (o *Observer) Changed() <-chan struct{} {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.changed
}

// Sent returns how many requests the observer wrote of each api key
// since it started, and the keys it wrote outside [ReadOnlyKeys] (none:
// a request outside them is refused before it is sent).
func (o *Observer) Sent() (byKey map[int16]int, others []int16) {
	o.count.mu.Lock()
	defer o.count.mu.Unlock()
	byKey = make(map[int16]int, len(o.count.keys))
	for k, n := range o.count.keys {
		byKey[k] = n
	}
	return byKey, append([]int16(nil), o.count.others...)
}
