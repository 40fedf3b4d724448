package observe

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"time"
)

// Timeline is the samples the observer kept, oldest first, and the events
// derived from them. It is bounded: at most MaxSamples samples and about
// MaxBytes of what they do not share with the sample before them (a
// cluster at rest costs little more than one sample; one whose offsets
// move every second costs each sample its changed partitions), and at most
// MaxEvents events; the oldest fall off first. What fell off is gone: the
// timeline starts at its oldest sample ([Timeline.Start]).
type Timeline struct {
	maxSamples, maxEvents int
	maxBytes              int64
	samples               []*Sample
	// origin is when the first sample ever kept was taken: the moments
	// of the timeline are counted from it, whatever fell off since.
	origin time.Time
	bytes  int64
	events []Event
	// dropped counts the samples and events that fell off.
	droppedSamples, droppedEvents int
}

// newTimeline returns an empty timeline with the bounds of c.
func newTimeline(c Config) *Timeline {
	return &Timeline{maxSamples: c.MaxSamples, maxEvents: c.MaxEvents, maxBytes: c.MaxBytes}
}

// add appends s and the events it brought, dropping the oldest samples
// and events beyond the bounds (the newest sample always stays).
func (t *Timeline) add(s *Sample, events []Event) {
	if t.origin.IsZero() {
		t.origin = s.At
	}
	t.samples = append(t.samples, s)
	t.bytes += s.size
	drop := 0
	for len(t.samples)-drop > t.maxSamples || t.bytes > t.maxBytes && len(t.samples)-drop > 1 {
		t.bytes -= t.samples[drop].size
		drop++
	}
	if drop > 0 {
		clear(t.samples[:drop])
		t.samples = t.samples[drop:]
		t.droppedSamples += drop
	}
	t.events = append(t.events, events...)
	if over := len(t.events) - t.maxEvents; over > 0 {
		t.events = append(t.events[:0:0], t.events[over:]...)
		t.droppedEvents += over
	}
}

// Len returns how many samples it holds.
func (t *Timeline) Len() int { return len(t.samples) }

// Bytes returns the bytes its samples hold of their own (an estimate).
func (t *Timeline) Bytes() int64 { return t.bytes }

// Samples returns its samples, oldest first. The caller must not modify
// them.
func (t *Timeline) Samples() []*Sample { return t.samples }

// Latest returns the newest sample, nil before the first.
func (t *Timeline) Latest() *Sample {
	if len(t.samples) == 0 {
		return nil
	}
	return t.samples[len(t.samples)-1]
}

// Start returns when its oldest sample was taken (zero when empty).
func (t *Timeline) Start() time.Time {
	if len(t.samples) == 0 {
		return time.Time{}
	}
	return t.samples[0].At
}

// At returns the newest sample taken at or before at, nil if none is.
func (t *Timeline) At(at time.Time) *Sample {
	i := sort.Search(len(t.samples), func(i int) bool { return t.samples[i].At.After(at) })
	if i == 0 {
		return nil
	}
	return t.samples[i-1]
}

// Origin is when the first sample was taken (zero before it): a page
// counts the timeline's moments from it, so that a moment keeps its place
// when older samples fall off.
func (t *Timeline) Origin() time.Time { return t.origin }

// Events returns its events, oldest first. The caller must not modify
// them.
func (t *Timeline) Events() []Event { return t.events }

// Dropped returns how many samples and events fell off the start.
func (t *Timeline) Dropped() (samples, events int) { return t.droppedSamples, t.droppedEvents }

// LagPoint is a group's lag at one sample.
type LagPoint struct {
	Seq uint64    `json:"seq"`
	At  time.Time `json:"at"`
	// Lag is the high watermark minus the committed offset (summed over
	// the group's partitions when the series is the group's), NotObserved
	// when the sample did not tell it (a leader or the coordinator did
	// not answer, the group had no offset for it).
	Lag int64 `json:"lag"`
}

// Lag returns the lag over time of group on topic-partition, one point a
// sample, oldest first; with topic "" the group's lag summed over its
// partitions.
func (t *Timeline) Lag(group, topic string, partition int32) []LagPoint {
	out := make([]LagPoint, 0, len(t.samples))
	for _, s := range t.samples {
		out = append(out, LagPoint{Seq: s.Seq, At: s.At, Lag: s.Lag(group, topic, partition)})
	}
	return out
}

// Lag is the lag of group on topic-partition in s (summed with topic ""),
// NotObserved when s does not tell it.
func (s *Sample) Lag(group, topic string, partition int32) int64 {
	i, ok := slices.BinarySearchFunc(s.Groups, group, func(g *Group, name string) int { return strings.Compare(g.Name, name) })
	if !ok {
		return NotObserved
	}
	offs := s.Groups[i].Offsets
	if topic != "" {
		// the offsets are sorted by topic, then partition
		j, ok := slices.BinarySearchFunc(offs, TopicPartition{topic, partition}, func(o GroupOffset, k TopicPartition) int {
			return cmp.Or(strings.Compare(o.Topic, k.Topic), cmp.Compare(o.Partition, k.Partition))
		})
		if !ok {
			return NotObserved
		}
		return offs[j].Lag
	}
	lag := int64(NotObserved)
	for _, o := range offs {
		if o.Lag != NotObserved {
			lag = max(lag, 0) + o.Lag
		}
	}
	return lag
}

// Seq returns the sample numbered seq, nil if the timeline does not hold
// it (it fell off, or was never taken).
func (t *Timeline) Seq(seq uint64) *Sample {
	if len(t.samples) == 0 || seq < t.samples[0].Seq {
		return nil
	}
	i := seq - t.samples[0].Seq // the samples kept are numbered one after the other
	if i >= uint64(len(t.samples)) {
		return nil
	}
	return t.samples[i]
}
