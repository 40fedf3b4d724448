package truncation

import (
	"testing"

	"github.com/kafkalive/kafkalive/replica"
	"github.com/kafkalive/kafkalive/replica/replicakit"
	"github.com/kafkalive/kafkalive/solutions/bank"
)

func TestTruncation(t *testing.T) {
	replicakit.TestTruncation(t, replicakit.Truncation{TruncationPoint: truncationPoint, Truncate: truncate}, bank.Truncation()...)
}

// truncationPoint and truncate call the exercise's functions with the suite's types.
func truncationPoint(own []replica.EpochEntry, leo, hw int64, answer replica.EpochEndOffset) (int64, bool) {
	return TruncationPoint(fromSuite(own), leo, hw, EpochEndOffset(answer))
}

func truncate(f replicakit.Follower, ask func(int32) replica.EpochEndOffset) replicakit.Follower {
	got := Truncate(Follower{Epochs: fromSuite(f.Epochs), LogEndOffset: f.LogEndOffset, HighWatermark: f.HighWatermark},
		func(epoch int32) EpochEndOffset { return EpochEndOffset(ask(epoch)) })
	out := replicakit.Follower{LogEndOffset: got.LogEndOffset, HighWatermark: got.HighWatermark}
	for _, e := range got.Epochs {
		out.Epochs = append(out.Epochs, replica.EpochEntry(e))
	}
	return out
}

func fromSuite(es []replica.EpochEntry) []EpochEntry {
	var out []EpochEntry
	for _, e := range es {
		out = append(out, EpochEntry(e))
	}
	return out
}
