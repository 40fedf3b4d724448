package replicakit

import (
	"slices"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/replica"
)

// truncationKnobs reproduce the mistakes of the bank with one parametrised
// rule: the first group changes a round, the second the loop around it.
type truncationKnobs struct {
	toHW, ignoreLeaderEpoch, endPlusOne, oneRound bool
	toLeaderEnd, ownLEO, exactEpoch, undefinedHW  bool

	noTrim, noHWClamp, askOnce bool

	newerAnotherRound, newerKeepsLog bool
}

func (k truncationKnobs) point(in pointInput) pointOutput {
	leo, hw, a := in.leo, in.hw, in.answer
	undefined := a.EndOffset == replica.UndefinedOffset
	switch {
	case k.toHW:
		return pointOutput{min(hw, leo), true}
	case undefined && (k.undefinedHW || k.ignoreLeaderEpoch):
		return pointOutput{min(hw, leo), true}
	case undefined:
		return pointOutput{leo, true}
	case k.ignoreLeaderEpoch || a.Epoch == replica.NoEpoch:
		return pointOutput{min(a.EndOffset, leo), true}
	}
	ownEpoch, ownEnd, held := ownEndOffset(in.own, leo, a.Epoch)
	if newer := len(in.own) > 0 && a.Epoch > latestEpoch(in.own); newer && k.newerAnotherRound {
		return pointOutput{leo, false}
	} else if !held && k.newerKeepsLog {
		// the lookup found nothing: a newer epoch, or an empty cache
		return pointOutput{leo, true}
	}
	if k.exactEpoch && !slices.ContainsFunc(in.own, func(e replica.EpochEntry) bool { return e.Epoch == a.Epoch }) {
		return pointOutput{min(a.EndOffset, leo), true}
	}
	switch {
	case !held:
		return pointOutput{min(a.EndOffset, leo), true}
	case ownEpoch < a.Epoch:
		return pointOutput{min(ownEnd, leo), k.oneRound}
	case k.toLeaderEnd:
		return pointOutput{a.EndOffset, true}
	case k.ownLEO:
		return pointOutput{leo, true}
	case k.endPlusOne:
		return pointOutput{min(a.EndOffset+1, ownEnd+1, leo), true}
	}
	return pointOutput{min(a.EndOffset, ownEnd, leo), true}
}

func (k truncationKnobs) truncate(in truncateInput) Follower {
	return k.truncateWith(in.f, in.l.answer)
}

// truncateWith runs the rounds against ask; it panics when they do not end
// within roundLimit.
func (k truncationKnobs) truncateWith(f Follower, ask func(int32) replica.EpochEndOffset) Follower {
	limit := roundLimit(f)
	f = cloneFollower(f)
	for range limit {
		out := k.point(pointInput{own: f.Epochs, leo: f.LogEndOffset, hw: f.HighWatermark, answer: ask(latestEpoch(f.Epochs))})
		f = k.cut(f, out.Offset)
		if out.Done || k.askOnce {
			return f
		}
	}
	panic("too many rounds")
}

func (k truncationKnobs) cut(f Follower, offset int64) Follower {
	hw := f.HighWatermark
	epochs := slices.Clone(f.Epochs)
	f = cutAt(f, offset)
	if k.noTrim {
		f.Epochs = epochs
	}
	if k.noHWClamp {
		f.HighWatermark = hw
	}
	return f
}

const indexNoTrim = 8

// truncationMistakeList names each mistake after its mutant in the bank
// (solutions/ch05/truncation/mutants/<name>). The mutants themselves cannot be
// the signatures here: they reuse the solution's types, and the solution's
// test imports this package. solutions/signatures_test.go runs each knob
// beside its mutant on random inputs and requires the same answers, and the
// kill matrix (solutions/kill_test.go) fails on a hint that names another
// mistake.
var truncationMistakeList = []struct {
	name, says string
	knobs      truncationKnobs
}{
	{"truncatestohw", "the follower truncates to its own high watermark: Kafka 0.10's rule, which KIP-101 replaced because the HW lags", truncationKnobs{toHW: true}},
	{"ignoresleaderepoch", "the answer's epoch is ignored and the follower cuts at min(end offset, LEO): Kafka 0.11's rule, which KIP-279 fixed", truncationKnobs{ignoreLeaderEpoch: true}},
	{"endoffsetplusone", "the end offset is read as the last offset of the epoch; it is the first offset after it, so one record too many is kept", truncationKnobs{endPlusOne: true}},
	{"neveranotherround", "a follower that never had the leader's epoch cuts once and stops; it must ask again with its new latest epoch", truncationKnobs{oneRound: true}},
	{"toleaderend", "the follower cuts at the leader's end offset without taking the minimum with its own end of the epoch and its LEO", truncationKnobs{toLeaderEnd: true}},
	{"keepsownleo", "a follower that holds the leader's epoch keeps its whole log (own LEO instead of min(leader's end, own end of the epoch, LEO))", truncationKnobs{ownLEO: true}},
	{"exactepoch", "the follower looks the leader's epoch up exactly, not the largest epoch at or below it", truncationKnobs{exactEpoch: true}},
	{"undefinedtohw", "an undefined answer makes the follower cut at its high watermark, the rule of 2.0 to 2.7; since 2.8 it keeps its log", truncationKnobs{undefinedHW: true}},
	{"forgetstrim", "the epoch cache is not trimmed after a cut, so the next round asks the same question again", truncationKnobs{noTrim: true}},
	{"keepshw", "the high watermark is left above the new log end; it must become min(HW, LEO)", truncationKnobs{noHWClamp: true}},
	{"asksonce", "Truncate asks the leader once and stops, whatever the round said", truncationKnobs{askOnce: true}},
	{"neweranotherround", "an answer newer than every epoch of the follower is taken for an epoch it never had: it cuts at the end of its latest epoch (its LEO) and asks again, and gets the same answer for ever", truncationKnobs{newerAnotherRound: true}},
	{"newerkeepslog", "an answer the follower cannot look up (newer than every epoch it has, or any answer to an empty cache) is taken for no answer: it keeps its log instead of cutting at min(leader's end, LEO)", truncationKnobs{newerKeepsLog: true}},
}

func pointProbes() []pointInput {
	var in []pointInput
	for _, c := range pointKnownAnswers() {
		in = append(in, c.in)
	}
	return in
}

func truncateProbes() []truncateInput {
	var in []truncateInput
	for _, c := range truncateKnownAnswers() {
		in = append(in, truncateInput{c.follower, c.leader})
	}
	return in
}

var pointMistakes = func() *kit.Signatures[pointInput, pointOutput] {
	var ms []kit.Mistake[pointInput, pointOutput]
	for _, m := range truncationMistakeList {
		ms = append(ms, kit.Mistake[pointInput, pointOutput]{Name: m.name, Says: m.says, Do: m.knobs.point})
	}
	return kit.NewSignatures(pointProbes, ms...)
}()

var truncateMistakes = func() *kit.Signatures[truncateInput, Follower] {
	var ms []kit.Mistake[truncateInput, Follower]
	for _, m := range truncationMistakeList {
		ms = append(ms, kit.Mistake[truncateInput, Follower]{Name: m.name, Says: m.says, Do: m.knobs.truncate})
	}
	return kit.NewSignatures(truncateProbes, ms...)
}()

// TruncationMistake is one of the suite's re-implementations of a mistake of
// the bank, the signature a learner's failure is compared with.
type TruncationMistake struct {
	// Name is the mutant's name (solutions/ch05/truncation/mutants/<Name>).
	Name string
	// Says is the hint a learner reads when their code behaves like it.
	Says string
	// Truncation computes what code with this mistake returns; its Truncate
	// panics when its rounds do not end within len(f.Epochs) + 3.
	Truncation Truncation
}

// TruncationMistakes returns the suite's re-implementations of the bank's
// mistakes. The solutions' test runs each beside its mutant on the same
// random followers and leaders and requires the same answers, so that a hint
// names what the learner's code really does.
func TruncationMistakes() []TruncationMistake {
	var out []TruncationMistake
	for _, m := range truncationMistakeList {
		k := m.knobs
		out = append(out, TruncationMistake{Name: m.name, Says: m.says, Truncation: Truncation{
			TruncationPoint: func(own []replica.EpochEntry, leo, hw int64, answer replica.EpochEndOffset) (int64, bool) {
				o := k.point(pointInput{own: slices.Clone(own), leo: leo, hw: hw, answer: answer})
				return o.Offset, o.Done
			},
			Truncate: k.truncateWith,
		}})
	}
	return out
}
