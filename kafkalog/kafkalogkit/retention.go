package kafkalogkit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kafkalive/kafkalive/internal/kit"
	"pgregory.net/rapid"
)

// Retention is the surface of exercise ch03/retention.
type Retention struct {
	// DeletableSegments returns how many of the oldest segments retention
	// deletes now (UnifiedLog.deleteOldSegments). When it returns every segment,
	// the broker first rolls a new empty active segment at the log end offset.
	DeletableSegments func(l RetentionLog, c RetentionConfig, nowMs int64) int
}

var retentionExercise = kit.Exercise{
	Dir:  "exercises/ch03/retention",
	File: "retention.go",
	Note: note03 + "#the-retention-rule",
}

var (
	ruleR1 = kit.Rule{ID: "R1", Name: "retention.ms (-1: forever)", Note: note03 + "#retentionms-the-largest-timestamp"}
	ruleR2 = kit.Rule{ID: "R2", Name: "retention.bytes (-1: no limit)", Note: note03 + "#retentionbytes-whole-segments-oldest-first"}
	ruleR3 = kit.Rule{ID: "R3", Name: "log start offset", Note: note03 + "#the-log-start-offset"}
	ruleR4 = kit.Rule{ID: "R4", Name: "high watermark", Note: note03 + "#never-past-the-high-watermark"}
	ruleR5 = kit.Rule{ID: "R5", Name: "active segment", Note: note03 + "#the-active-segment"}
	ruleR6 = kit.Rule{ID: "R6", Name: "cleanup.policy", Note: note03 + "#the-retention-rule"}
	ruleR7 = kit.Rule{ID: "R7", Name: "oldest first", Note: note03 + "#the-retention-rule"}
	ruleR8 = kit.Rule{ID: "R8", Name: "no panic", Note: note03 + "#you-write"}

	retentionRules = []kit.Rule{ruleR1, ruleR2, ruleR3, ruleR4, ruleR5, ruleR6, ruleR7, ruleR8}
)

func probeRetention(r Retention) error {
	return retentionExercise.Probe(kit.Call{Func: "DeletableSegments", Do: func() {
		r.DeletableSegments(RetentionLog{Segments: []RetentionSegment{{}}}, RetentionConfig{RetentionMs: -1, RetentionBytes: -1, Delete: true}, 0)
	}})
}

// CheckRetention checks r against the retention cases of Kafka's UnifiedLogTest
// (shouldDeleteSizeBasedSegments to testDeleteOldSegments, with S the size of
// one single-record batch and five batches per segment) and the edge cases of each
// rule, and returns the first violation.
func CheckRetention(r Retention, known ...kit.Known[Retention]) error {
	return checkRetention(judgeRetention(r, known), kit.Replay("./"+retentionExercise.Dir, "TestRetention"))
}

func checkRetention(r retentionSubject, replay string) error {
	if err := probeRetention(r.Retention); err != nil {
		return err
	}
	var cases []kit.KnownAnswer[retentionInput]
	for _, c := range retentionKnownAnswers() {
		cases = append(cases, kit.KnownAnswer[retentionInput]{Name: c.name, In: retentionInput{c.log, c.cfg, c.now}})
	}
	check := func(in retentionInput) *kit.Failure { return retentionCase(r, in.l, in.c, in.now) }
	if f := kit.CheckKnown(cases, check, smallerRetention, replay); f != nil {
		return f
	}
	return nil
}

// RetentionProperties returns a rapid state machine that appends batches,
// rolls segments, moves the clock, the high watermark and the log start
// offset, and runs retention with r against Kafka's rule, applying r's answer
// (rolling first when everything goes) so that the log evolves as a broker's.
func RetentionProperties(r Retention, known ...kit.Known[Retention]) func(*rapid.T) {
	return retentionProperties(judgeRetention(r, known), kit.Replay("./"+retentionExercise.Dir, "TestRetention/state_machine"))
}

// TestRetention runs CheckRetention and RetentionProperties as subtests of t.
func TestRetention(t *testing.T, ret Retention, known ...kit.Known[Retention]) {
	t.Helper()
	r := judgeRetention(ret, known)
	kit.Run(t, 1, kit.Suite{
		Exercise:  retentionExercise,
		Probe:     func() error { return probeRetention(ret) },
		Check:     func(replay string) error { return checkRetention(r, replay) },
		Props:     func(replay string) func(*rapid.T) { return retentionProperties(r, replay) },
		PropsName: "state_machine",
	})
}

// retentionCase runs r once and checks its answer.
func retentionCase(r retentionSubject, l RetentionLog, c RetentionConfig, now int64) *kit.Failure {
	want := kafkaRetention(l, c, now)
	var got int
	if p := kit.Guard(func() { got = r.DeletableSegments(cloneLog(l), c, now) }); kit.IsTimeout(p) {
		rule := ruleR7
		if want.count() > 0 {
			rule, _ = retentionWhy(l, c, now, want, 0)
		}
		return kit.Timeout(rule, "DeletableSegments", termination03, describeRetention(l, c, now))
	} else if p != nil {
		return &kit.Failure{Rule: ruleR8, What: fmt.Sprintf("DeletableSegments panicked: %v.", p), Details: []string{describeRetention(l, c, now)}}
	}
	if got == want.count() {
		return nil
	}
	rule, why := retentionWhy(l, c, now, want, got)
	return &kit.Failure{
		Rule:    rule,
		What:    fmt.Sprintf("DeletableSegments must return %d (delete the %d oldest segment(s)), not %d: %s", want.count(), want.count(), got, why),
		Details: []string{describeRetention(l, c, now)},
		Hint: func() []kit.Match {
			return r.mistakes.LooksLike(retentionOf(r.Retention), retentionInput{l, c, now}, got)
		},
	}
}

func cloneLog(l RetentionLog) RetentionLog {
	l.Segments = append([]RetentionSegment(nil), l.Segments...)
	return l
}

// retentionWhy names the rule behind the first segment the learner got wrong.
func retentionWhy(l RetentionLog, c RetentionConfig, now int64, want retentionVerdict, got int) (kit.Rule, string) {
	if got < 0 {
		return ruleR7, "the answer is a number of segments, oldest first: it cannot be negative."
	}
	if got < want.count() {
		i := max(got, 0)
		switch {
		case want.byStartOffset > got:
			return ruleR3, fmt.Sprintf("segment %d ends before the log start offset %d (the next segment starts at %d <= %d), so nobody can read it any more.",
				i, l.LogStartOffset, upperBound(l, i), l.LogStartOffset)
		case want.byBytes > got:
			return ruleR2, fmt.Sprintf("the log is %d bytes over retention.bytes %d, oldest first whole segments go while they fit in that excess; segment %d (%d bytes) still fits.%s",
				logSize(l)-c.RetentionBytes, c.RetentionBytes, i, l.Segments[i].SizeInBytes, zeroIsALimit(c.RetentionBytes, "retention.bytes"))
		default:
			return ruleR1, fmt.Sprintf("segment %d's largest timestamp %d is %d ms old, more than retention.ms %d.%s",
				i, l.Segments[i].LargestTimestamp, now-l.Segments[i].LargestTimestamp, c.RetentionMs, zeroIsALimit(c.RetentionMs, "retention.ms"))
		}
	}
	if got > len(l.Segments) {
		return ruleR7, fmt.Sprintf("there are only %d segments.", len(l.Segments))
	}
	// Too many: segment i is the first one the learner deleted and Kafka
	// keeps. Name the rule whose decision that was, from the most specific
	// sign of it to the least.
	i := min(want.count(), len(l.Segments)-1)
	s := l.Segments[i]
	last := l.Segments[got-1]
	switch {
	case l.HighWatermark < upperBound(l, i):
		return ruleR4, fmt.Sprintf("segment %d holds offsets up to %d, past the high watermark %d: followers may not have them yet.", i, upperBound(l, i)-1, l.HighWatermark)
	case i == len(l.Segments)-1 && s.SizeInBytes == 0:
		return ruleR5, fmt.Sprintf("segment %d is the active segment and it is empty: there is nothing to delete, and the log needs a segment to append to.", i)
	case !c.Delete:
		return ruleR6, "cleanup.policy is compact only: retention.ms and retention.bytes do not apply, only the log start offset does."
	case c.RetentionMs >= 0 && now-s.LargestTimestamp == c.RetentionMs:
		return ruleR1, fmt.Sprintf("segment %d is exactly retention.ms old (%d ms); it must be older (now - largestTimestamp > retention.ms).", i, c.RetentionMs)
	case got-1 > i && (c.RetentionMs >= 0 && now-last.LargestTimestamp > c.RetentionMs ||
		got < len(l.Segments) && l.Segments[got].BaseOffset <= l.LogStartOffset ||
		c.RetentionBytes >= 0 && last.SizeInBytes <= logSize(l)-sizeBefore(l, i)-c.RetentionBytes):
		return ruleR7, fmt.Sprintf("segment %d is kept by every rule, so retention stops there: each rule walks oldest first and deletes a prefix. Segment %d behind it may be old enough, or fit in what is over retention.bytes, but a segment is never deleted while an older one stays.", i, got-1)
	case c.RetentionBytes >= 0 && logSize(l)-sizeBefore(l, i)-c.RetentionBytes > 0:
		return ruleR2, fmt.Sprintf("the log is still %d bytes over retention.bytes %d, but segment %d (%d bytes) does not fit in that excess: only whole segments that fit go.",
			logSize(l)-sizeBefore(l, i)-c.RetentionBytes, c.RetentionBytes, i, s.SizeInBytes)
	case c.RetentionMs >= 0 && now-s.FirstTimestamp > c.RetentionMs:
		return ruleR1, fmt.Sprintf("segment %d's first batch is old, but its largest timestamp %d is only %d ms old, not more than retention.ms %d.", i, s.LargestTimestamp, now-s.LargestTimestamp, c.RetentionMs)
	case c.RetentionMs > 0 && got == walkSegments(l, func(i int) bool { return l.Segments[i].LargestTimestamp+c.RetentionMs < now }):
		return ruleR1, fmt.Sprintf("segment %d's largest timestamp %d is %d ms old, not more than retention.ms %d. Compare the age, now - largestTimestamp, with retention.ms: largestTimestamp + retention.ms overflows an int64 when retention.ms is large (Long.MaxValue is how \"keep for ever\" is often set).",
			i, s.LargestTimestamp, now-s.LargestTimestamp, c.RetentionMs)
	case c.RetentionMs < 0 && got == walkSegments(l, func(i int) bool { return now-l.Segments[i].LargestTimestamp > c.RetentionMs }):
		return ruleR1, fmt.Sprintf("retention.ms is %d: data is kept forever, so the time rule deletes nothing however old a segment is (it is not a limit of %d ms).", c.RetentionMs, c.RetentionMs)
	case c.RetentionBytes < 0 && got == bytesWalk(l, c.RetentionBytes):
		return ruleR2, fmt.Sprintf("retention.bytes is %d: no size limit, so the size rule deletes nothing however big the log is (it is not a limit of %d bytes). Segment %d is not old enough for retention.ms %d and holds offsets at or after the log start offset %d.",
			c.RetentionBytes, c.RetentionBytes, i, c.RetentionMs, l.LogStartOffset)
	case s.BaseOffset <= l.LogStartOffset:
		return ruleR3, fmt.Sprintf("segment %d holds the log start offset %d (its offsets run %d..%d), so it can still be read: a segment goes only when the next one starts at or before the log start offset.", i, l.LogStartOffset, s.BaseOffset, upperBound(l, i)-1)
	case c.RetentionMs < 0:
		return ruleR1, fmt.Sprintf("retention.ms is %d: data is kept forever, so the time rule deletes nothing however old a segment is (it is not a limit of %d ms).", c.RetentionMs, c.RetentionMs)
	case c.RetentionBytes < 0:
		return ruleR2, fmt.Sprintf("retention.bytes is %d: no size limit, so the size rule deletes nothing however big the log is (it is not a limit of %d bytes).", c.RetentionBytes, c.RetentionBytes)
	}
	return ruleR7, fmt.Sprintf("segment %d is kept by every rule, and retention deletes oldest first, stopping at the first segment it keeps: %s.", i, keptBecause(l, c, now, i))
}

// bytesWalk is the size rule's walk with the limit given, whatever it is.
func bytesWalk(l RetentionLog, limit int64) int {
	diff := logSize(l) - limit
	return walkSegments(l, func(i int) bool {
		if diff-l.Segments[i].SizeInBytes >= 0 {
			diff -= l.Segments[i].SizeInBytes
			return true
		}
		return false
	})
}

// zeroIsALimit explains, for a limit of 0, that only -1 turns its rule off.
func zeroIsALimit(limit int64, config string) string {
	if limit != 0 {
		return ""
	}
	return fmt.Sprintf(" %s 0 is a limit like any other; only -1 turns the rule off.", config)
}

// keptBecause says, rule by rule, why segment i stays.
func keptBecause(l RetentionLog, c RetentionConfig, now int64, i int) string {
	s := l.Segments[i]
	var why []string
	switch {
	case c.RetentionMs < 0:
		why = append(why, "retention.ms -1 keeps everything")
	default:
		why = append(why, fmt.Sprintf("retention.ms: its largest timestamp is %d ms old, not more than %d", now-s.LargestTimestamp, c.RetentionMs))
	}
	switch {
	case c.RetentionBytes < 0:
		why = append(why, "retention.bytes -1 sets no limit")
	case logSize(l) < c.RetentionBytes:
		why = append(why, fmt.Sprintf("retention.bytes: the log's %d bytes are within %d", logSize(l), c.RetentionBytes))
	default:
		why = append(why, fmt.Sprintf("retention.bytes: the %d bytes over the limit that are left do not hold its %d", logSize(l)-sizeBefore(l, i)-c.RetentionBytes, s.SizeInBytes))
	}
	why = append(why, fmt.Sprintf("log start offset %d: the next segment starts at %d, after it", l.LogStartOffset, upperBound(l, i)))
	return strings.Join(why, "; ")
}

// sizeBefore is the size of the segments before segment i.
func sizeBefore(l RetentionLog, i int) int64 {
	var n int64
	for _, s := range l.Segments[:i] {
		n += s.SizeInBytes
	}
	return n
}
