package kafkalogkit

import (
	"bytes"

	"github.com/kafkalive/kafkalive/internal/kit"
)

type varintInput struct {
	dst []byte
	v   int32
}

// varintOf calls an AppendVarint on in, on a copy of dst.
func varintOf(f func([]byte, int32) []byte) func(varintInput) []byte {
	return func(in varintInput) []byte { return f(bytes.Clone(in.dst), in.v) }
}

// varintProbes are the known answers' inputs: a mistake is named only if it
// also agrees with the learner's code on all of them.
func varintProbes() []varintInput {
	var in []varintInput
	for _, dst := range [][]byte{nil, []byte("kafka")} {
		for _, v := range kafkaVarints {
			in = append(in, varintInput{dst, v})
		}
	}
	return in
}

// varintSignatures recognises the known mistakes in a learner's AppendVarint.
func varintSignatures(known []kit.Known[VarintCodec]) *kit.Signatures[varintInput, []byte] {
	return kit.NewSignatures(varintProbes, kit.MistakesOf(known, func(c VarintCodec) func(varintInput) []byte {
		return varintOf(c.AppendVarint)
	})...)
}
