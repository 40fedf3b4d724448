package client

// Result is what a producer was told about one record.
//
// Without idempotence a retry after NOT_ENOUGH_REPLICAS_AFTER_APPEND or a
// timeout may write a record twice, as Kafka before 3.0 did by default.
type Result struct {
	Key, Value string
	Partition  int32
	// Offset is the acknowledged offset, -1 while pending, after an error,
	// and for acks=0 (no answer).
	Offset int64
	// Error is the final error ("" if acknowledged or pending).
	Error string
	// Acked and Failed say how it ended; neither means pending. Acked
	// with Acks 0 means sent: no answer comes.
	Acked, Failed bool
	// Lost marks an acknowledged record that the partition no longer
	// holds: a replica that lacked it became leader ([Producer.MarkLost]).
	Lost bool
	// Acks is the acks setting it was sent with (-1 = all).
	Acks int16
	// Attempts counts sends (a request whose connection was refused not
	// counted: the batch never left).
	Attempts int
	// LastError is the latest retriable error, if any, or
	// LEADER_NOT_AVAILABLE while its batch waits at the head of its
	// partition's deque for a leader.
	LastError string
	// Null marks a tombstone (null value; Value shows "∅").
	Null bool
	// Sequence is the idempotent producer's sequence number of the record
	// in its partition, -1 without idempotence.
	Sequence int32
	// ProducerEpoch is the idempotent producer's epoch the record was (last)
	// sent with: 0, one more after each record that finally failed.
	ProducerEpoch int16

	firstSentMs int64
	// timestampMs is the record's timestamp (CreateTime: when it was
	// produced, or what the application set, stamped).
	timestampMs int64
	// stamped: the application set timestampMs (Produce's timestampMs).
	stamped bool
	// batch lists the results sent together with this one, this one included
	// (nil: sent alone), by result index.
	batch     []int
	lingering bool  // waiting in an open batch (LingerMs)
	held      bool  // waiting for the producer's transaction (InitProducerId, AddPartitionsToTxn)
	sentEpoch int16 // the producer epoch of the latest send
	sentTo    int32 // the broker of the latest send
	// queued: waiting in its partition's deque to be sent, not before
	// retryAtMs (0: at once) ([Producer.drain])
	queued    bool
	retryAtMs int64
	inflight  int64 // correlation id in flight, 0 if none
	sentMs    int64
}
