package kafkalogkit

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/kafkalive/kafkalive/internal/kit"
	"pgregory.net/rapid"
)

// IndexLookup is the surface of exercise ch02/index: how Kafka finds the batch
// holding an offset (LogSegment.translateOffset).
type IndexLookup struct {
	// LookupIndex searches the offset index (the bytes of a .index file, 8-byte
	// entries of relative offset and position, big-endian; only the first
	// entries are valid, the rest of a preallocated file is zeros) for the
	// largest entry whose offset is <= target. It returns that entry's absolute
	// offset and position, or (baseOffset, 0) if there is none
	// (OffsetIndex.lookup).
	LookupIndex func(index []byte, entries int, baseOffset, target int64) (offset int64, position int32)
	// FindBatch scans the .log bytes from position startPos, batch by batch, for
	// the first batch whose last offset is >= target and returns its position.
	// found is false if no batch from startPos on has it; position is then ignored.
	FindBatch func(log []byte, startPos int32, target int64) (position int32, found bool)
}

var indexExercise = kit.Exercise{
	Dir:  "exercises/ch02/index",
	File: "index.go",
	Note: note02 + "#the-sparse-index",
}

var (
	ruleI1 = kit.Rule{ID: "I1", Name: "largest entry <= target", Note: note02 + "#binary-search-for-the-largest-entry--target"}
	ruleI2 = kit.Rule{ID: "I2", Name: "nothing below: (baseOffset, 0)", Note: note02 + "#binary-search-for-the-largest-entry--target"}
	ruleI3 = kit.Rule{ID: "I3", Name: "relative offsets", Note: note02 + "#the-sparse-index"}
	ruleI4 = kit.Rule{ID: "I4", Name: "only the valid entries", Note: note02 + "#a-preallocated-index-is-full-of-zeros"}
	ruleI5 = kit.Rule{ID: "I5", Name: "scan to lastOffset >= target", Note: note02 + "#the-short-scan"}
	ruleI6 = kit.Rule{ID: "I6", Name: "no panic", Note: note02 + "#you-write"}
	ruleI7 = kit.Rule{ID: "I7", Name: "64-bit offsets", Note: note02 + "#offsets-are-64-bit"}

	indexRules = []kit.Rule{ruleI1, ruleI2, ruleI3, ruleI4, ruleI5, ruleI6, ruleI7}
)

func probeIndex(l IndexLookup) error {
	return indexExercise.Probe(
		kit.Call{Func: "LookupIndex", Do: func() { l.LookupIndex(nil, 0, 0, 0) }},
		kit.Call{Func: "FindBatch", Do: func() { l.FindBatch(nil, 0, 0) }},
	)
}

// CheckIndex checks l against Kafka's OffsetIndexTest and LogSegmentTest known
// answers (an index at base offset 45; batches 50..53, 50..51 and 60..61) and
// the chapter's worked example (a consumer asks for offset 217), and returns
// the first violation.
func CheckIndex(l IndexLookup, known ...kit.Known[IndexLookup]) error {
	return checkIndex(judgeIndex(l, known), kit.Replay("./"+indexExercise.Dir, "TestIndex"))
}

func checkIndex(l indexSubject, replay string) error {
	if err := probeIndex(l.IndexLookup); err != nil {
		return err
	}
	var cases []kit.KnownAnswer[indexInput]
	for _, c := range indexKnownAnswers() {
		cases = append(cases, kit.KnownAnswer[indexInput]{Name: c.name, In: indexInput{c.seg, c.padding, c.target}})
	}
	check := func(in indexInput) *kit.Failure { return indexCase(l, in.seg, in.padding, in.target) }
	if f := kit.CheckKnown(cases, check, smallerIndexInput, replay); f != nil {
		return f
	}
	return nil
}

// IndexProperties returns the rapid property for l: for any segment (batches of
// 1 to 5 records, offset gaps, compacted and empty batches, transaction markers,
// every codec, any index.interval.bytes, a preallocated index with zero slots
// after the valid entries) and any target, LookupIndex and FindBatch give
// Kafka's answers.
func IndexProperties(l IndexLookup, known ...kit.Known[IndexLookup]) func(*rapid.T) {
	return indexProperties(judgeIndex(l, known), kit.Replay("./"+indexExercise.Dir, "TestIndex/properties"))
}

func indexProperties(l indexSubject, replay string) func(*rapid.T) {
	return func(t *rapid.T) {
		in := drawIndexInput(t)
		if f := indexCase(l, in.seg, in.padding, in.target); f != nil {
			f.Replay = replay
			kit.Fatal(t, f)
		}
	}
}

// TestIndex runs CheckIndex and IndexProperties as subtests of t.
func TestIndex(t *testing.T, lookup IndexLookup, known ...kit.Known[IndexLookup]) {
	t.Helper()
	l := judgeIndex(lookup, known)
	kit.Run(t, 1, kit.Suite{
		Exercise:  indexExercise,
		Probe:     func() error { return probeIndex(lookup) },
		Check:     func(replay string) error { return checkIndex(l, replay) },
		Props:     func(replay string) func(*rapid.T) { return indexProperties(l, replay) },
		PropsName: "properties",
	})
}

// indexCase looks target up the way Kafka does (index, then scan from the
// position found, and also a scan from position 0) and checks each step.
func indexCase(l indexSubject, seg *segmentModel, padding int, target int64) *kit.Failure {
	guarded := l
	guarded.IndexLookup = IndexLookup{
		LookupIndex: func(index []byte, entries int, baseOffset, target int64) (off int64, pos int32) {
			if p := kit.Guard(func() { off, pos = l.LookupIndex(index, entries, baseOffset, target) }); p != nil {
				in := lookupInput{bytes.Clone(index), entries, baseOffset, target}
				panic(learnerPanic{p, ruleI1, fmt.Sprintf("LookupIndex(index of %d bytes, entries=%d, baseOffset=%d, target=%d)", len(index), entries, baseOffset, target),
					func() []kit.Match {
						return l.lookups.PanicsLike(lookupOf(l.LookupIndex), in, l.finds.Agrees(findOf(l.FindBatch)))
					}})
			}
			return off, pos
		},
		FindBatch: func(log []byte, startPos int32, target int64) (pos int32, found bool) {
			if p := kit.Guard(func() { pos, found = l.FindBatch(log, startPos, target) }); p != nil {
				in := findInput{seg, startPos, target}
				panic(learnerPanic{p, ruleI5, fmt.Sprintf("FindBatch(log of %d bytes, startPos=%d, target=%d)", len(log), startPos, target),
					func() []kit.Match {
						return l.finds.PanicsLike(findOf(l.FindBatch), in, l.lookups.Agrees(lookupOf(l.LookupIndex)))
					}})
			}
			return pos, found
		},
	}
	var f *kit.Failure
	p := kit.Recover(func() { f = indexSteps(guarded, seg, padding, target) })
	if lp, ok := p.(learnerPanic); ok && kit.IsTimeout(lp.v) {
		return kit.Timeout(lp.rule, lp.call, termination02, seg.describe(target))
	} else if ok {
		return &kit.Failure{Rule: ruleI6, What: fmt.Sprintf("%s panicked: %v. Input from disk must never crash a broker.", lp.call, lp.v),
			Details: []string{seg.describe(target)}, Hint: lp.hint}
	} else if p != nil {
		panic(p)
	}
	return f
}

// learnerPanic carries a panic of the learner's code through the suite.
type learnerPanic struct {
	v    any
	rule kit.Rule           // the rule the call was checked against
	call string             // the call, with its input
	hint func() []kit.Match // the known mistakes that panic there too
}

func indexSteps(l indexSubject, seg *segmentModel, padding int, target int64) *kit.Failure {
	if f := lookupCase(l, seg, 0, target); f != nil {
		return f
	}
	if padding > 0 {
		if f := lookupCase(l, seg, padding, target); f != nil {
			return f
		}
	}
	want := seg.lookup(target)
	for _, from := range []int32{want.position, 0} {
		if f := findCase(l, seg, from, target); f != nil {
			return f
		}
	}
	return nil
}

func lookupCase(l indexSubject, seg *segmentModel, padding int, target int64) *kit.Failure {
	index := seg.indexFile(padding)
	want := seg.lookup(target)
	off, pos := l.LookupIndex(index, len(seg.index), seg.baseOffset, target)
	if off == want.offset && pos == want.position {
		return nil
	}
	call := fmt.Sprintf("LookupIndex(index of %d entries + %d zero slots, entries=%d, baseOffset=%d, target=%d)",
		len(seg.index), padding, len(seg.index), seg.baseOffset, target)
	rule, what := ruleI1, fmt.Sprintf("%s must return the largest entry whose offset is <= %d: (%d, %d), not (%d, %d).", call, target, want.offset, want.position, off, pos)
	switch near := nearTarget(seg, target); {
	case near != target && lookupAt(l, seg, padding, near) == want:
		rule, what = ruleI7, fmt.Sprintf("%s must return (%d, %d), as it does for target %d: the target is %d past the base offset %d, but an offset is an int64, and so is every comparison with it (an entry's offset is baseOffset + its 4-byte relative offset).",
			call, want.offset, want.position, near, target-seg.baseOffset, seg.baseOffset)
	case seg.baseOffset != 0 && off == want.offset-seg.baseOffset:
		rule, what = ruleI3, fmt.Sprintf("%s: entries store offset - baseOffset; the answer is the absolute offset %d, not %d.", call, want.offset, off)
	case seg.baseOffset != 0 && [2]int64{off, int64(pos)} == (lookupInput{index, len(seg.index), seg.baseOffset, target}).relativeAnswer():
		rule, what = ruleI3, fmt.Sprintf("%s: entries store offset - baseOffset, so an entry's offset is baseOffset + its relative offset before it is compared with the target. Want (%d, %d), got (%d, %d).", call, want.offset, want.position, off, pos)
	case len(seg.index) == 0 || seg.index[0].offset > target:
		rule, what = ruleI2, fmt.Sprintf("%s: no entry is <= %d, so it must return (baseOffset, 0) = (%d, 0), not (%d, %d).", call, target, seg.baseOffset, off, pos)
	case padding > 0 && lookupOK(l, seg, target):
		rule, what = ruleI4, fmt.Sprintf("%s must only read the %d valid entries; the zero slots after them are not entries. Want (%d, %d), got (%d, %d).", call, len(seg.index), want.offset, want.position, off, pos)
	}
	return &kit.Failure{Rule: rule, What: what, Details: []string{seg.describe(target, int(want.position), int(pos)), "index file:\n" + kit.Hexdump(index, -1)},
		Hint: func() []kit.Match {
			return l.lookups.LooksLike(lookupOf(l.LookupIndex), lookupInput{index, len(seg.index), seg.baseOffset, target}, [2]int64{off, int64(pos)}, l.finds.Agrees(findOf(l.FindBatch)))
		}}
}

// nearTarget is a target within 2^31 of the base offset with the same right
// lookup as target's: just past the last entry (or the base offset) for a
// target far past it, the base offset - 1 for one far below.
func nearTarget(seg *segmentModel, target int64) int64 {
	far := int64(1) << 31
	switch {
	case target-seg.baseOffset >= far || target == math.MaxInt64:
		if n := len(seg.index); n > 0 {
			return min(max(seg.index[n-1].offset, seg.baseOffset)+1, seg.baseOffset+far-1)
		}
		return seg.baseOffset + 1
	case target < seg.baseOffset-far:
		return seg.baseOffset - 1
	}
	return target
}

// lookupAt is l's lookup of target on seg's index.
func lookupAt(l indexSubject, seg *segmentModel, padding int, target int64) indexEntry {
	off, pos := l.LookupIndex(seg.indexFile(padding), len(seg.index), seg.baseOffset, target)
	return indexEntry{off, pos}
}

// farTargets are targets at the edges of an int64 offset, for a segment at
// base: 2^31 and 2^32 past it, Long.MaxValue, and 2^31 below it.
func farTargets(base int64) []int64 {
	return []int64{base + 1<<31, base + 1<<31 + 1, base + 1<<32 + 5, math.MaxInt64, base - 1<<31 - 1}
}

// lookupOK reports whether l answers target right on the index without padding.
func lookupOK(l indexSubject, seg *segmentModel, target int64) bool {
	want := seg.lookup(target)
	off, pos := l.LookupIndex(seg.indexFile(0), len(seg.index), seg.baseOffset, target)
	return off == want.offset && pos == want.position
}

func findCase(l indexSubject, seg *segmentModel, from int32, target int64) *kit.Failure {
	want, wantFound := seg.find(from, target)
	pos, found := l.FindBatch(seg.log, from, target)
	if found == wantFound && (!found || int(pos) == want.pos) {
		return nil
	}
	call := fmt.Sprintf("FindBatch(log of %d bytes, startPos=%d, target=%d)", len(seg.log), from, target)
	what := fmt.Sprintf("%s: no batch from position %d on holds an offset >= %d, so found must be false; got position %d.", call, from, target, pos)
	if wantFound {
		what = fmt.Sprintf("%s must return the first batch whose last offset is >= %d: the batch of offsets %d..%d at position %d; got (%d, %v).",
			call, target, want.baseOffset, want.lastOffset, want.pos, pos, found)
	}
	return &kit.Failure{Rule: ruleI5, What: what, Details: []string{seg.describe(target, int(from), want.pos, int(pos))},
		Hint: func() []kit.Match {
			return l.finds.LooksLike(findOf(l.FindBatch), findInput{seg, from, target}, findResult(pos, found), l.lookups.Agrees(lookupOf(l.LookupIndex)))
		}}
}

type indexCaseSpec struct {
	name    string
	seg     *segmentModel
	padding int
	target  int64
}

// indexKnownAnswers are Kafka's known answers (OffsetIndexTest's lookups on
// an empty and a preallocated index, LogSegmentTest's reads at and past
// offset gaps: testReadFromGap, testReadBeforeFirstOffset) and the chapter's
// worked example.
func indexKnownAnswers() []indexCaseSpec {
	kafkaIndex := &segmentModel{baseOffset: 45, index: []indexEntry{{45, 0}, {46, 10}, {47, 23}, {48, 37}}}
	empty := &segmentModel{baseOffset: 45}
	var cases []indexCaseSpec
	cases = append(cases, indexCaseSpec{"OffsetIndexTest: empty index at base 45, lookup(92) = (45, 0)", empty, 0, 92})
	for _, target := range []int64{44, 45, 46, 47, 48, 50} {
		cases = append(cases, indexCaseSpec{fmt.Sprintf("OffsetIndexTest: entries (45,0) (46,10) (47,23) (48,37), lookup(%d)", target), kafkaIndex, 0, target})
	}
	cases = append(cases, indexCaseSpec{"the same index preallocated with 26 zero slots (240 bytes), lookup(100) = (48, 37)", kafkaIndex, 26, 100})
	f3 := buildSegment(segmentSpec{baseOffset: 40, indexIntervalBytes: 10, batches: []batchSpec{{gap: 10, records: 4, valueSize: 5}}})
	f5 := buildSegment(segmentSpec{baseOffset: 40, indexIntervalBytes: 10, batches: []batchSpec{{gap: 10, records: 2, valueSize: 5}, {gap: 8, records: 2, valueSize: 5}}})
	cases = append(cases,
		indexCaseSpec{"LogSegmentTest: batch 50..53 in a segment at base 40; read(41) finds it", f3, 0, 41},
		indexCaseSpec{"LogSegmentTest: batches 50..51 and 60..61; read(52) finds the batch at 60", f5, 0, 52},
		indexCaseSpec{"LogSegmentTest: batches 50..51 and 60..61; read(55) finds the batch at 60", f5, 0, 55},
		indexCaseSpec{"LogSegmentTest: batches 50..51 and 60..61; read(62) finds nothing", f5, 0, 62},
	)
	ex := exampleSegment()
	for _, target := range []int64{217, 0, 299, 300} {
		cases = append(cases, indexCaseSpec{fmt.Sprintf("the chapter's example segment (offsets 0..299), a consumer fetches offset %d", target), ex, 0, target})
	}
	cases = append(cases, indexCaseSpec{"the chapter's example segment with its index still preallocated (4 zero slots), fetch 217", ex, 4, 217})
	cases = append(cases, indexRealLogAnswers()...)
	return append(cases, indexFarAnswers()...)
}

// indexFarAnswers are lookups at the edges of an int64 offset: a segment
// whose base offset is past 2^31 (a topic that has taken three billion
// records), targets 2^31 and more past the base offset and at Long.MaxValue,
// and an index whose last relative offset is 2^31 - 2, the largest a
// segment holds before Kafka rolls it (LogSegment.canConvertToRelativeOffset).
func indexFarAnswers() []indexCaseSpec {
	const base = 3_000_000_000
	far := buildSegment(segmentSpec{baseOffset: base, indexIntervalBytes: 0, batches: []batchSpec{
		{records: 3, valueSize: 5}, {records: 3, valueSize: 5}, {gap: 4, records: 2, valueSize: 5},
	}})
	wide := &segmentModel{baseOffset: base, index: []indexEntry{{base, 0}, {base + 1<<20, 4096}, {base + math.MaxInt32 - 1, math.MaxInt32 - 100}}}
	return []indexCaseSpec{
		{"a segment at base offset 3000000000 (past 2^31), read(3000000004)", far, 0, base + 4},
		{"the same segment, a target 2^31 + 7 past its base offset finds its last entry", far, 0, base + 1<<31 + 7},
		{"the same segment, a target of Long.MaxValue (9223372036854775807) finds its last entry", far, 0, math.MaxInt64},
		{"an index at base 3000000000 whose last relative offset is 2^31 - 2, lookup(base + 2^31 - 2)", wide, 0, base + math.MaxInt32 - 1},
		{"the same index, a target 2^32 + 5 past the base offset", wide, 2, base + 1<<32 + 5},
	}
}

// exampleSegment is the segment of notes/02: 100 batches of 3 records
// (offsets 0..299) with 100-byte values and index.interval.bytes 1024.
func exampleSegment() *segmentModel {
	s := segmentSpec{baseOffset: 0, indexIntervalBytes: 1024}
	for range 100 {
		s.batches = append(s.batches, batchSpec{records: 3, valueSize: 100})
	}
	return buildSegment(s)
}
