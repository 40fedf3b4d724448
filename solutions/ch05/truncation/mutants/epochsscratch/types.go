package epochsscratch

import (
	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/replica/replicakit"
)

// NoEpoch is "no epoch" (Kafka's UNDEFINED_EPOCH, -1).
const NoEpoch = replica.NoEpoch

// UndefinedOffset is the end offset of an answer that has none (Kafka's
// UNDEFINED_EPOCH_OFFSET, -1).
const UndefinedOffset = replica.UndefinedOffset

type (
	// EpochEntry is the suite's type, so that the bank runs this mistake as it is.
	EpochEntry = replica.EpochEntry
	// EpochEndOffset is the suite's type.
	EpochEndOffset = replica.EpochEndOffset
	// Follower is the suite's type.
	Follower = replicakit.Follower
)
