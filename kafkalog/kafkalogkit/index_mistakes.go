package kafkalogkit

import (
	"bytes"
	"encoding/binary"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/absoluteoffsets"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/firstentrybelow"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/lastfromcount"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/nextentry"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/returnsbatchend"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/scanbaseoffset"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/scanstrictlygreater"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/skipscontrol"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/skipsempty"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/skipwithoutoverhead"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/stopsoneearly"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/strictlyless"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/swappedfields"
	"github.com/kafkalive/kafkalive/solutions/ch02/index/mutants/trustszeropadding"
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
			in = append(in, lookupInput{c.seg.indexFile(padding), len(c.seg.index), c.seg.baseOffset, c.target})
		}
	}
	return in
}

func findProbes() []findInput {
	var in []findInput
	for _, c := range indexKnownAnswers() {
		for _, from := range []int32{c.seg.lookup(c.target).position, 0} {
			in = append(in, findInput{c.seg, from, c.target})
		}
	}
	return in
}

// lookupMistakes and findMistakes are the bank's mutants
// (solutions/ch02/index/mutants), run as they are: a mutant whose mistake is
// in the scan has a right LookupIndex, and the other way round.
var lookupMistakes = kit.NewSignatures(lookupProbes,
	kit.Mistake[lookupInput, [2]int64]{Name: "absoluteoffsets", Says: "the relative offsets are compared with the target as if absolute (baseOffset not added)", Do: lookupOf(absoluteoffsets.LookupIndex)},
	kit.Mistake[lookupInput, [2]int64]{Name: "firstentrybelow", Says: "when the target is below the first entry it returns the first entry instead of (baseOffset, 0)", Do: lookupOf(firstentrybelow.LookupIndex)},
	kit.Mistake[lookupInput, [2]int64]{Name: "nextentry", Says: "it returns the next entry (the smallest offset >= target) instead of the largest offset <= target", Do: lookupOf(nextentry.LookupIndex)},
	kit.Mistake[lookupInput, [2]int64]{Name: "stopsoneearly", Says: "the binary search stops one entry early", Do: lookupOf(stopsoneearly.LookupIndex)},
	kit.Mistake[lookupInput, [2]int64]{Name: "strictlyless", Says: "it looks for the largest offset < target, so an exact hit returns the entry before it", Do: lookupOf(strictlyless.LookupIndex)},
	kit.Mistake[lookupInput, [2]int64]{Name: "swappedfields", Says: "the entry's two fields are read in the wrong order (position first)", Do: lookupOf(swappedfields.LookupIndex)},
	kit.Mistake[lookupInput, [2]int64]{Name: "trustszeropadding", Says: "it trusts the zero-filled slots of a preallocated index as entries (offset baseOffset, position 0)", Do: lookupOf(trustszeropadding.LookupIndex)},
	kit.Mistake[lookupInput, [2]int64]{Name: "scanbaseoffset", Says: "it compares the batch's base offset (the first offset) instead of its last offset, so it misses a target inside a batch", Do: lookupOf(scanbaseoffset.LookupIndex)},
	kit.Mistake[lookupInput, [2]int64]{Name: "scanstrictlygreater", Says: "it looks for lastOffset > target instead of >=, so it skips the batch ending at the target", Do: lookupOf(scanstrictlygreater.LookupIndex)},
	kit.Mistake[lookupInput, [2]int64]{Name: "skipwithoutoverhead", Says: "it skips length bytes to the next batch; the next batch starts 12 + length bytes on (length does not count baseOffset and itself)", Do: lookupOf(skipwithoutoverhead.LookupIndex)},
	kit.Mistake[lookupInput, [2]int64]{Name: "lastfromcount", Says: "it takes a batch's last offset to be baseOffset + recordsCount - 1, as if offsets were dense; a compacted batch keeps its lastOffsetDelta with fewer records, and the cleaner's empty batch has none", Do: lookupOf(lastfromcount.LookupIndex)},
	kit.Mistake[lookupInput, [2]int64]{Name: "skipsempty", Says: "it skips batches with no records; the empty batch the cleaner keeps still covers its offsets", Do: lookupOf(skipsempty.LookupIndex)},
	kit.Mistake[lookupInput, [2]int64]{Name: "skipscontrol", Says: "it skips control batches (transaction markers); they hold offsets like any other batch", Do: lookupOf(skipscontrol.LookupIndex)},
	kit.Mistake[lookupInput, [2]int64]{Name: "returnsbatchend", Says: "it returns where the batch ends instead of where it starts", Do: lookupOf(returnsbatchend.LookupIndex)},
)

var findMistakes = kit.NewSignatures(findProbes,
	kit.Mistake[findInput, [2]int64]{Name: "absoluteoffsets", Says: "the relative offsets are compared with the target as if absolute (baseOffset not added)", Do: findOf(absoluteoffsets.FindBatch)},
	kit.Mistake[findInput, [2]int64]{Name: "firstentrybelow", Says: "when the target is below the first entry it returns the first entry instead of (baseOffset, 0)", Do: findOf(firstentrybelow.FindBatch)},
	kit.Mistake[findInput, [2]int64]{Name: "nextentry", Says: "it returns the next entry (the smallest offset >= target) instead of the largest offset <= target", Do: findOf(nextentry.FindBatch)},
	kit.Mistake[findInput, [2]int64]{Name: "stopsoneearly", Says: "the binary search stops one entry early", Do: findOf(stopsoneearly.FindBatch)},
	kit.Mistake[findInput, [2]int64]{Name: "strictlyless", Says: "it looks for the largest offset < target, so an exact hit returns the entry before it", Do: findOf(strictlyless.FindBatch)},
	kit.Mistake[findInput, [2]int64]{Name: "swappedfields", Says: "the entry's two fields are read in the wrong order (position first)", Do: findOf(swappedfields.FindBatch)},
	kit.Mistake[findInput, [2]int64]{Name: "trustszeropadding", Says: "it trusts the zero-filled slots of a preallocated index as entries (offset baseOffset, position 0)", Do: findOf(trustszeropadding.FindBatch)},
	kit.Mistake[findInput, [2]int64]{Name: "scanbaseoffset", Says: "it compares the batch's base offset (the first offset) instead of its last offset, so it misses a target inside a batch", Do: findOf(scanbaseoffset.FindBatch)},
	kit.Mistake[findInput, [2]int64]{Name: "scanstrictlygreater", Says: "it looks for lastOffset > target instead of >=, so it skips the batch ending at the target", Do: findOf(scanstrictlygreater.FindBatch)},
	kit.Mistake[findInput, [2]int64]{Name: "skipwithoutoverhead", Says: "it skips length bytes to the next batch; the next batch starts 12 + length bytes on (length does not count baseOffset and itself)", Do: findOf(skipwithoutoverhead.FindBatch)},
	kit.Mistake[findInput, [2]int64]{Name: "lastfromcount", Says: "it takes a batch's last offset to be baseOffset + recordsCount - 1, as if offsets were dense; a compacted batch keeps its lastOffsetDelta with fewer records, and the cleaner's empty batch has none", Do: findOf(lastfromcount.FindBatch)},
	kit.Mistake[findInput, [2]int64]{Name: "skipsempty", Says: "it skips batches with no records; the empty batch the cleaner keeps still covers its offsets", Do: findOf(skipsempty.FindBatch)},
	kit.Mistake[findInput, [2]int64]{Name: "skipscontrol", Says: "it skips control batches (transaction markers); they hold offsets like any other batch", Do: findOf(skipscontrol.FindBatch)},
	kit.Mistake[findInput, [2]int64]{Name: "returnsbatchend", Says: "it returns where the batch ends instead of where it starts", Do: findOf(returnsbatchend.FindBatch)},
)
