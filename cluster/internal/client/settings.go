package client

import (
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// Settings are what every client of a world follows: the world's rules and
// pace, and the learner's parts the clients use in place of the library's.
type Settings struct {
	// Rules is the world's rule set: a producer's defaults are those of
	// the client of its time (see [ProducerConfig]).
	Rules replica.RuleSet
	// TickMs is the world's tick: a producer produces at its rate once a
	// tick, counting TickMs for it.
	TickMs int64
	// EncodeBatch is the producers' record batch encoder when not nil (the
	// world's Parts.EncodeBatch); it may decline a batch (ok false), and
	// the library's encoder makes it.
	EncodeBatch func(dst []byte, b *kafkalog.RecordBatch) ([]byte, bool)
	// CooperativeSticky is the cooperative-sticky assignor of every group
	// member that lists it, when not nil (the world's
	// Parts.CooperativeSticky): the reference assigns a round it declines
	// or whose assignment [CheckAssignment] refuses.
	CooperativeSticky func(members []group.MemberSubscription, topics []group.TopicMetadata) (group.Assignment, bool)
	// ReadCommitted is what every read_committed consumer hands out of a
	// fetch, when not nil (the world's Parts.ReadCommitted): the offsets
	// it delivers from the batches fetched at fetchOffset, given the
	// fetch's aborted transactions as the leader lists them. The
	// reference filters a fetch it declines.
	ReadCommitted func(fetchOffset int64, batches []kafkalog.RecordBatch, aborted []kafkalog.AbortedTxn) ([]int64, bool)
}
