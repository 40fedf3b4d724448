package cluster

import (
	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// Parts carries implementations of pieces of Kafka into the world, in place of the
// library's own: the learning kit's live mode plugs a learner's functions in with it
// (exercises/live). The zero value is the reference everywhere and costs a nil check
// where a part would be used. Each function answers ok = false to decline a call (its
// caller caught a panic, a call that did not return in time or a result out of range),
// and the reference answers that call instead.
//
// The world records which implementation decided what an event records: [Event.Impl]
// names the part ("" for the reference).
type Parts struct {
	// Log goes to every partition log the brokers open: the recovery of each segment
	// at every broker start, the lookup of a consumer's fetch, the retention rule,
	// the batches the cleaner rebuilds (not on the internal topic).
	Log kafkalog.Parts
	// EncodeBatch is the producers' record batch encoder (uncompressed, v2): each
	// batch a producer sends (one record, or with linger.ms several) travels as
	// the bytes it made, and the leader's log
	// validates them as Kafka's LogValidator does (CRC, lengths, the header's
	// offsets, count, control bit and sequence, records, their offset deltas); a
	// batch it refuses is answered CORRUPT_MESSAGE or INVALID_RECORD, and a wrong
	// maxTimestamp it corrects to the records' largest timestamp. Producers of
	// the internal topic (the group coordinator) are not concerned.
	EncodeBatch func(dst []byte, b *kafkalog.RecordBatch) ([]byte, bool)
	// TruncationPoint is the followers' truncation rule under the modern rules
	// (replica.Config.TruncationPoint).
	TruncationPoint func(own []replica.EpochEntry, leo, hw int64, answer replica.EpochEndOffset) (offset int64, done bool, ok bool)
	// Truncate is the followers' whole truncation under the v2.1 rules, in
	// OffsetsForLeaderEpoch rounds (replica.Config.Truncate): each question it
	// asks is a request to the leader over the world's network.
	Truncate func(f replica.FollowerState, ask func(epoch int32) replica.EpochEndOffset) (replica.FollowerState, bool)
	// CooperativeSticky is the cooperative-sticky assignor of every group member
	// that lists it (CooperativeStickyAssignor.assign); the world refuses an
	// assignment that gives a partition that does not exist, gives one to two
	// members, or leaves a member out, and the reference assigns that round.
	CooperativeSticky func(members []group.MemberSubscription, topics []group.TopicMetadata) (group.Assignment, bool)
	// ReadCommitted is what every read_committed consumer hands out of a
	// fetch (CompletedFetch.nextFetchedRecord): the offsets it delivers
	// from the batches fetched at fetchOffset (below the last stable
	// offset), given the fetch's aborted transactions in the order the
	// leader's .txnindex lists them. The consumer passes every other
	// record, as it passes markers; a fetch it declines, or that began
	// inside a batch, the reference filters.
	ReadCommitted func(fetchOffset int64, batches []kafkalog.RecordBatch, aborted []kafkalog.AbortedTxn) ([]int64, bool)
}

// The parts an [Event.Impl] names.
const (
	PartEncoder    = event.PartEncoder
	PartLookup     = event.PartLookup
	PartRetention  = event.PartRetention
	PartRecovery   = event.PartRecovery
	PartTruncation = event.PartTruncation
	PartAssignor   = event.PartAssignor
	// PartReadCommitted names the read_committed consumers' filter.
	PartReadCommitted = event.PartReadCommitted
)

// markLast sets the Impl of the last event recorded.
func (w *World) markLast(impl string) {
	if n := len(w.events); n > 0 {
		w.events[n-1].Impl = impl
	}
}
