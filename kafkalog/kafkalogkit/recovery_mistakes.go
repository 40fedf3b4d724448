package kafkalogkit

import (
	"bytes"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/crcwrongrange"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/cutatlastindexentry"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/indexabsolute"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/indexatleast"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/indexbaseoffset"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/keepstorntail"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/keepszeropadding"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/lastfromcount"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/nocrc"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/noindex"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/nomagic"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/nooffsetcheck"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/skipsbadbatch"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/stopsatempty"
	"github.com/kafkalive/kafkalive/solutions/ch04/recovery/mutants/trustslength"
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

// recoveryOf calls a Recover on in, on a copy of the file.
func recoveryOf(f func([]byte, int64, int) (int, []byte)) func(recoveryInput) recoveryOutput {
	return func(in recoveryInput) recoveryOutput {
		valid, index := f(bytes.Clone(in.log), in.baseOffset, in.interval)
		return recoveryOutput{valid, index}
	}
}

// recoveryProbes are the known answers' inputs: a mistake is named only if it
// also agrees with the learner's code on all of them.
func recoveryProbes() []recoveryInput {
	var in []recoveryInput
	for _, c := range recoveryKnownAnswers() {
		in = append(in, recoveryInput{c.log, c.baseOffset, c.interval})
	}
	return in
}

// recoveryMistakes are the bank's mutants (solutions/ch04/recovery/mutants),
// run as they are.
var recoveryMistakes = kit.NewSignatures(recoveryProbes,
	kit.Mistake[recoveryInput, recoveryOutput]{Name: "crcwrongrange", Says: "the CRC is computed from byte 17 (the crc field itself); it covers bytes 21 to the end of the batch", Do: recoveryOf(crcwrongrange.Recover)},
	kit.Mistake[recoveryInput, recoveryOutput]{Name: "cutatlastindexentry", Says: "the file is cut at the last index entry instead of after the last valid batch", Do: recoveryOf(cutatlastindexentry.Recover)},
	kit.Mistake[recoveryInput, recoveryOutput]{Name: "indexabsolute", Says: "index entries hold absolute offsets; the .index stores offset - baseOffset", Do: recoveryOf(indexabsolute.Recover)},
	kit.Mistake[recoveryInput, recoveryOutput]{Name: "indexatleast", Says: "an index entry is written when at least index.interval.bytes were kept (>=); Kafka waits for more than (>)", Do: recoveryOf(indexatleast.Recover)},
	kit.Mistake[recoveryInput, recoveryOutput]{Name: "indexbaseoffset", Says: "index entries hold the batch's base offset; Kafka indexes the batch's last offset", Do: recoveryOf(indexbaseoffset.Recover)},
	kit.Mistake[recoveryInput, recoveryOutput]{Name: "keepstorntail", Says: "a torn tail is kept: the last, incomplete batch is not cut", Do: recoveryOf(keepstorntail.Recover)},
	kit.Mistake[recoveryInput, recoveryOutput]{Name: "keepszeropadding", Says: "zero padding is kept: a length of 0 is read as the end of the data instead of corruption, and the zeros stay in the file", Do: recoveryOf(keepszeropadding.Recover)},
	kit.Mistake[recoveryInput, recoveryOutput]{Name: "nocrc", Says: "the CRC is not checked, so a damaged batch is kept", Do: recoveryOf(nocrc.Recover)},
	kit.Mistake[recoveryInput, recoveryOutput]{Name: "noindex", Says: "the index is not rebuilt", Do: recoveryOf(noindex.Recover)},
	kit.Mistake[recoveryInput, recoveryOutput]{Name: "nomagic", Says: "the magic byte is not checked", Do: recoveryOf(nomagic.Recover)},
	kit.Mistake[recoveryInput, recoveryOutput]{Name: "nooffsetcheck", Says: "offsets are not checked: a batch whose offsets go backwards is kept", Do: recoveryOf(nooffsetcheck.Recover)},
	kit.Mistake[recoveryInput, recoveryOutput]{Name: "skipsbadbatch", Says: "a bad batch is skipped and the walk goes on; Kafka cuts everything from the first bad byte", Do: recoveryOf(skipsbadbatch.Recover)},
	kit.Mistake[recoveryInput, recoveryOutput]{Name: "lastfromcount", Says: "a batch's last offset is taken to be baseOffset + recordsCount - 1, as if offsets were dense; a compacted batch keeps its lastOffsetDelta with fewer records, so its index entry (or the offset check) comes out wrong", Do: recoveryOf(lastfromcount.Recover)},
	kit.Mistake[recoveryInput, recoveryOutput]{Name: "stopsatempty", Says: "a batch with no records is taken for damage and the segment is cut there; the cleaner keeps such batches on purpose, and they are valid", Do: recoveryOf(stopsatempty.Recover)},
	kit.Mistake[recoveryInput, recoveryOutput]{Name: "trustslength", Says: "the length field is used before it is checked: zero padding reads as length 0, and a slice up to 12 + length runs backwards", Do: recoveryOf(trustslength.Recover)},
)

// panicsLike returns the Says of the one mistake that also panics on in, or "".
func panicsLike(learner func(recoveryInput) recoveryOutput, in recoveryInput) string {
	says := ""
	for _, m := range recoveryMistakes.Mistakes() {
		if kit.Recover(func() { m.Do(in) }) != nil {
			if says != "" {
				return ""
			}
			says = m.Says
		}
	}
	return says
}
