package kafkalogkit

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/kafkalive/kafkalive/internal/kit"
)

// varintDst is a dst as the caller hands it over: its bytes, and spare
// capacity after them (filled with bytes the caller does not own any more).
type varintDst struct {
	bytes []byte
	spare int
}

// slice builds the dst.
func (d varintDst) slice() []byte {
	if d.bytes == nil && d.spare == 0 {
		return nil
	}
	b := make([]byte, len(d.bytes), len(d.bytes)+d.spare)
	copy(b, d.bytes)
	for i := len(b); i < cap(b); i++ {
		b[:cap(b)][i] = 0xee
	}
	return b
}

func (d varintDst) String() string {
	s := kit.Hex(d.bytes, 16)
	if d.spare > 0 {
		s += fmt.Sprintf(" with spare capacity %d", d.spare)
	}
	return s
}

type varintInput struct {
	dst varintDst
	v   int32
}

// varintSubject is an AppendVarint under judgement, with the known mistakes
// to recognise in it: in its bytes, and in what happens to a result after the
// next call.
type varintSubject struct {
	VarintCodec
	values  *kit.Signatures[varintInput, []byte]
	aliases *kit.Signatures[[2]int32, []byte]
}

func judgeVarint(c VarintCodec, known []kit.Known[VarintCodec]) varintSubject {
	return varintSubject{
		VarintCodec: c,
		values: kit.NewSignatures(varintProbes, kit.MistakesOf(known, func(k VarintCodec) func(varintInput) []byte {
			return varintOf(k.AppendVarint)
		})...),
		aliases: kit.NewSignatures(aliasProbes, kit.MistakesOf(known, func(k VarintCodec) func([2]int32) []byte {
			return aliasOf(k.AppendVarint)
		})...),
	}
}

// varintOf calls an AppendVarint on in, on a dst of its own; a copy of the
// result, in case the call keeps it.
func varintOf(f func([]byte, int32) []byte) func(varintInput) []byte {
	return func(in varintInput) []byte { return bytes.Clone(f(in.dst.slice(), in.v)) }
}

// aliasOf calls an AppendVarint on nil twice and returns what the first
// result reads after the second call.
func aliasOf(f func([]byte, int32) []byte) func([2]int32) []byte {
	return func(p [2]int32) []byte {
		first := f(nil, p[0])
		f(nil, p[1])
		return bytes.Clone(first)
	}
}

// varintProbes are the inputs a mistake must agree with the learner's code
// on to be named: the known answers', every extreme on every dst, and a
// fixed sample of other values.
func varintProbes() []varintInput {
	var in []varintInput
	values := append(append([]int32(nil), kafkaVarints...), int32Extremes...)
	r := rand.New(rand.NewPCG(1, 2))
	for range 32 {
		values = append(values, r.Int32()-r.Int32())
	}
	for _, dst := range varintDsts {
		for _, v := range values {
			in = append(in, varintInput{dst, v})
		}
	}
	return in
}

func aliasProbes() [][2]int32 {
	probes := append([][2]int32(nil), varintPairs...)
	for i, v := range int32Extremes {
		probes = append(probes, [2]int32{v, int32Extremes[(i+7)%len(int32Extremes)]})
	}
	return probes
}
