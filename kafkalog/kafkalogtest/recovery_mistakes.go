package kafkalogtest

import (
	"bytes"
	"encoding/binary"

	"github.com/kafkalive/kafkalive/internal/kit"
)

type recoveryInput struct {
	log        []byte
	baseOffset int64
	interval   int
}

type recoveryOutput struct {
	validBytes int
	index      []byte
}

// Equal lets kit.LooksLike compare outputs.
func (o recoveryOutput) Equal(p recoveryOutput) bool {
	return o.validBytes == p.validBytes && bytes.Equal(o.index, p.index)
}

func (in recoveryInput) right() recovered { return kafkaRecover(in.log, in.baseOffset, in.interval) }

// reindex rebuilds an index over batches with a changed entry rule.
func reindex(in recoveryInput, spans []batchSpan, entry func(b batchSpan) (uint32, bool)) []byte {
	var idx []byte
	for _, b := range spans {
		if rel, ok := entry(b); ok {
			idx = binary.BigEndian.AppendUint32(idx, rel)
			idx = binary.BigEndian.AppendUint32(idx, uint32(b.pos))
		}
	}
	return idx
}

// intervalRule is the right "more than interval bytes since the last entry" test.
func intervalRule(in recoveryInput, atLeast bool) func(b batchSpan) bool {
	last := 0
	return func(b batchSpan) bool {
		ok := b.pos-last > in.interval || (atLeast && b.pos-last >= in.interval)
		if ok {
			last = b.pos
		}
		return ok
	}
}

var recoveryMistakes = []kit.Mistake[recoveryInput, recoveryOutput]{
	{Says: "a torn tail is kept: the last, incomplete batch is not cut", Do: func(in recoveryInput) recoveryOutput {
		r := in.right()
		if r.reason == stopTornBatch || r.reason == stopTornHeader {
			return recoveryOutput{len(in.log), r.index}
		}
		return recoveryOutput{r.validBytes, r.index}
	}},
	{Says: "zero padding is kept: a length of 0 is read as the end of the data instead of corruption, and the zeros stay in the file", Do: func(in recoveryInput) recoveryOutput {
		r := in.right()
		if r.reason != stopShortLength || binary.BigEndian.Uint32(in.log[r.validBytes+8:]) != 0 {
			return recoveryOutput{r.validBytes, r.index}
		}
		// The padding counts as one more "batch", which may get an index entry.
		lastEntry, last := 0, in.baseOffset-1
		if n := len(r.index); n > 0 {
			lastEntry = int(binary.BigEndian.Uint32(r.index[n-4:]))
		}
		if n := len(r.batches); n > 0 {
			last = r.batches[n-1].lastOffset
		}
		idx := r.index
		if r.validBytes-lastEntry > in.interval {
			idx = binary.BigEndian.AppendUint32(append([]byte(nil), idx...), uint32(last-in.baseOffset))
			idx = binary.BigEndian.AppendUint32(idx, uint32(r.validBytes))
		}
		return recoveryOutput{len(in.log), idx}
	}},
	{Says: "the index is not rebuilt", Do: func(in recoveryInput) recoveryOutput {
		return recoveryOutput{in.right().validBytes, nil}
	}},
	{Says: "the file is cut at the last index entry instead of after the last valid batch", Do: func(in recoveryInput) recoveryOutput {
		r := in.right()
		cut := 0
		if n := len(r.index); n > 0 {
			cut = int(binary.BigEndian.Uint32(r.index[n-4:]))
		}
		return recoveryOutput{cut, r.index}
	}},
	{Says: "the CRC is not checked, so a damaged batch is kept", Do: func(in recoveryInput) recoveryOutput {
		return recoverWith(in, func(reason stopReason) bool { return reason == stopCRC })
	}},
	{Says: "the magic byte is not checked", Do: func(in recoveryInput) recoveryOutput {
		return recoverWith(in, func(reason stopReason) bool { return reason == stopMagic })
	}},
	{Says: "offsets are not checked: a batch whose offsets go backwards is kept", Do: func(in recoveryInput) recoveryOutput {
		return recoverWith(in, func(reason stopReason) bool { return reason == stopOffsets })
	}},
	{Says: "index entries hold the batch's base offset; Kafka indexes the batch's last offset", Do: func(in recoveryInput) recoveryOutput {
		r := in.right()
		due := intervalRule(in, false)
		return recoveryOutput{r.validBytes, reindex(in, r.batches, func(b batchSpan) (uint32, bool) { return uint32(b.baseOffset - in.baseOffset), due(b) })}
	}},
	{Says: "index entries hold absolute offsets; the .index stores offset - baseOffset", Do: func(in recoveryInput) recoveryOutput {
		r := in.right()
		due := intervalRule(in, false)
		return recoveryOutput{r.validBytes, reindex(in, r.batches, func(b batchSpan) (uint32, bool) { return uint32(b.lastOffset), due(b) })}
	}},
	{Says: "an index entry is written when at least index.interval.bytes were kept (>=); Kafka waits for more than (>)", Do: func(in recoveryInput) recoveryOutput {
		r := in.right()
		due := intervalRule(in, true)
		return recoveryOutput{r.validBytes, reindex(in, r.batches, func(b batchSpan) (uint32, bool) { return uint32(b.lastOffset - in.baseOffset), due(b) })}
	}},
	{Says: "a bad batch is skipped and the walk goes on; Kafka cuts everything from the first bad byte", Do: func(in recoveryInput) recoveryOutput {
		r := recoverLax(in.log, in.baseOffset, in.interval, func(stopReason) bool { return true })
		return recoveryOutput{r.validBytes, in.right().index}
	}},
}

// recoverWith is the right recovery except that batches failing the ignored
// check are kept.
func recoverWith(in recoveryInput, ignore func(stopReason) bool) recoveryOutput {
	r := recoverLax(in.log, in.baseOffset, in.interval, ignore)
	return recoveryOutput{r.validBytes, r.index}
}
