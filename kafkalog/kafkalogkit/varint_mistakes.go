package kafkalogkit

import (
	"bytes"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/bigendiangroups"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/eightbitshift"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/forgotzigzag"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/fourbytes"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/lastbytecontinuation"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/logicalsignmask"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/overwritesdst"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/signedshift"
	"github.com/kafkalive/kafkalive/solutions/ch01/varint/mutants/signmagnitude"
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

// varintMistakes are the bank's mutants (solutions/ch01/varint/mutants), run
// as they are.
var varintMistakes = kit.NewSignatures(varintProbes,
	kit.Mistake[varintInput, []byte]{Name: "forgotzigzag", Says: "the zigzag step is missing: v was written as an unsigned number, so -1 takes 5 bytes", Do: varintOf(forgotzigzag.AppendVarint)},
	kit.Mistake[varintInput, []byte]{Name: "lastbytecontinuation", Says: "the continuation bit (0x80) is also set on the last byte", Do: varintOf(lastbytecontinuation.AppendVarint)},
	kit.Mistake[varintInput, []byte]{Name: "signedshift", Says: "the zigzag value was kept in a signed int32, so from 2^31 up it looks negative and the loop stops after one byte", Do: varintOf(signedshift.AppendVarint)},
	kit.Mistake[varintInput, []byte]{Name: "logicalsignmask", Says: "the sign mask uses a logical shift (uint32(v)>>31) instead of an arithmetic one (v>>31)", Do: varintOf(logicalsignmask.AppendVarint)},
	kit.Mistake[varintInput, []byte]{Name: "signmagnitude", Says: "sign and magnitude instead of zigzag: |v|<<1 | sign", Do: varintOf(signmagnitude.AppendVarint)},
	kit.Mistake[varintInput, []byte]{Name: "bigendiangroups", Says: "the groups are written most significant first (big-endian); varints start with the low 7 bits", Do: varintOf(bigendiangroups.AppendVarint)},
	kit.Mistake[varintInput, []byte]{Name: "eightbitshift", Says: "the value is shifted by 8 bits per byte instead of 7", Do: varintOf(eightbitshift.AppendVarint)},
	kit.Mistake[varintInput, []byte]{Name: "fourbytes", Says: "the loop stops after 4 bytes; a Kafka varint can take 5", Do: varintOf(fourbytes.AppendVarint)},
	kit.Mistake[varintInput, []byte]{Name: "overwritesdst", Says: "the varint replaces dst instead of being appended to it", Do: varintOf(overwritesdst.AppendVarint)},
)
