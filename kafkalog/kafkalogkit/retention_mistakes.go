package kafkalogkit

import "github.com/kafkalive/kafkalive/internal/kit"

type retentionInput struct {
	l   RetentionLog
	c   RetentionConfig
	now int64
}

// retentionKnobs reproduce the mistakes of the bank with one parametrised rule.
type retentionKnobs struct {
	activeEmptyOK, ignoreHW, notPrefix, ignorePolicy, firstRuleOnly bool
	timeAtLeast, useFirstTimestamp, lsoOwnBase                      bool
	bytesStrict, bytesUntilUnder                                    bool
}

func (k retentionKnobs) run(in retentionInput) int {
	l, c, now := in.l, in.c, in.now
	walk := func(pred func(i int) bool) int {
		n := 0
		for i, s := range l.Segments {
			last := i == len(l.Segments)-1
			ok := (k.ignoreHW || l.HighWatermark >= upperBound(l, i)) && pred(i) && (k.activeEmptyOK || !last || s.SizeInBytes > 0)
			if ok {
				n = i + 1
			} else if !k.notPrefix {
				return n
			}
		}
		return n
	}
	byLSO := walk(func(i int) bool {
		if k.lsoOwnBase {
			return l.Segments[i].BaseOffset <= l.LogStartOffset
		}
		return i+1 < len(l.Segments) && l.Segments[i+1].BaseOffset <= l.LogStartOffset
	})
	if !c.Delete && !k.ignorePolicy {
		return byLSO
	}
	byBytes := 0
	if c.RetentionBytes >= 0 && logSize(l) >= c.RetentionBytes {
		diff := logSize(l) - c.RetentionBytes
		byBytes = walk(func(i int) bool {
			size := l.Segments[i].SizeInBytes
			fits := diff-size >= 0
			if k.bytesStrict {
				fits = diff-size > 0
			}
			if k.bytesUntilUnder {
				fits = diff > 0
			}
			if fits {
				diff -= size
			}
			return fits
		})
	}
	byTime := 0
	if c.RetentionMs >= 0 {
		byTime = walk(func(i int) bool {
			ts := l.Segments[i].LargestTimestamp
			if k.useFirstTimestamp {
				ts = l.Segments[i].FirstTimestamp
			}
			if k.timeAtLeast {
				return now-ts >= c.RetentionMs
			}
			return now-ts > c.RetentionMs
		})
	}
	if k.firstRuleOnly {
		for _, n := range []int{byTime, byBytes, byLSO} {
			if n > 0 {
				return n
			}
		}
		return 0
	}
	return max(byLSO, byBytes, byTime)
}

// retentionMistakeList names each mistake after its mutant in the bank
// (solutions/ch03/retention/mutants/<name>). The mutants themselves cannot be
// the signatures here: they reuse the solution's types, and the solution's
// test imports this package. solutions/signatures_test.go runs each knob
// beside its mutant on random inputs and requires the same answers, and the
// kill matrix (solutions/kill_test.go) fails on a hint that names another
// mistake.
var retentionMistakeList = []struct {
	name, says string
	knobs      retentionKnobs
}{
	{"deletesemptyactive", "the empty active segment is deleted too; the log must keep a segment to append to", retentionKnobs{activeEmptyOK: true}},
	{"ignoreshighwatermark", "the high watermark is ignored: segments with offsets the followers may not have yet are deleted", retentionKnobs{ignoreHW: true}},
	{"notaprefix", "segments are counted wherever they are, not as a prefix: retention stops at the first segment it keeps", retentionKnobs{notPrefix: true}},
	{"ignorespolicy", "retention.ms and retention.bytes are applied under cleanup.policy=compact", retentionKnobs{ignorePolicy: true}},
	{"firstruleonly", "only the first rule that deletes anything is applied; Kafka runs all three and the longest prefix goes", retentionKnobs{firstRuleOnly: true}},
	{"timenotstrict", "now - largestTimestamp >= retention.ms; Kafka's test is strict (>)", retentionKnobs{timeAtLeast: true}},
	{"firsttimestamp", "the age is taken from the first batch's timestamp, not the segment's largest timestamp", retentionKnobs{useFirstTimestamp: true}},
	{"startoffsetownbase", "the log start offset is compared with the segment's own base offset; a segment goes only when the next one starts at or before it", retentionKnobs{lsoOwnBase: true}},
	{"bytesoneearly", "retention.bytes stops one segment early (diff - size > 0 instead of >= 0)", retentionKnobs{bytesStrict: true}},
	{"byteslate", "retention.bytes deletes until the log is under the limit, one segment too many; only segments that fit in the excess go", retentionKnobs{bytesUntilUnder: true}},
}

var retentionMistakes = func() *kit.Signatures[retentionInput, int] {
	var ms []kit.Mistake[retentionInput, int]
	for _, m := range retentionMistakeList {
		ms = append(ms, kit.Mistake[retentionInput, int]{Name: m.name, Says: m.says, Do: m.knobs.run})
	}
	return kit.NewSignatures(retentionProbes, ms...)
}()

// retentionProbes are the known answers' inputs: a mistake is named only if it
// also agrees with the learner's code on all of them.
func retentionProbes() []retentionInput {
	var in []retentionInput
	for _, c := range retentionKnownAnswers() {
		in = append(in, retentionInput{c.log, c.cfg, c.now})
	}
	return in
}

// retentionOf calls a DeletableSegments on in, on a copy of the log.
func retentionOf(r Retention) func(retentionInput) int {
	return func(in retentionInput) int { return r.DeletableSegments(cloneLog(in.l), in.c, in.now) }
}

// RetentionMistake is one of the suite's re-implementations of a mistake of
// the bank, the signature a learner's failure is compared with.
type RetentionMistake struct {
	// Name is the mutant's name (solutions/ch03/retention/mutants/<Name>).
	Name string
	// Says is the hint a learner reads when their code behaves like it.
	Says string
	// Retention computes what code with this mistake returns.
	Retention Retention
}

// RetentionMistakes returns the suite's re-implementations of the bank's
// mistakes. The solutions' test runs each beside its mutant on the same
// random logs and requires the same answers, so that a hint names what the
// learner's code really does.
func RetentionMistakes() []RetentionMistake {
	var out []RetentionMistake
	for _, m := range retentionMistakeList {
		run := m.knobs.run
		out = append(out, RetentionMistake{Name: m.name, Says: m.says, Retention: Retention{
			DeletableSegments: func(l RetentionLog, c RetentionConfig, nowMs int64) int {
				return run(retentionInput{cloneLog(l), c, nowMs})
			},
		}})
	}
	return out
}
