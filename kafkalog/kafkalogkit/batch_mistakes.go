package kafkalogkit

import (
	"bytes"

	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/kafkalog"
)

type recordInput struct {
	r *kafkalog.Record
	i int
}

type batchInput struct {
	dst []byte
	b   *kafkalog.RecordBatch
}

// recordOf calls an AppendRecord on in; a copy of the result, in case the
// call keeps it.
func recordOf(f func([]byte, *kafkalog.Record) []byte) func(recordInput) []byte {
	return func(in recordInput) []byte { r := *in.r; return bytes.Clone(f(nil, &r)) }
}

// batchOf calls an AppendBatch on in, on a copy of dst.
func batchOf(f func([]byte, *kafkalog.RecordBatch) []byte) func(batchInput) []byte {
	return func(in batchInput) []byte { return bytes.Clone(f(bytes.Clone(in.dst), in.b)) }
}

// recordPair and batchPair are two calls on a nil dst, the first result kept.
type (
	recordPair [2]*kafkalog.Record
	batchPair  [2]*kafkalog.RecordBatch
)

// recordAliasOf and batchAliasOf make the two calls and return what the
// first result reads after the second.
func recordAliasOf(f func([]byte, *kafkalog.Record) []byte) func(recordPair) []byte {
	return func(p recordPair) []byte {
		a, b := *p[0], *p[1]
		first := f(nil, &a)
		f(nil, &b)
		return bytes.Clone(first)
	}
}

func batchAliasOf(f func([]byte, *kafkalog.RecordBatch) []byte) func(batchPair) []byte {
	return func(p batchPair) []byte {
		first := f(nil, p[0])
		f(nil, p[1])
		return bytes.Clone(first)
	}
}

// recordProbes and batchProbes are the known answers' inputs: a mistake is
// named only if it also agrees with the learner's code on all of them.
func recordProbes() []recordInput {
	var in []recordInput
	for _, c := range knownBatches() {
		for i := range c.batch.Records {
			in = append(in, recordInput{&c.batch.Records[i], i})
		}
	}
	for _, b := range probeBatches() {
		for i := range b.Records {
			in = append(in, recordInput{&b.Records[i], i})
		}
	}
	return in
}

// probeBatches are a fixed sample of drawn batches, probes beyond the known
// answers.
func probeBatches() []kafkalog.RecordBatch {
	return kit.Examples(rapid.Custom(drawBatch), 40)
}

// recordPairs and batchPairs are the known answers' sequences of two calls.
func recordPairs() []recordPair {
	var rs []*kafkalog.Record
	for _, c := range knownBatches() {
		for i := range c.batch.Records {
			rs = append(rs, &c.batch.Records[i])
		}
	}
	var out []recordPair
	for i := 1; i < len(rs); i++ {
		out = append(out, recordPair{rs[i-1], rs[i]})
	}
	return out
}

func batchPairs() []batchPair {
	cases := knownBatches()
	var out []batchPair
	for i := 1; i < len(cases); i++ {
		out = append(out, batchPair{&cases[i-1].batch, &cases[i].batch})
	}
	return out
}

func batchProbes() []batchInput {
	var in []batchInput
	for _, dst := range knownDsts {
		for _, c := range knownBatches() {
			in = append(in, batchInput{dst, &c.batch})
		}
	}
	for _, b := range probeBatches() {
		in = append(in, batchInput{nil, &b}, batchInput{knownDsts[2], &b})
	}
	return in
}

// batchSubject is an encoder under judgement, with the known mistakes to
// recognise in it: the record-level ones differ in AppendRecord, the others
// only in AppendBatch (a header field written from the records, for example).
type batchSubject struct {
	BatchEncoder
	records       *kit.Signatures[recordInput, []byte]
	batches       *kit.Signatures[batchInput, []byte]
	recordAliases *kit.Signatures[recordPair, []byte]
	batchAliases  *kit.Signatures[batchPair, []byte]
}

// agreesElsewhere is what a mistake must agree with the learner's code on
// besides the function a failure is about: every other function.
func (e batchSubject) agreesElsewhere(except any) [][]bool {
	var out [][]bool
	for _, s := range []any{e.records, e.batches, e.recordAliases, e.batchAliases} {
		if s == except {
			continue
		}
		switch s := s.(type) {
		case *kit.Signatures[recordInput, []byte]:
			out = append(out, s.Agrees(recordOf(e.AppendRecord)))
		case *kit.Signatures[batchInput, []byte]:
			out = append(out, s.Agrees(batchOf(e.AppendBatch)))
		case *kit.Signatures[recordPair, []byte]:
			out = append(out, s.Agrees(recordAliasOf(e.AppendRecord)))
		case *kit.Signatures[batchPair, []byte]:
			out = append(out, s.Agrees(batchAliasOf(e.AppendBatch)))
		}
	}
	return out
}

func judgeBatch(e BatchEncoder, known []kit.Known[BatchEncoder]) batchSubject {
	return batchSubject{
		BatchEncoder: e,
		records: kit.NewSignatures(recordProbes, kit.MistakesOf(known, func(k BatchEncoder) func(recordInput) []byte {
			return recordOf(k.AppendRecord)
		})...),
		batches: kit.NewSignatures(batchProbes, kit.MistakesOf(known, func(k BatchEncoder) func(batchInput) []byte {
			return batchOf(k.AppendBatch)
		})...),
		recordAliases: kit.NewSignatures(recordPairs, kit.MistakesOf(known, func(k BatchEncoder) func(recordPair) []byte {
			return recordAliasOf(k.AppendRecord)
		})...),
		batchAliases: kit.NewSignatures(batchPairs, kit.MistakesOf(known, func(k BatchEncoder) func(batchPair) []byte {
			return batchAliasOf(k.AppendBatch)
		})...),
	}
}
