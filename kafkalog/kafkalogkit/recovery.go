package kafkalogkit

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/kafkalive/kafkalive/internal/kit"
	"pgregory.net/rapid"
)

// Recovery is the surface of exercise ch04/recovery.
type Recovery struct {
	// Recover walks a segment's .log bytes from position 0 the way
	// LogSegment.recover does after an unclean shutdown, and returns validBytes,
	// where the file must be cut (the first byte that is not part of a whole,
	// valid batch), and the rebuilt offset index (the bytes of the .index file:
	// 8-byte entries of relative offset and position, big-endian).
	Recover func(log []byte, baseOffset int64, indexIntervalBytes int) (validBytes int, index []byte)
}

var recoveryExercise = kit.Exercise{
	Dir:  "exercises/ch04/recovery",
	File: "recovery.go",
	Note: note04 + "#how-a-broker-repairs-a-segment",
}

var (
	ruleC1 = kit.Rule{ID: "C1", Name: "torn tail", Note: note04 + "#torn-tails-and-zero-padding"}
	ruleC2 = kit.Rule{ID: "C2", Name: "length field", Note: note04 + "#torn-tails-and-zero-padding"}
	ruleC3 = kit.Rule{ID: "C3", Name: "CRC-32C", Note: note04 + "#validate-every-batch"}
	ruleC4 = kit.Rule{ID: "C4", Name: "magic", Note: note04 + "#validate-every-batch"}
	ruleC5 = kit.Rule{ID: "C5", Name: "offsets increase", Note: note04 + "#validate-every-batch"}
	ruleC6 = kit.Rule{ID: "C6", Name: "cut at the first bad byte", Note: note04 + "#how-a-broker-repairs-a-segment"}
	ruleC7 = kit.Rule{ID: "C7", Name: "rebuild the index", Note: note04 + "#rebuild-the-index"}
	ruleC8 = kit.Rule{ID: "C8", Name: "no panic", Note: note04 + "#torn-tails-and-zero-padding"}
	ruleC9 = kit.Rule{ID: "C9", Name: "an earlier result stays", Note: note04 + "#the-index-is-the-callers"}

	recoveryRules = []kit.Rule{ruleC1, ruleC2, ruleC3, ruleC4, ruleC5, ruleC6, ruleC7, ruleC8, ruleC9}
)

func probeRecovery(r Recovery) error {
	return recoveryExercise.Probe(kit.Call{Func: "Recover", Do: func() { r.Recover(nil, 0, 4096) }})
}

// CheckRecovery checks r against Kafka's LogSegmentTest recovery cases (garbage
// from inside batch k to the end leaves batches 0..k-1; a corrupt index is
// rebuilt), a real broker's segment, and one case per way a file can be damaged
// (torn header, torn batch, zero padding, bit flips inside and outside the CRC,
// bad magic, short length, offsets going backwards), and returns the first
// violation.
func CheckRecovery(r Recovery, known ...kit.Known[Recovery]) error {
	return checkRecovery(judgeRecovery(r, known), kit.Replay("./"+recoveryExercise.Dir, "TestRecovery"))
}

func checkRecovery(r recoverySubject, replay string) error {
	if err := probeRecovery(r.Recovery); err != nil {
		return err
	}
	cases := recoveryKnownAnswers()
	var known []kit.KnownAnswer[recoveryInput]
	for _, c := range cases {
		known = append(known, kit.KnownAnswer[recoveryInput]{Name: c.name, In: recoveryInput{c.log, c.baseOffset, c.interval}})
	}
	check := func(in recoveryInput) *kit.Failure { return recoveryCase(r, in.log, in.baseOffset, in.interval) }
	if f := kit.CheckKnown(known, check, smallerRecovery, replay); f != nil {
		return f
	}
	for i := 1; i < len(cases); i++ {
		a, b := cases[i-1], cases[i]
		if f := recoveryAliasCase(r, recoveryInput{a.log, a.baseOffset, a.interval}, recoveryInput{b.log, b.baseOffset, b.interval}); f != nil {
			f.Details = append(f.Details, "known answers: "+a.name+", then "+b.name)
			f.Replay = replay
			return f
		}
	}
	return nil
}

// TestRecovery runs CheckRecovery and RecoveryProperties as subtests of t.
func TestRecovery(t *testing.T, rec Recovery, known ...kit.Known[Recovery]) {
	t.Helper()
	r := judgeRecovery(rec, known)
	kit.Run(t, 1, kit.Suite{
		Exercise:  recoveryExercise,
		Probe:     func() error { return probeRecovery(rec) },
		Check:     func(replay string) error { return checkRecovery(r, replay) },
		Props:     func(replay string) func(*rapid.T) { return recoveryProperties(r, replay) },
		PropsName: "crash_points",
	})
}

// recoveryCase runs r on one file and checks the cut and the index.
func recoveryCase(r recoverySubject, log []byte, baseOffset int64, interval int) *kit.Failure {
	want := kafkaRecover(log, baseOffset, interval)
	var valid int
	var index []byte
	in := recoveryInput{log, baseOffset, interval}
	call := fmt.Sprintf("Recover(log of %d bytes, baseOffset=%d, indexIntervalBytes=%d)", len(log), baseOffset, interval)
	if p := kit.Guard(func() { valid, index = r.Recover(bytes.Clone(log), baseOffset, interval) }); kit.IsTimeout(p) {
		rule, _ := recoveryWhy(log, want, len(log))
		return kit.Timeout(rule, call, termination04, describeSegment(log, baseOffset, interval))
	} else if p != nil {
		f := &kit.Failure{Rule: ruleC8, What: fmt.Sprintf("Recover panicked: %v. A damaged file is input: recovery must cut it, never crash the broker.", p),
			Details: []string{describeSegment(log, baseOffset, interval)}, Got: log, Want: log[:want.validBytes], From: want.validBytes}
		f.Hint = func() []kit.Match {
			return r.mistakes.PanicsLike(recoveryOf(r.Recover), in, r.aliases.Agrees(recoveryAliasOf(r.Recover)))
		}
		return f
	}
	looks := func() []kit.Match {
		return r.mistakes.LooksLike(recoveryOf(r.Recover), in, recoveryOutput{valid, index}, r.aliases.Agrees(recoveryAliasOf(r.Recover)))
	}
	if valid != want.validBytes {
		rule, what := recoveryWhy(log, want, valid)
		return &kit.Failure{Rule: rule, What: fmt.Sprintf("%s must return validBytes %d, not %d: %s", call, want.validBytes, valid, what),
			Details: []string{describeSegment(log, baseOffset, interval)}, Got: log, Want: log[:want.validBytes], From: want.validBytes, Hint: looks}
	}
	if !bytes.Equal(index, want.index) {
		return &kit.Failure{Rule: ruleC7, What: fmt.Sprintf("%s must rebuild the offset index: an entry (lastOffset - baseOffset, position) for a batch when more than %d bytes were kept since the last entry.", call, interval),
			Details: []string{describeSegment(log, baseOffset, interval), "want index " + kit.Hex(want.index, 64), "got index  " + kit.Hex(index, 64)},
			Got:     index, Want: want.index, Hint: looks}
	}
	return nil
}

// recoveryAliasCase recovers a, then b, and checks that the index returned
// for a still holds a's entries.
func recoveryAliasCase(r recoverySubject, a, b recoveryInput) *kit.Failure {
	var first []byte
	if kit.Guard(func() { _, first = r.Recover(bytes.Clone(a.log), a.baseOffset, a.interval) }) != nil {
		return nil // the case's own check reports it
	}
	kept := bytes.Clone(first)
	if kit.Guard(func() { r.Recover(bytes.Clone(b.log), b.baseOffset, b.interval) }) != nil {
		return nil
	}
	if bytes.Equal(first, kept) {
		return nil
	}
	return &kit.Failure{
		Rule: ruleC9,
		What: fmt.Sprintf("Recover(log of %d bytes, baseOffset=%d, indexIntervalBytes=%d) returned an index of %d bytes; after the next Recover (log of %d bytes) it changed. The index a call returns is the caller's (the broker writes it to the segment's .index): build it in a slice of its own, never in a buffer you keep and write again.",
			len(a.log), a.baseOffset, a.interval, len(kept), len(b.log)),
		Details: []string{"index when returned:       " + kit.Hex(kept, 64), "and after the next call:  " + kit.Hex(first, 64)},
		Got:     first, Want: kept,
		Hint: func() []kit.Match {
			return r.aliases.LooksLike(recoveryAliasOf(r.Recover), [2]recoveryInput{a, b}, first, r.mistakes.Agrees(recoveryOf(r.Recover)))
		},
	}
}

// offsetsDetail says which offset check the batch at want.validBytes fails.
func offsetsDetail(log []byte, want recovered) string {
	b := log[want.validBytes:]
	base := int64(binary.BigEndian.Uint64(b))
	last := base + int64(int32(binary.BigEndian.Uint32(b[23:])))
	switch {
	case last < base:
		return fmt.Sprintf("Here its last offset %d is below its base offset %d.", last, base)
	case len(want.batches) == 0:
		return fmt.Sprintf("Here it is the segment's first batch, and its base offset %d is below the segment's base offset (the file's name).", base)
	}
	prev := want.batches[len(want.batches)-1]
	return fmt.Sprintf("Here its base offset %d is at or below %d, the last offset of the batch before it (offsets %d..%d).", base, prev.lastOffset, prev.baseOffset, prev.lastOffset)
}

// recoveryWhy names the rule behind a wrong cut.
func recoveryWhy(log []byte, want recovered, got int) (kit.Rule, string) {
	if got < want.validBytes {
		return ruleC6, fmt.Sprintf("the batches up to position %d are whole and valid and must be kept; cut only at the first byte that is not.", want.validBytes)
	}
	where := fmt.Sprintf("the bytes from position %d on are not a valid batch: %s.", want.validBytes, want.reason)
	switch want.reason {
	case stopTornHeader, stopTornBatch:
		return ruleC1, where
	case stopShortLength, stopTooSmall:
		return ruleC2, where
	case stopCRC:
		return ruleC3, where
	case stopMagic:
		return ruleC4, where
	case stopOffsets:
		return ruleC5, where + " " + offsetsDetail(log, want)
	}
	return ruleC6, fmt.Sprintf("validBytes %d is past the end of the file (%d bytes).", got, len(log))
}
