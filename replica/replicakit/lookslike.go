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

// truncateOf calls a Truncate on in, against in's leader, stopping it (by a
// panic, so that it does not match) when it asks more rounds than Kafka could
// need.
func truncateOf(tr Truncation) func(truncateInput) Follower {
	return func(in truncateInput) Follower {
		asked := 0
		return tr.Truncate(cloneFollower(in.f), func(e int32) replica.EpochEndOffset {
			if asked++; asked > roundLimit(in.f) {
				panic(tooManyRounds{})
			}
			return in.l.answer(e)
		})
	}
}
