package kafkalogkit

import (
	"bytes"
	"encoding/binary"

	"github.com/kafkalive/kafkalive/internal/kit"
	"pgregory.net/rapid"
)

type lookupInput struct {
	index      []byte
	entries    int
	baseOffset int64
	target     int64
}

type findInput struct {
	seg    *segmentModel
	from   int32
	target int64
}

func (in lookupInput) entry(i int) (int64, int64) {
	return int64(binary.BigEndian.Uint32(in.index[8*i:])), int64(binary.BigEndian.Uint32(in.index[8*i+4:]))
}

// relativeAnswer is the entry whose relative offset, compared with the target
// as if it were absolute, is the largest <= target, returned with its relative
// offset: the answer of a lookup that forgot that entries store
// offset - baseOffset.
func (in lookupInput) relativeAnswer() [2]int64 {
	best := -1
	for i := range in.entries {
		if rel, _ := in.entry(i); rel <= in.target {
			best = i
		}
	}
	if best < 0 {
		return [2]int64{in.baseOffset, 0}
	}
	rel, pos := in.entry(best)
	return [2]int64{rel, pos}
}

// lookupOf calls a LookupIndex on in, on a copy of the index.
func lookupOf(f func([]byte, int, int64, int64) (int64, int32)) func(lookupInput) [2]int64 {
	return func(in lookupInput) [2]int64 {
		off, pos := f(bytes.Clone(in.index), in.entries, in.baseOffset, in.target)
		return [2]int64{off, int64(pos)}
	}
}

// findOf calls a FindBatch on in, on a copy of the log; the position of a
// batch not found is ignored.
func findOf(f func([]byte, int32, int64) (int32, bool)) func(findInput) [2]int64 {
	return func(in findInput) [2]int64 {
		pos, found := f(bytes.Clone(in.seg.log), in.from, in.target)
		return findResult(pos, found)
	}
}

func findResult(pos int32, found bool) [2]int64 {
	if !found {
		return [2]int64{0, 0}
	}
	return [2]int64{int64(pos), 1}
}

// lookupProbes and findProbes are the known answers' inputs: a mistake is
// named only if it also agrees with the learner's code on all of them.
func lookupProbes() []lookupInput {
	var in []lookupInput
	for _, c := range indexKnownAnswers() {
		for _, padding := range []int{0, c.padding} {
			for _, t := range append(farTargets(c.seg.baseOffset), c.target, c.seg.baseOffset, c.seg.baseOffset-1) {
				in = append(in, lookupInput{c.seg.indexFile(padding), len(c.seg.index), c.seg.baseOffset, t})
			}
		}
	}
	for _, c := range probeLookups() {
		in = append(in, lookupInput{c.seg.indexFile(c.padding), len(c.seg.index), c.seg.baseOffset, c.target})
	}
	return in
}

func findProbes() []findInput {
	var in []findInput
	for _, c := range indexKnownAnswers() {
		for _, from := range []int32{c.seg.lookup(c.target).position, 0} {
			for _, t := range append(farTargets(c.seg.baseOffset), c.target) {
				in = append(in, findInput{c.seg, from, t})
			}
		}
	}
	for _, c := range probeLookups() {
		in = append(in, findInput{c.seg, c.seg.lookup(c.target).position, c.target}, findInput{c.seg, 0, c.target})
	}
	return in
}

// probeLookups are a fixed sample of drawn lookups, probes beyond the known
// answers.
func probeLookups() []indexInput {
	return kit.Examples(rapid.Custom(drawIndexInput), 40)
}

// drawIndexInput draws a lookup as the property does: a segment, zero slots
// after its index entries, and a target near its offsets or far from them.
func drawIndexInput(t *rapid.T) indexInput {
	seg := buildSegment(drawSegmentSpec(t))
	padding := kit.Draw(t, rapid.IntRange(0, 3), "zeroSlots")
	last := seg.baseOffset
	if n := len(seg.batches); n > 0 {
		last = seg.batches[n-1].lastOffset
	}
	target := kit.Draw(t, rapid.OneOf(rapid.Int64Range(seg.baseOffset-2, last+2), rapid.SampledFrom(farTargets(seg.baseOffset))), "target")
	return indexInput{seg, padding, target}
}

// indexSubject is a lookup under judgement, with the known mistakes to
// recognise in it: a mistake in the scan leaves LookupIndex right, and the
// other way round.
type indexSubject struct {
	IndexLookup
	lookups *kit.Signatures[lookupInput, [2]int64]
	finds   *kit.Signatures[findInput, [2]int64]
}

func judgeIndex(l IndexLookup, known []kit.Known[IndexLookup]) indexSubject {
	return indexSubject{
		IndexLookup: l,
		lookups: kit.NewSignatures(lookupProbes, kit.MistakesOf(known, func(k IndexLookup) func(lookupInput) [2]int64 {
			return lookupOf(k.LookupIndex)
		})...),
		finds: kit.NewSignatures(findProbes, kit.MistakesOf(known, func(k IndexLookup) func(findInput) [2]int64 {
			return findOf(k.FindBatch)
		})...),
	}
}
