package kafkalogtest

import (
	"encoding/binary"

	"github.com/kafkalive/kafkalive/internal/kit"
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

// lookupBy returns the entry that pick chooses among the first n entries, or
// (baseOffset, 0); pick gets the absolute offsets.
func (in lookupInput) lookupBy(n int, pick func(offsets []int64) int) [2]int64 {
	offsets := make([]int64, n)
	for i := range n {
		rel, _ := in.entry(i)
		offsets[i] = in.baseOffset + rel
	}
	i := pick(offsets)
	if i < 0 {
		return [2]int64{in.baseOffset, 0}
	}
	_, pos := in.entry(i)
	return [2]int64{offsets[i], pos}
}

func lastWhere(offsets []int64, ok func(int64) bool) int {
	found := -1
	for i, o := range offsets {
		if ok(o) {
			found = i
		}
	}
	return found
}

var lookupMistakes = []kit.Mistake[lookupInput, [2]int64]{
	{Says: "it returns the next entry (the smallest offset >= target) instead of the largest offset <= target", Do: func(in lookupInput) [2]int64 {
		return in.lookupBy(in.entries, func(o []int64) int {
			for i := range o {
				if o[i] >= in.target {
					return i
				}
			}
			return -1
		})
	}},
	{Says: "it looks for the largest offset < target, so an exact hit returns the entry before it", Do: func(in lookupInput) [2]int64 {
		return in.lookupBy(in.entries, func(o []int64) int { return lastWhere(o, func(x int64) bool { return x < in.target }) })
	}},
	{Says: "it trusts the zero-filled slots of a preallocated index as entries (offset baseOffset, position 0)", Do: func(in lookupInput) [2]int64 {
		return in.lookupBy(len(in.index)/8, func(o []int64) int { return lastWhere(o, func(x int64) bool { return x <= in.target }) })
	}},
	{Says: "when the target is below the first entry it returns the first entry instead of (baseOffset, 0)", Do: func(in lookupInput) [2]int64 {
		return in.lookupBy(in.entries, func(o []int64) int {
			i := lastWhere(o, func(x int64) bool { return x <= in.target })
			if i < 0 && len(o) > 0 {
				return 0
			}
			return i
		})
	}},
	{Says: "the binary search stops one entry early", Do: func(in lookupInput) [2]int64 {
		return in.lookupBy(in.entries, func(o []int64) int {
			return max(lastWhere(o, func(x int64) bool { return x <= in.target })-1, -1)
		})
	}},
	{Says: "the relative offsets are compared with the target as if absolute (baseOffset not added)", Do: func(in lookupInput) [2]int64 {
		abs := in
		abs.baseOffset = 0
		r := abs.lookupBy(in.entries, func(o []int64) int { return lastWhere(o, func(x int64) bool { return x <= in.target }) })
		if r == [2]int64{0, 0} {
			r[0] = in.baseOffset
		}
		return r
	}},
	{Says: "the entry's two fields are read in the wrong order (position first)", Do: func(in lookupInput) [2]int64 {
		sw := lookupInput{index: make([]byte, len(in.index)), entries: in.entries, baseOffset: in.baseOffset, target: in.target}
		for i := 0; i+8 <= len(in.index); i += 8 {
			copy(sw.index[i:], in.index[i+4:i+8])
			copy(sw.index[i+4:], in.index[i:i+4])
		}
		return sw.lookupBy(in.entries, func(o []int64) int { return lastWhere(o, func(x int64) bool { return x <= in.target }) })
	}},
}

func (in findInput) firstFrom(ok func(b batchSpan) bool) [2]int64 {
	for _, b := range in.seg.batches {
		if b.pos >= int(in.from) && ok(b) {
			return [2]int64{int64(b.pos), 1}
		}
	}
	return [2]int64{0, 0}
}

var findMistakes = []kit.Mistake[findInput, [2]int64]{
	{Says: "it compares the batch's base offset (the first offset) instead of its last offset, so it misses a target inside a batch", Do: func(in findInput) [2]int64 {
		return in.firstFrom(func(b batchSpan) bool { return b.baseOffset >= in.target })
	}},
	{Says: "it looks for lastOffset > target instead of >=, so it skips the batch ending at the target", Do: func(in findInput) [2]int64 {
		return in.firstFrom(func(b batchSpan) bool { return b.lastOffset > in.target })
	}},
	{Says: "it skips length bytes to the next batch; the next batch starts 12 + length bytes on (length does not count baseOffset and itself)", Do: func(in findInput) [2]int64 {
		log := in.seg.log
		for pos := int(in.from); pos >= 0 && pos+27 <= len(log); {
			base := int64(binary.BigEndian.Uint64(log[pos:]))
			length := int(int32(binary.BigEndian.Uint32(log[pos+8:])))
			if base+int64(int32(binary.BigEndian.Uint32(log[pos+23:]))) >= in.target {
				return [2]int64{int64(pos), 1}
			}
			if length <= 0 {
				break
			}
			pos += length
		}
		return [2]int64{0, 0}
	}},
	{Name: "lastfromcount", Says: "it takes a batch's last offset to be baseOffset + recordsCount - 1, as if offsets were dense; a compacted batch keeps its lastOffsetDelta with fewer records, and the cleaner's empty batch has none", Do: func(in findInput) [2]int64 {
		return in.firstFrom(func(b batchSpan) bool { return b.baseOffset+int64(b.recordsCount)-1 >= in.target })
	}},
	{Name: "skipsempty", Says: "it skips batches with no records; the empty batch the cleaner keeps still covers its offsets", Do: func(in findInput) [2]int64 {
		return in.firstFrom(func(b batchSpan) bool { return b.lastOffset >= in.target && b.recordsCount > 0 })
	}},
	{Name: "skipscontrol", Says: "it skips control batches (transaction markers); they hold offsets like any other batch", Do: func(in findInput) [2]int64 {
		return in.firstFrom(func(b batchSpan) bool { return b.lastOffset >= in.target && !b.control })
	}},
	{Says: "it returns where the batch ends instead of where it starts", Do: func(in findInput) [2]int64 {
		r := in.firstFrom(func(b batchSpan) bool { return b.lastOffset >= in.target })
		for _, b := range in.seg.batches {
			if int64(b.pos) == r[0] && r[1] == 1 {
				r[0] += int64(b.size)
			}
		}
		return r
	}},
}
