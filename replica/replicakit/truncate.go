package replicakit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/replica"
)

// leaderLog is what the leader answers from: its epoch cache and log end.
type leaderLog struct {
	epochs []replica.EpochEntry
	leo    int64
}

// answer is the leader's OffsetsForLeaderEpoch answer for epoch
// (LeaderEpochFileCache.endOffsetFor, 2.1+).
func (l leaderLog) answer(epoch int32) replica.EpochEndOffset {
	c, err := replica.NewEpochCache(l.epochs)
	if err != nil {
		return undefinedAnswer
	}
	e, end, ok := c.EndOffsetFor(epoch, l.leo)
	if !ok {
		return undefinedAnswer
	}
	return replica.EpochEndOffset{Epoch: e, EndOffset: end}
}

var undefinedAnswer = replica.EpochEndOffset{Epoch: replica.NoEpoch, EndOffset: replica.UndefinedOffset}

// truncateInput is one truncation: the follower and the leader it asks.
type truncateInput struct {
	f Follower
	l leaderLog
}

// tooManyRounds is what the suite's ask panics with when a Truncate keeps
// asking: the rounds of a right answer are at most one per cached epoch, plus one.
type tooManyRounds struct{ asked []int32 }

func roundLimit(f Follower) int { return len(f.Epochs) + 3 }

// kafkaTruncate is the oracle: rounds of the library's rule until done, each
// cut trimming the cache (LeaderEpochFileCache.truncateFromEnd) and the high
// watermark (never above the log end: UnifiedLog.updateLogEndOffset). It returns the
// follower after the loop and the epoch asked in each round. A follower
// whose cache is empty asks nothing and cuts at its high watermark (Kafka
// 2.2+, AbstractFetcherThread.maybeTruncate: fetchTruncatingPartitions puts
// it among the partitions without epochs, then truncateToHighWatermark).
func kafkaTruncate(f Follower, l leaderLog) (Follower, []int32) {
	f = cloneFollower(f)
	if len(f.Epochs) == 0 {
		// No epoch to ask about: since 2.2 the follower asks nothing and cuts
		// at its high watermark (AbstractFetcherThread.truncateToHighWatermark,
		// its fetch offset being the HW: ReplicaManager.initialFetchOffset).
		return cutAt(f, f.HighWatermark), nil
	}
	var asked []int32
	for range roundLimit(f) {
		e := latestEpoch(f.Epochs)
		asked = append(asked, e)
		o, done := replica.TruncationPoint(kitRules, f.Epochs, f.LogEndOffset, f.HighWatermark, l.answer(e))
		f = cutAt(f, o)
		if done {
			break
		}
	}
	return f, asked
}

// cutAt truncates the follower's log at offset (never lengthening it).
func cutAt(f Follower, offset int64) Follower {
	f.LogEndOffset = min(f.LogEndOffset, offset)
	f.Epochs = slices.DeleteFunc(f.Epochs, func(e replica.EpochEntry) bool { return e.StartOffset >= f.LogEndOffset })
	f.HighWatermark = min(f.HighWatermark, f.LogEndOffset)
	return f
}

func latestEpoch(es []replica.EpochEntry) int32 {
	if len(es) == 0 {
		return replica.NoEpoch
	}
	return es[len(es)-1].Epoch
}

func cloneFollower(f Follower) Follower {
	f.Epochs = slices.Clone(f.Epochs)
	return f
}

// truncateCase runs tr.Truncate once against the leader l and checks the
// follower it returns; recs, when known, are both logs' records.
func truncateCase(tr truncationSubject, f Follower, l leaderLog, recs *twoLogs) *kit.Failure {
	want, wantAsked := kafkaTruncate(f, l)
	var asked []int32
	ask := func(e int32) replica.EpochEndOffset {
		asked = append(asked, e)
		if len(asked) > roundLimit(f) {
			panic(tooManyRounds{slices.Clone(asked)})
		}
		return l.answer(e)
	}
	details := []string{describeTruncation(f, l, recs)}
	var got Follower
	if p := kit.Guard(func() { got = tr.Truncate(cloneFollower(f), ask) }); kit.IsTimeout(p) {
		return kit.Timeout(ruleT5, "Truncate", terminationNote, details...)
	} else if p != nil {
		if r, ok := p.(tooManyRounds); ok {
			return &kit.Failure{Rule: ruleT5, What: fmt.Sprintf("Truncate asked the leader %d times (epochs %v); Kafka needs %d round(s) here (epochs %v). Each round asks for the latest epoch left in the cache after the previous cut.", len(r.asked), r.asked, len(wantAsked), wantAsked),
				Details: details, Hint: func() []kit.Match {
					return tr.truncates.PanicsLike(truncateOf(tr.Truncation), truncateInput{f, l}, tr.points.Agrees(pointOf(tr.Truncation)), tr.aliases.Agrees(truncateAliasOf(tr.Truncation)))
				}}
		}
		return &kit.Failure{Rule: ruleT8, What: fmt.Sprintf("Truncate panicked: %v.", p), Details: details}
	}
	rule, why := truncateWhy(f, want, got, asked, wantAsked, recs)
	if why == "" {
		return nil
	}
	return &kit.Failure{
		Rule:    rule,
		What:    fmt.Sprintf("Truncate must leave the follower at %s, not %s: %s", formatFollower(want), formatFollower(got), why),
		Details: details,
		Hint: func() []kit.Match {
			return tr.truncates.LooksLike(truncateOf(tr.Truncation), truncateInput{f, l}, truncated{cloneFollower(got), asked}, tr.points.Agrees(pointOf(tr.Truncation)), tr.aliases.Agrees(truncateAliasOf(tr.Truncation)))
		},
	}
}

// truncateWhy names the rule behind a wrong truncation, or returns "" when
// the follower is right.
func truncateWhy(f, want, got Follower, asked, wantAsked []int32, recs *twoLogs) (kit.Rule, string) {
	switch {
	case got.LogEndOffset > f.LogEndOffset:
		return ruleT3, fmt.Sprintf("truncation only cuts: the log end offset cannot grow past %d.", f.LogEndOffset)
	case len(f.Epochs) == 0 && (len(asked) > 0 || got.LogEndOffset != want.LogEndOffset):
		what := fmt.Sprintf("it asked about epochs %v and kept the log up to %d", asked, got.LogEndOffset)
		if len(asked) == 0 {
			what = fmt.Sprintf("it asked nothing, rightly, but kept the log up to %d", got.LogEndOffset)
		}
		return ruleT10, fmt.Sprintf("the follower's epoch cache is empty, so it has no epoch to ask the leader about: since Kafka 2.2 it asks nothing and cuts at its high watermark, %d, the records every in-sync replica had (AbstractFetcherThread.truncateToHighWatermark); %s.", want.LogEndOffset, what)
	case recs != nil && !recs.followerPrefixMatches(got.LogEndOffset):
		o := recs.firstDifference()
		return ruleT1, fmt.Sprintf("the follower would keep offset %d = %s, but the leader's offset %d is %s: the logs diverge there.", o, recs.follower.at(o), o, recs.leader.at(o))
	case got.LogEndOffset > want.LogEndOffset:
		return ruleT1, fmt.Sprintf("the follower's records from %d on are not the leader's; it must cut them before fetching.", want.LogEndOffset)
	case got.LogEndOffset < want.LogEndOffset && got.LogEndOffset < f.HighWatermark && want.LogEndOffset >= f.HighWatermark:
		return ruleT2, fmt.Sprintf("the follower cut below its high watermark %d, into committed records the leader has too: if the leader dies now, they are lost (KIP-101's first problem). Keep everything up to %d.", f.HighWatermark, want.LogEndOffset)
	case got.LogEndOffset < want.LogEndOffset:
		return ruleT2, fmt.Sprintf("the records below %d are the leader's too; cutting them deletes data the follower then has to fetch again, and loses it if the leader dies first.", want.LogEndOffset)
	case !slices.Equal(asked, wantAsked):
		return ruleT5, fmt.Sprintf("the rounds asked for epochs %v; Kafka asks %v: each round asks for the latest epoch left in the cache, until a round is done.", asked, wantAsked)
	case !cmp.Equal(want.Epochs, got.Epochs, cmpopts.EquateEmpty()):
		return ruleT6, fmt.Sprintf("cutting the log at %d removes every cache entry that starts at or after it (LeaderEpochFileCache.truncateFromEnd): want %s, got %s.", want.LogEndOffset, formatEpochs(want.Epochs), formatEpochs(got.Epochs))
	case got.HighWatermark != want.HighWatermark:
		return ruleT6, fmt.Sprintf("the high watermark cannot stay above the log end: HW := min(HW, LEO) = %d.", want.HighWatermark)
	}
	return kit.Rule{}, ""
}

func formatFollower(f Follower) string {
	return fmt.Sprintf("LEO %d, HW %d, epochs %s", f.LogEndOffset, f.HighWatermark, formatEpochs(f.Epochs))
}

// describeTruncation shows both sides and the rounds Kafka runs.
func describeTruncation(f Follower, l leaderLog, recs *twoLogs) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "follower: %s\nleader:   LEO %d, epochs %s", formatFollower(f), l.leo, formatEpochs(l.epochs))
	if recs != nil {
		fmt.Fprintf(&sb, "\nfollower records: %s\nleader records:   %s", recs.follower, recs.leader)
	}
	sb.WriteString("\nKafka's rounds:")
	if len(f.Epochs) == 0 {
		fmt.Fprintf(&sb, "\n  none: the cache is empty, so the follower asks nothing and cuts at its HW %d", f.HighWatermark)
		return sb.String()
	}
	cur := cloneFollower(f)
	for range roundLimit(f) {
		e := latestEpoch(cur.Epochs)
		a := l.answer(e)
		o, done := replica.TruncationPoint(kitRules, cur.Epochs, cur.LogEndOffset, cur.HighWatermark, a)
		cur = cutAt(cur, o)
		fmt.Fprintf(&sb, "\n  ask epoch %d -> leader answers %s -> cut at %d, done=%t", e, formatAnswer(a), cur.LogEndOffset, done)
		if done {
			break
		}
	}
	return sb.String()
}

// truncateAliasCase truncates a, then b, and checks that the follower
// returned for a still holds a's epochs.
func truncateAliasCase(tr truncationSubject, a, b truncateInput) *kit.Failure {
	var first Follower
	if kit.Guard(func() { first = tr.Truncate(cloneFollower(a.f), limitedAsk(a)) }) != nil {
		return nil // the case's own check reports it
	}
	kept := cloneFollower(first)
	if kit.Guard(func() { tr.Truncate(cloneFollower(b.f), limitedAsk(b)) }) != nil {
		return nil
	}
	if cmp.Equal(first, kept, cmpopts.EquateEmpty()) {
		return nil
	}
	return &kit.Failure{
		Rule: ruleT11,
		What: fmt.Sprintf("Truncate returned the follower %s; after the next Truncate it reads %s. The follower a call returns is the caller's (the broker keeps its epoch cache): build its epochs in a slice of their own, never in one you keep and write again.",
			formatFollower(kept), formatFollower(first)),
		Details: []string{"first truncation:\n" + describeTruncation(a.f, a.l, nil), "second truncation:\n" + describeTruncation(b.f, b.l, nil)},
		Hint: func() []kit.Match {
			return tr.aliases.LooksLike(truncateAliasOf(tr.Truncation), [2]truncateInput{a, b}, first, tr.points.Agrees(pointOf(tr.Truncation)), tr.truncates.Agrees(truncateOf(tr.Truncation)))
		},
	}
}
