package truncation

import "github.com/kafkalive/kafkalive/exercises/todo"

// TruncationPoint is one round of a follower's truncation under Kafka 2.1+
// rules. Read notes/05-leader-epochs.md#offsetsforleaderepoch.
//
// own is the follower's epoch cache, leo its log end offset, hw its high
// watermark, and answer the leader's reply to "where does my latest epoch end
// on your log?". Return where the follower cuts its log (never past leo), and
// done = false when it must ask again with its new latest epoch:
//
//   - an undefined answer keeps the log: (leo, true);
//   - an answer without an epoch: (min(end, leo), true);
//   - otherwise look the answer's epoch E up in own, the way a leader answers
//     (the largest own epoch F <= E, ending where the next own epoch starts,
//     or at leo for the latest; with no own epoch <= E, E "ends" where own
//     first epoch starts): if F < E the follower never had E, so cut at the
//     end of F and ask again (KIP-279); if F = E cut at min(leader's end, own
//     end, leo) and stop. An empty cache cuts at min(end, leo).
//
// Check your work with: go test ./exercises/ch05/truncation
func TruncationPoint(own []EpochEntry, leo, hw int64, answer EpochEndOffset) (offset int64, done bool) {
	panic(todo.TODO) // delete this line and write one round
}

// Truncate runs the rounds of TruncationPoint until one is done, and returns
// the follower after the last cut. Read notes/05-leader-epochs.md#kip-279-another-round.
//
// Each round asks the leader (ask) for the follower's latest cached epoch
// (NoEpoch when the cache is empty), then cuts the log at the round's point:
// the log end offset becomes that point (a cut never lengthens the log),
// every cache entry starting at or after it goes
// (notes/05-leader-epochs.md#trimming-the-epoch-cache), and the high
// watermark becomes min(HW, LEO).
func Truncate(f Follower, ask func(epoch int32) EpochEndOffset) Follower {
	panic(todo.TODO) // delete this line and write the rounds
}
