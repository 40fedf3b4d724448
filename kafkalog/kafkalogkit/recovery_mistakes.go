package kafkalogkit

import (
	"bytes"
	"encoding/binary"
	"math"

	"pgregory.net/rapid"

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

// recoveryOf calls a Recover on in, on a copy of the file; a copy of the
// index, in case the call keeps it.
func recoveryOf(f func([]byte, int64, int) (int, []byte)) func(recoveryInput) recoveryOutput {
	return func(in recoveryInput) recoveryOutput {
		valid, index := f(bytes.Clone(in.log), in.baseOffset, in.interval)
		return recoveryOutput{valid, bytes.Clone(index)}
	}
}

// recoveryProbes are the known answers' inputs: a mistake is named only if it
// also agrees with the learner's code on all of them.
func recoveryProbes() []recoveryInput {
	var in []recoveryInput
	for _, c := range recoveryKnownAnswers() {
		in = append(in, recoveryInput{c.log, c.baseOffset, c.interval})
	}
	return append(in, kit.Examples(rapid.Custom(drawDamagedSegment), 40)...)
}

// drawDamagedSegment draws a segment as a crash may leave it: whole batches
// of every shape, then one kind of damage.
func drawDamagedSegment(t *rapid.T) recoveryInput {
	spec := drawSegmentSpec(t)
	spec.baseOffset = rapid.SampledFrom([]int64{0, 1000, 3_000_000_000}).Draw(t, "baseOffset")
	seg := buildSegment(spec)
	log := bytes.Clone(seg.log)
	if n := len(seg.batches); n > 0 {
		b := seg.batches[rapid.IntRange(0, n-1).Draw(t, "damagedBatch")]
		switch rapid.SampledFrom([]string{"none", "torn", "zeros", "bitflip", "length", "stale"}).Draw(t, "damage") {
		case "torn":
			log = log[:b.pos+rapid.IntRange(0, b.size-1).Draw(t, "tornAt")]
		case "zeros":
			log = append(log[:b.pos+b.size], make([]byte, rapid.IntRange(1, 100).Draw(t, "zeroBytes"))...)
		case "bitflip":
			log[b.pos+rapid.IntRange(0, b.size-1).Draw(t, "flippedByte")] ^= 1 << rapid.IntRange(0, 7).Draw(t, "flippedBit")
		case "length":
			binary.BigEndian.PutUint32(log[b.pos+8:], rapid.SampledFrom([]uint32{0, 13, 48, 0x7ffffff5, 0x7fffffff, 0xffffffff}).Draw(t, "damagedLength"))
		case "stale":
			log = append(log, seg.log[b.pos:b.pos+b.size]...)
		}
	}
	return recoveryInput{log, spec.baseOffset, rapid.SampledFrom([]int{0, 100, 300, math.MaxInt32}).Draw(t, "indexIntervalBytes")}
}

// recoverySubject is a recovery under judgement, with the known mistakes to
// recognise in it.
type recoverySubject struct {
	Recovery
	mistakes *kit.Signatures[recoveryInput, recoveryOutput]
	aliases  *kit.Signatures[[2]recoveryInput, []byte]
}

func judgeRecovery(r Recovery, known []kit.Known[Recovery]) recoverySubject {
	return recoverySubject{Recovery: r,
		mistakes: kit.NewSignatures(recoveryProbes, kit.MistakesOf(known, func(k Recovery) func(recoveryInput) recoveryOutput {
			return recoveryOf(k.Recover)
		})...),
		aliases: kit.NewSignatures(recoveryAliasProbes, kit.MistakesOf(known, func(k Recovery) func([2]recoveryInput) []byte {
			return recoveryAliasOf(k.Recover)
		})...),
	}
}

// recoveryAliasOf recovers p[0], then p[1], and returns what the index
// returned for p[0] holds after the second call.
func recoveryAliasOf(f func([]byte, int64, int) (int, []byte)) func([2]recoveryInput) []byte {
	return func(p [2]recoveryInput) []byte {
		_, first := f(bytes.Clone(p[0].log), p[0].baseOffset, p[0].interval)
		f(bytes.Clone(p[1].log), p[1].baseOffset, p[1].interval)
		return bytes.Clone(first)
	}
}

// recoveryAliasProbes are the known answers' pairs of calls.
func recoveryAliasProbes() [][2]recoveryInput {
	in := recoveryProbes()
	var out [][2]recoveryInput
	for i := 1; i < len(in); i++ {
		out = append(out, [2]recoveryInput{in[i-1], in[i]})
	}
	return out
}

// smallerRecovery proposes smaller cases than in: the first batch gone (the
// segment then starts at the next one), or the bytes after the first bad one
// halved.
func smallerRecovery(in recoveryInput) []recoveryInput {
	var out []recoveryInput
	r := kafkaRecover(in.log, in.baseOffset, in.interval)
	switch first := r.batches; {
	case len(first) > 1:
		out = append(out, recoveryInput{in.log[first[0].size:], first[1].baseOffset, in.interval})
	case len(first) == 1 && r.reason != stopOffsets:
		// What follows the batch does not depend on its offsets: the segment
		// may start where the batch ended.
		out = append(out, recoveryInput{in.log[first[0].size:], first[0].lastOffset + 1, in.interval})
	}
	if tail := len(in.log) - r.validBytes; tail > 64 {
		out = append(out, recoveryInput{in.log[:r.validBytes+tail/2], in.baseOffset, in.interval})
	}
	return out
}
