package kafkalogkit

import (
	"bytes"

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

// recoverySubject is a recovery under judgement, with the known mistakes to
// recognise in it.
type recoverySubject struct {
	Recovery
	mistakes *kit.Signatures[recoveryInput, recoveryOutput]
}

func judgeRecovery(r Recovery, known []kit.Known[Recovery]) recoverySubject {
	return recoverySubject{Recovery: r, mistakes: kit.NewSignatures(recoveryProbes, kit.MistakesOf(known, func(k Recovery) func(recoveryInput) recoveryOutput {
		return recoveryOf(k.Recover)
	})...)}
}
