package cluster

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/cluster/internal/client"
	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/replica"
)

// EventKind says what an [Event] records.
type EventKind = event.Kind

// The event kinds.
const (
	// EventAction is an action from outside (a produce, a crash...).
	EventAction = event.Action
	// EventBroker is a broker starting, stopping, crashing, recovering.
	EventBroker = event.Broker
	// EventController is a controller decision: fencing, election, ISR.
	EventController = event.Controller
	// EventReplica is a replica's state change (role, HW, truncation, ISR).
	EventReplica = event.Replica
	// EventProduce is a producer's result: an acknowledgement or an error.
	EventProduce = event.Produce
	// EventConsume is a consumer reading records or losing its position.
	EventConsume = event.Consume
	// EventMessage is one delivered or dropped message ([Config.TraceMessages]).
	EventMessage = event.Message
	// EventViolation is an invariant the checker found broken.
	EventViolation = event.Violation
	// EventError is an internal error (a log that failed under a broker, a
	// message storm): the world records it and goes on ([World.InternalErrors]).
	EventError = event.Error
	// EventGroup is a consumer group's course: joins, assignments,
	// revocations, commits, session expiries, what members read.
	EventGroup = event.Group
	// EventStorage is retention deleting segments or the cleaner
	// compacting a log.
	EventStorage = event.Storage
)

// Event is one entry of the timeline.
type Event struct {
	// Seq is the event's number, from 0; on a bounded timeline the
	// events before [World.StartMs] fell off, and Seq still counts them.
	Seq int
	// TimeMs is the virtual time.
	TimeMs int64
	// Step is the index of the action during which it happened.
	Step int
	Kind EventKind
	// Broker is the broker concerned, 0 if none.
	Broker int32
	// Topic and Partition name the partition concerned (Topic "" if none).
	Topic     string
	Partition int32
	// Text says what happened.
	Text string
	// Impl names the part of [Config.Parts] whose code decided what the event
	// records ([PartEncoder], [PartRecovery], ...), "" for the reference.
	Impl string
}

// note is the text of an event not read yet: its format and arguments,
// none of which can change (frozen).
type note struct {
	format string
	args   []any
}

// frozen reports whether an event's text may be built from args later:
// whether each is a value nothing can change (a string, a number, a
// record's label, a replica's event), and if so makes it one (a
// replica's event's ISR is copied).
func frozen(args []any) bool {
	for i, a := range args {
		switch v := a.(type) {
		case string, int, int16, int32, int64, uint8, bool, float64, client.Label, replica.ErrorCode, EventKind:
		case replica.Event:
			if v.ISR != nil {
				v.ISR = slices.Clone(v.ISR)
				args[i] = v
			}
		default:
			return false
		}
	}
	return true
}

// String prints the event on one line, e.g.
// "t=1500 #3 replica b2 kip101-0: hw 1 -> 2".
func (e Event) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "t=%d #%d %s", e.TimeMs, e.Step, e.Kind)
	if e.Broker != 0 {
		fmt.Fprintf(&b, " b%d", e.Broker)
	}
	if e.Topic != "" {
		fmt.Fprintf(&b, " %s-%d", e.Topic, e.Partition)
	}
	b.WriteString(": ")
	b.WriteString(e.Text)
	return b.String()
}

// record appends an event to the timeline. Its text is built when it is
// read ([World.Events]) if its arguments are frozen (the format and args
// are kept till then), now if not.
func (w *World) record(kind EventKind, broker int32, tp *partitionKey, format string, args ...any) {
	if tp != nil && tp.Topic == OffsetsTopic && (kind == EventBroker || kind == EventReplica || kind == EventController) {
		return // the internal topic's replicas are not narrated; its records show in the groups
	}
	e := Event{Seq: w.eventBase + len(w.events), TimeMs: w.now, Step: w.actionBase + len(w.actions) - 1, Kind: kind, Broker: broker}
	var n note
	if frozen(args) {
		n = note{format: format, args: args}
	} else {
		e.Text = fmt.Sprintf(format, args...)
	}
	if tp != nil {
		e.Topic, e.Partition = tp.Topic, tp.Partition
	}
	if len(w.events) == cap(w.events) {
		// Double: append's growth of large slices (a quarter at a time)
		// would copy a long history four times as often.
		w.events = slices.Grow(w.events, max(len(w.events), 256))
	}
	w.events = append(w.events, e)
	w.notes = append(w.notes, n)
	if len(w.events) > MaxEvents {
		// The oldest half falls off, counted in eventBase, as it does
		// off a bounded timeline; snapshots older than what is kept
		// restore with no events before them.
		w.dropEvents(len(w.events) / 2)
	}
}

// dropEvents lets the oldest k events fall off (k at most their number),
// counted in eventBase. They are not copied away: the array they were in
// is let go when the events next outgrow it (record), so that a timeline
// bounded by time does not copy all it keeps each time its oldest
// snapshot falls off.
func (w *World) dropEvents(k int) {
	w.events = w.events[k:]
	w.eventBase += k
	if k <= w.built {
		w.built -= k
		return
	}
	w.notes = w.notes[k-w.built:]
	w.built = 0
}

// buildEvents builds the text of the events not read yet (notes[i] is
// events[built+i]'s, the zero note if it has its text). It runs before a world
// shares its events with another (Clone, a moment of the timeline), so
// that what two worlds share is never written again.
func (w *World) buildEvents() {
	for i, n := range w.notes {
		if n.format != "" {
			w.events[w.built+i].Text = fmt.Sprintf(n.format, n.args...)
		}
	}
	w.built, w.notes = len(w.events), w.notes[:0]
	clear(w.notes[:cap(w.notes)])
}

// MaxEvents is how many events a world keeps at most: past it, the oldest
// half falls off (a producer retrying thousands of records through a long
// outage records a line per answer, and a history of ten million would hold
// gigabytes). [Event.Seq] still counts from the first event.
const MaxEvents = 200_000
