package truncation

import "github.com/kafkalive/kafkalive/exercises/todo"

// TruncationPoint is one round of a follower's truncation under Kafka 2.8+
// rules. Read notes/05-leader-epochs.md#offsetsforleaderepoch.
//
// own is the follower's epoch cache, leo its log end offset, hw its high
// watermark, and answer the leader's reply to "where does my latest epoch end
// on your log?". Return where the follower cuts its log (never past leo), and
// done = false when it must ask again with its new latest epoch. The leader
// can give four kinds of answer:
//
//   - undefined (EndOffset is UndefinedOffset): keep the log, (leo, true)
//     (Kafka 2.8+; 2.0 to 2.7 cut at the HW);
//   - an end offset without an epoch (Epoch is NoEpoch, a pre-2.0 leader):
//     (min(end, leo), true);
//   - an epoch E the follower can look up in own, the way a leader answers:
//     the largest own epoch F <= E, ending where the next own epoch starts,
//     or at leo when F is own latest epoch; with no own epoch <= E at all, E
//     "ends" where own first epoch starts (F = E). If F < E the follower never
//     had E: cut at the end of F and ask again, (min(end of F, leo), false)
//     (KIP-279). If F = E: (min(leader's end, own end of E, leo), true);
//   - an epoch E newer than every epoch in own, or any epoch when own is
//     empty: the follower's lookup finds nothing (a leader would answer
//     undefined), so it cannot know where E ends on its log, and asking again
//     would bring the same answer. Trust the leader: (min(end, leo), true).
//     Read notes/05-leader-epochs.md#an-epoch-newer-than-the-followers.
//
// Check your work with: go test ./exercises/ch05/truncation
func TruncationPoint(own []EpochEntry, leo, hw int64, answer EpochEndOffset) (offset int64, done bool) {
	panic(todo.TODO) // delete this line and write one round
}

// Truncate runs the rounds of TruncationPoint until one is done, and returns
// the follower after the last cut. Read notes/05-leader-epochs.md#kip-279-another-round.
//
// Each round asks the leader (ask) for the follower's latest cached epoch,
// then cuts the log at the round's point: the log end offset becomes that
// point (a cut never lengthens the log), every cache entry starting at or
// after it goes (notes/05-leader-epochs.md#trimming-the-epoch-cache), and
// the high watermark becomes min(HW, LEO).
//
// A follower whose cache is empty has no epoch to ask about: it asks nothing
// and cuts at its high watermark, as Kafka does since 2.2
// (notes/05-leader-epochs.md#a-follower-with-no-epochs).
func Truncate(f Follower, ask func(epoch int32) EpochEndOffset) Follower {
	panic(todo.TODO) // delete this line and write the rounds
}
