package truncation

// NoEpoch is "no epoch" (Kafka's UNDEFINED_EPOCH, -1): what a follower with an
// empty epoch cache asks for, and the epoch of an answer that has none.
const NoEpoch int32 = -1

// UndefinedOffset is the end offset of an answer that has none (Kafka's
// UNDEFINED_EPOCH_OFFSET, -1): the leader knows nothing about that epoch.
const UndefinedOffset int64 = -1

// EpochEntry is one line of a leader-epoch-checkpoint file: from StartOffset
// on, records were written by the leader of Epoch.
type EpochEntry struct {
	Epoch       int32
	StartOffset int64
}

// EpochEndOffset is the leader's answer to OffsetsForLeaderEpoch (from Kafka
// 2.8, the DivergingEpoch of a Fetch answer): the largest epoch the leader has
// at or below the one asked about, and the offset where that epoch ends on
// the leader's log (the start of its next epoch, or its log end offset).
type EpochEndOffset struct {
	Epoch     int32
	EndOffset int64
}

// Follower is what a follower knows about its own log when it truncates.
type Follower struct {
	// Epochs is its leader epoch cache: epochs and start offsets, both
	// strictly increasing.
	Epochs []EpochEntry
	// LogEndOffset is the offset its next record would get.
	LogEndOffset int64
	// HighWatermark is the last high watermark it learnt from a leader.
	HighWatermark int64
}
