package replicakit

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/replica"
	"pgregory.net/rapid"
)

// Follower is what a follower knows about its own log when it truncates.
type Follower struct {
	// Epochs is its leader epoch cache (leader-epoch-checkpoint): (epoch,
	// start offset) pairs, both strictly increasing.
	Epochs []replica.EpochEntry
	// LogEndOffset is the offset its next record would get.
	LogEndOffset int64
	// HighWatermark is the last high watermark it learnt from a leader.
	HighWatermark int64
}

// Truncation is the surface of exercise ch05/truncation, under Kafka 2.8+
// rules (KIP-279's rounds; from 2.8 the answer arrives as a Fetch's
// DivergingEpoch instead of an OffsetsForLeaderEpoch answer, and an undefined
// answer keeps the log). The oracle is [replica.TruncationPoint] under
// [replica.Modern], checked against AbstractFetcherThread.getOffsetTruncationState
// and LeaderEpochFileCache.endOffsetFor at Kafka 3.7.0.
type Truncation struct {
	// TruncationPoint is one round: given the follower's epoch cache own, its
	// log end offset leo and high watermark hw, and the leader's answer (epoch,
	// end offset) to "where does my latest epoch end on your log?", it returns
	// where the follower cuts its log, and done = false when it must ask again
	// with its new latest epoch.
	TruncationPoint func(own []replica.EpochEntry, leo, hw int64, answer replica.EpochEndOffset) (offset int64, done bool)
	// Truncate runs rounds until one is done: ask the leader (ask) for the
	// follower's latest cached epoch (replica.NoEpoch when the cache is empty),
	// cut the log at the round's point, trim the epoch cache and the high
	// watermark, and return the follower as it is then.
	Truncate func(f Follower, ask func(epoch int32) replica.EpochEndOffset) Follower
}

var truncationExercise = kit.Exercise{
	Dir:  "exercises/ch05/truncation",
	File: "truncation.go",
	Note: note05 + "#offsetsforleaderepoch",
}

func probeTruncation(tr Truncation) error {
	undefined := replica.EpochEndOffset{Epoch: replica.NoEpoch, EndOffset: replica.UndefinedOffset}
	return truncationExercise.Probe(
		kit.Call{Func: "TruncationPoint", Do: func() { tr.TruncationPoint(nil, 0, 0, undefined) }},
		kit.Call{Func: "Truncate", Do: func() {
			tr.Truncate(Follower{}, func(int32) replica.EpochEndOffset { return undefined })
		}},
	)
}

// CheckTruncation checks tr against the truncations of the scenarios
// acks1-loses-acked-writes, kip101-part1 to kip101-part4 and kip279-two-rounds
// (KIP-101 and KIP-279), the epoch cache cases of Kafka's
// LeaderEpochFileCacheTest, each kind of answer the leader can give, and one
// case per known mistake, and
// returns the first violation.
func CheckTruncation(tr Truncation, known ...kit.Known[Truncation]) error {
	return checkTruncation(judgeTruncation(tr, known), kit.Replay("./"+truncationExercise.Dir, "TestTruncation"))
}

func checkTruncation(tr truncationSubject, replay string) error {
	if err := probeTruncation(tr.Truncation); err != nil {
		return err
	}
	var points []kit.KnownAnswer[pointInput]
	for _, c := range pointKnownAnswers() {
		points = append(points, kit.KnownAnswer[pointInput]{Name: c.name, In: c.in})
	}
	if f := kit.CheckKnown(points, func(in pointInput) *kit.Failure { return pointCase(tr, in) }, smallerPoint, replay); f != nil {
		return f
	}
	cases := truncateKnownAnswers()
	for _, c := range cases {
		if f := truncateCase(tr, c.follower, c.leader, nil); f != nil {
			f.Details = append([]string{"known answer: " + c.name}, f.Details...)
			f.Replay = replay
			return f
		}
	}
	for i := 1; i < len(cases); i++ {
		a, b := cases[i-1], cases[i]
		if f := truncateAliasCase(tr, truncateInput{a.follower, a.leader}, truncateInput{b.follower, b.leader}); f != nil {
			f.Details = append(f.Details, "known answers: "+a.name+", then "+b.name)
			f.Replay = replay
			return f
		}
	}
	return nil
}

// TruncationProperties returns a rapid property that plays a random history
// of leader elections (clean and unclean), appends and replication on three
// replicas, then makes a follower truncate against the current leader with
// tr, and checks both functions against Kafka's rules and the records: the
// follower must keep exactly the longest common prefix of the two logs.
func TruncationProperties(tr Truncation, known ...kit.Known[Truncation]) func(*rapid.T) {
	return truncationProperties(judgeTruncation(tr, known), kit.Replay("./"+truncationExercise.Dir, "TestTruncation/histories"))
}

// TestTruncation runs CheckTruncation and TruncationProperties as subtests of t.
func TestTruncation(t *testing.T, impl Truncation, known ...kit.Known[Truncation]) {
	t.Helper()
	tr := judgeTruncation(impl, known)
	kit.Run(t, 1, kit.Suite{
		Exercise:  truncationExercise,
		Probe:     func() error { return probeTruncation(impl) },
		Check:     func(replay string) error { return checkTruncation(tr, replay) },
		Props:     func(replay string) func(*rapid.T) { return truncationProperties(tr, replay) },
		PropsName: "histories",
	})
}

// pointInput is one round's question.
type pointInput struct {
	own    []replica.EpochEntry
	leo    int64
	hw     int64
	answer replica.EpochEndOffset
}

// pointOutput is one round's answer.
type pointOutput struct {
	Offset int64
	Done   bool
}

func (in pointInput) String() string {
	return fmt.Sprintf("TruncationPoint(own %s, leo %d, hw %d, answer %s)", formatEpochs(in.own), in.leo, in.hw, formatAnswer(in.answer))
}

// pointCase runs tr.TruncationPoint once and checks its answer.
func pointCase(tr truncationSubject, in pointInput) *kit.Failure {
	want := kafkaPoint(in)
	var got pointOutput
	if p := kit.Guard(func() { got.Offset, got.Done = tr.TruncationPoint(slices.Clone(in.own), in.leo, in.hw, in.answer) }); kit.IsTimeout(p) {
		rule, _ := pointWhy(in, want, pointOutput{Offset: -1})
		return kit.Timeout(rule, in.String(), terminationNote)
	} else if p != nil {
		return &kit.Failure{Rule: ruleT8, What: fmt.Sprintf("%s panicked: %v.", in, p)}
	}
	if got == want {
		return nil
	}
	rule, why := pointWhy(in, want, got)
	return &kit.Failure{
		Rule: rule,
		What: fmt.Sprintf("%s must return (%d, done=%t), not (%d, done=%t): %s", in, want.Offset, want.Done, got.Offset, got.Done, why),
		Hint: func() []kit.Match {
			return tr.points.LooksLike(pointOf(tr.Truncation), in, got, tr.truncates.Agrees(truncateOf(tr.Truncation)), tr.aliases.Agrees(truncateAliasOf(tr.Truncation)))
		},
	}
}

// answerKind names which of the four kinds of answer in is, the way
// AbstractFetcherThread.getOffsetTruncationState (2.8+) tells them apart.
type answerKind int

const (
	answerUndefined answerKind = iota // no end offset: the leader knows nothing of the epoch
	answerNoEpoch                     // an end offset without an epoch (a pre-2.0 leader)
	answerHeld                        // the follower's own lookup finds an epoch at or below the answer's
	answerUnknown                     // the follower's own lookup finds nothing: empty cache, or the answer is newer than every own epoch
)

func kindOf(in pointInput) answerKind {
	switch {
	case in.answer.EndOffset == replica.UndefinedOffset:
		return answerUndefined
	case in.answer.Epoch == replica.NoEpoch:
		return answerNoEpoch
	}
	if _, _, held := ownEndOffset(in.own, in.leo, in.answer.Epoch); held {
		return answerHeld
	}
	return answerUnknown
}

// pointWhy names the rule behind a wrong round.
func pointWhy(in pointInput, want, got pointOutput) (kit.Rule, string) {
	ownEpoch, ownEnd, held := ownEndOffset(in.own, in.leo, in.answer.Epoch)
	switch {
	case kindOf(in) == answerUndefined:
		return ruleT7, "the leader has no end offset for that epoch; under 2.8+ rules the follower keeps its log (its initial fetch offset is its log end offset) and is done."
	case got.Offset > in.leo:
		return ruleT3, fmt.Sprintf("a follower can only cut its log, never lengthen it: the point is at most its log end offset %d.", in.leo)
	case kindOf(in) == answerUnknown && len(in.own) == 0:
		return ruleT9, fmt.Sprintf("the follower's epoch cache is empty, so its own lookup of epoch %d finds nothing; it trusts the leader's end offset: min(leader's end %d, LEO %d) = %d, done=true.",
			in.answer.Epoch, in.answer.EndOffset, in.leo, want.Offset)
	case kindOf(in) == answerUnknown:
		return ruleT9, fmt.Sprintf("the leader answered epoch %d, newer than every epoch the follower has (its latest is %d): the follower's own lookup finds nothing, neither %d nor an epoch after it, so it does not know where %d ends on its log. It trusts the leader's end offset: min(leader's end %d, LEO %d) = %d, done=true. It is not a round to repeat: asking again would get the same answer.",
			in.answer.Epoch, latestEpoch(in.own), in.answer.Epoch, in.answer.Epoch, in.answer.EndOffset, in.leo, want.Offset)
	case kindOf(in) == answerNoEpoch:
		return ruleT1, fmt.Sprintf("an answer without an epoch (a pre-2.0 leader) cannot be looked up: the follower cuts at min(leader's end %d, LEO %d) = %d and is done.", in.answer.EndOffset, in.leo, want.Offset)
	case held && ownEpoch < in.answer.Epoch && !got.Done:
		return ruleT4, fmt.Sprintf("the follower never had the leader's epoch %d; its largest epoch below is %d, which ends at %d. It cuts there and asks again.", in.answer.Epoch, ownEpoch, ownEnd)
	case held && ownEpoch < in.answer.Epoch:
		return ruleT4, fmt.Sprintf("the follower never had the leader's epoch %d, so it cannot be sure its records of epoch %d match: it cuts at the end of its epoch %d (%d) and asks again with that epoch (done=false).", in.answer.Epoch, ownEpoch, ownEpoch, ownEnd)
	case want.Done != got.Done:
		return ruleT4, "the follower holds the leader's epoch (or has no older one), so this round settles it: done=true."
	case got.Offset > want.Offset && len(in.own) > 0 && in.own[0].Epoch > in.answer.Epoch:
		return ruleT1, fmt.Sprintf("records from %d on are not the leader's: the leader's epoch %d ends at %d; the follower never had epoch %d or an older one (its first epoch, %d, starts at %d), so on its log %d ends where its first epoch starts, at %d. It keeps min(leader's end, own end, log end).",
			want.Offset, in.answer.Epoch, in.answer.EndOffset, in.answer.Epoch, in.own[0].Epoch, in.own[0].StartOffset, in.answer.Epoch, ownEnd)
	case got.Offset > want.Offset:
		return ruleT1, fmt.Sprintf("records from %d on are not the leader's: the leader's epoch %d ends at %d, the follower's own copy of it at %d; it keeps min(leader's end, own end, log end).",
			want.Offset, in.answer.Epoch, in.answer.EndOffset, ownEnd)
	}
	return ruleT2, fmt.Sprintf("records below %d match the leader's (same epoch, and the epoch runs at least that far on both logs); cutting them only loses data, maybe acknowledged data.", want.Offset)
}

// kitRules is the rule set the suite judges by: Kafka 2.8+ (Modern). Kafka
// 2.0 to 2.7 cut at the high watermark on an undefined answer (the initial
// fetch offset was the HW until ReplicaManager.initialFetchOffset, 2.8); every
// other answer is handled the same way since 2.1.
const kitRules = replica.Modern

// kafkaPoint is the oracle: the library's rule under kitRules.
func kafkaPoint(in pointInput) pointOutput {
	o, done := replica.TruncationPoint(kitRules, in.own, in.leo, in.hw, in.answer)
	return pointOutput{o, done}
}

// ownEndOffset is the follower's own answer for epoch
// (LeaderEpochFileCache.endOffsetFor, 2.1+).
func ownEndOffset(own []replica.EpochEntry, leo int64, epoch int32) (int32, int64, bool) {
	c, err := replica.NewEpochCache(own)
	if err != nil {
		return replica.NoEpoch, replica.UndefinedOffset, false
	}
	return c.EndOffsetFor(epoch, leo)
}

func formatEpochs(es []replica.EpochEntry) string {
	s := "["
	for i, e := range es {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("(%d,%d)", e.Epoch, e.StartOffset)
	}
	return s + "]"
}

func formatAnswer(a replica.EpochEndOffset) string {
	if a.EndOffset == replica.UndefinedOffset {
		return "undefined"
	}
	return fmt.Sprintf("(epoch %d, end %d)", a.Epoch, a.EndOffset)
}
