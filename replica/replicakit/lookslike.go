package replicakit

import (
	"slices"

	"github.com/kafkalive/kafkalive/replica"
)

// pointOf calls a TruncationPoint on in.
func pointOf(tr Truncation) func(pointInput) pointOutput {
	return func(in pointInput) (out pointOutput) {
		out.Offset, out.Done = tr.TruncationPoint(slices.Clone(in.own), in.leo, in.hw, in.answer)
		return out
	}
}

// truncated is what a Truncate did: the follower it returned, and the epochs
// it asked the leader about.
type truncated struct {
	Follower Follower
	Asked    []int32
}

// truncateOf calls a Truncate on in, against in's leader, stopping it (by a
// panic, so that it does not match) when it asks more rounds than Kafka could
// need.
func truncateOf(tr Truncation) func(truncateInput) truncated {
	return func(in truncateInput) truncated {
		var asked []int32
		ask := limitedAsk(in)
		f := tr.Truncate(cloneFollower(in.f), func(e int32) replica.EpochEndOffset {
			asked = append(asked, e)
			return ask(e)
		})
		return truncated{cloneFollower(f), asked}
	}
}

// limitedAsk is in's leader answering, which panics (tooManyRounds) when
// asked more rounds than Kafka could need, so that a Truncate that never
// stops asking stops.
func limitedAsk(in truncateInput) func(int32) replica.EpochEndOffset {
	asked := 0
	return func(e int32) replica.EpochEndOffset {
		if asked++; asked > roundLimit(in.f) {
			panic(tooManyRounds{})
		}
		return in.l.answer(e)
	}
}
