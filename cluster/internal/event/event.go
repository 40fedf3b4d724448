// Package event is the vocabulary the simulated cluster's machines share
// to tell the world what happened: the kinds of event, and the note a
// machine hands the world's recorder. The world stamps each note with its
// time, step and sequence number and keeps it on the timeline
// (cluster.Event).
package event

import "github.com/kafkalive/kafkalive/kafkalog"

// Kind says what an event records.
type Kind string

// The event kinds.
const (
	// Action is an action from outside (a produce, a crash...).
	Action Kind = "action"
	// Broker is a broker starting, stopping, crashing, recovering.
	Broker Kind = "broker"
	// Controller is a controller decision: fencing, election, ISR.
	Controller Kind = "controller"
	// Replica is a replica's state change (role, HW, truncation, ISR).
	Replica Kind = "replica"
	// Produce is a producer's result: an acknowledgement or an error.
	Produce Kind = "produce"
	// Consume is a consumer reading records or losing its position.
	Consume Kind = "consume"
	// Message is one delivered or dropped message (Config.TraceMessages).
	Message Kind = "message"
	// Violation is an invariant the checker found broken.
	Violation Kind = "violation"
	// Error is an internal error (a log that failed under a broker, a
	// message storm): the world records it and goes on.
	Error Kind = "error"
	// Group is a consumer group's course: joins, assignments,
	// revocations, commits, session expiries, what members read.
	Group Kind = "group"
	// Storage is retention deleting segments or the cleaner compacting a
	// log.
	Storage Kind = "storage"
	// Transaction is a transaction's course at its coordinator and on its
	// partitions: InitProducerId, partitions added, EndTxn, markers written,
	// timeouts and fencing.
	Transaction Kind = "transaction"
)

// Recorder takes the machines' notes for the timeline.
type Recorder interface {
	// Record notes what happened: its kind, the broker concerned (0 if
	// none), the partition concerned (nil if none), and the text.
	Record(kind Kind, broker int32, tp *kafkalog.TopicPartition, format string, args ...any)
	// MarkLast says which part of the learner's code decided the last
	// note ("" for the reference).
	MarkLast(impl string)
}

// The parts of a learner's code a note may name (Recorder.MarkLast): the
// producers' batch encoder, the log's lookup, retention and recovery, the
// followers' truncation, the cooperative-sticky assignor, the
// read_committed consumers' filter.
const (
	PartEncoder    = "encoder"
	PartLookup     = "lookup"
	PartRetention  = "retention"
	PartRecovery   = "recovery"
	PartTruncation = "truncation"
	PartAssignor   = "assignor"
	// PartReadCommitted is the read_committed consumers' filter.
	PartReadCommitted = "read-committed"
)
