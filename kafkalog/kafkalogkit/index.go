package kafkalogkit

import (
	"fmt"
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

	indexRules = []kit.Rule{ruleI1, ruleI2, ruleI3, ruleI4, ruleI5, ruleI6}
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
	return checkIndex(judgeIndex(l, known), kit.Replay("./"+indexExercise.Dir, "TestIndex", false))
}

func checkIndex(l indexSubject, replay string) error {
	if err := probeIndex(l.IndexLookup); err != nil {
		return err
	}
	for _, c := range indexKnownAnswers() {
		if f := indexCase(l, c.seg, c.padding, c.target); f != nil {
			f.Details = append([]string{"known answer: " + c.name}, f.Details...)
			f.Replay = replay
			return f
		}
	}
	return nil
}

// IndexProperties returns the rapid property for l: for any segment (batches of
// 1 to 5 records, offset gaps, compacted and empty batches, transaction markers,
// every codec, any index.interval.bytes, a preallocated index with zero slots
// after the valid entries) and any target, LookupIndex and FindBatch give
// Kafka's answers.
func IndexProperties(l IndexLookup, known ...kit.Known[IndexLookup]) func(*rapid.T) {
	return indexProperties(judgeIndex(l, known), kit.Replay("./"+indexExercise.Dir, "TestIndex/properties", true))
}

func indexProperties(l indexSubject, replay string) func(*rapid.T) {
	return func(t *rapid.T) {
		seg := buildSegment(drawSegmentSpec(t))
		padding := kit.Draw(t, rapid.IntRange(0, 3), "zeroSlots")
		last := seg.baseOffset
		if n := len(seg.batches); n > 0 {
			last = seg.batches[n-1].lastOffset
		}
		target := kit.Draw(t, rapid.Int64Range(seg.baseOffset-2, last+2), "target")
		if f := indexCase(l, seg, padding, target); f != nil {
			f.Replay = replay
			kit.Fatal(t, f)
		}
	}
}

// TestIndex runs CheckIndex and IndexProperties as subtests of t.
func TestIndex(t *testing.T, lookup IndexLookup, known ...kit.Known[IndexLookup]) {
	t.Helper()
	dir := kit.CallerDir(1, indexExercise.Dir)
	if err := probeIndex(lookup); err != nil {
		t.Fatal(err)
	}
	l := judgeIndex(lookup, known)
	kit.KnownAnswersFirst(t, func(t *testing.T) {
		t.Helper()
		if err := checkIndex(l, kit.Replay(dir, t.Name(), false)); err != nil {
			kit.Report(t, err)
		}
	}, "properties", func(t *testing.T) {
		t.Helper()
		rapid.Check(t, indexProperties(l, kit.Replay(dir, t.Name(), true)))
	})
}

// indexCase looks target up the way Kafka does (index, then scan from the
// position found, and also a scan from position 0) and checks each step.
func indexCase(l indexSubject, seg *segmentModel, padding int, target int64) *kit.Failure {
	guarded := l
	guarded.IndexLookup = IndexLookup{
		LookupIndex: func(index []byte, entries int, baseOffset, target int64) (off int64, pos int32) {
			if p := kit.Guard(func() { off, pos = l.LookupIndex(index, entries, baseOffset, target) }); p != nil {
				panic(learnerPanic{p, ruleI1, fmt.Sprintf("LookupIndex(index of %d bytes, entries=%d, baseOffset=%d, target=%d)", len(index), entries, baseOffset, target)})
			}
			return off, pos
		},
		FindBatch: func(log []byte, startPos int32, target int64) (pos int32, found bool) {
			if p := kit.Guard(func() { pos, found = l.FindBatch(log, startPos, target) }); p != nil {
				panic(learnerPanic{p, ruleI5, fmt.Sprintf("FindBatch(log of %d bytes, startPos=%d, target=%d)", len(log), startPos, target)})
			}
			return pos, found
		},
	}
	var f *kit.Failure
	p := kit.Recover(func() { f = indexSteps(guarded, seg, padding, target) })
	if lp, ok := p.(learnerPanic); ok && kit.IsTimeout(lp.v) {
		return kit.Timeout(lp.rule, lp.call, termination02, seg.describe())
	} else if ok {
		return &kit.Failure{Rule: ruleI6, What: fmt.Sprintf("Looking up offset %d panicked: %v. Input from disk must never crash a broker.", target, lp.v),
			Details: []string{seg.describe()}}
	} else if p != nil {
		panic(p)
	}
	return f
}

// learnerPanic carries a panic of the learner's code through the suite.
type learnerPanic struct {
	v    any
	rule kit.Rule // the rule the call was checked against
	call string   // the call, with its input
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
	switch {
	case seg.baseOffset != 0 && off == want.offset-seg.baseOffset:
		rule, what = ruleI3, fmt.Sprintf("%s: entries store offset - baseOffset; the answer is the absolute offset %d, not %d.", call, want.offset, off)
	case seg.baseOffset != 0 && [2]int64{off, int64(pos)} == (lookupInput{index, len(seg.index), seg.baseOffset, target}).relativeAnswer():
		rule, what = ruleI3, fmt.Sprintf("%s: entries store offset - baseOffset, so an entry's offset is baseOffset + its relative offset before it is compared with the target. Want (%d, %d), got (%d, %d).", call, want.offset, want.position, off, pos)
	case len(seg.index) == 0 || seg.index[0].offset > target:
		rule, what = ruleI2, fmt.Sprintf("%s: no entry is <= %d, so it must return (baseOffset, 0) = (%d, 0), not (%d, %d).", call, target, seg.baseOffset, off, pos)
	case padding > 0 && lookupOK(l, seg, target):
		rule, what = ruleI4, fmt.Sprintf("%s must only read the %d valid entries; the zero slots after them are not entries. Want (%d, %d), got (%d, %d).", call, len(seg.index), want.offset, want.position, off, pos)
	}
	return &kit.Failure{Rule: rule, What: what, Details: []string{seg.describe(), "index file:\n" + kit.Hexdump(index, -1)},
		Hint: func() []kit.Match {
			return l.lookups.LooksLike(lookupOf(l.LookupIndex), lookupInput{index, len(seg.index), seg.baseOffset, target}, [2]int64{off, int64(pos)}, l.finds.Agrees(findOf(l.FindBatch)))
		}}
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
	return &kit.Failure{Rule: ruleI5, What: what, Details: []string{seg.describe()},
		Hint: func() []kit.Match {
			return l.finds.LooksLike(findOf(l.FindBatch), findInput{seg, from, target}, findResult(pos, found), l.lookups.Agrees(lookupOf(l.LookupIndex)))
		}}
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
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
	return append(cases, indexRealLogAnswers()...)
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
