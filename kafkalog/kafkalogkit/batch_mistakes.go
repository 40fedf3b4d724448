package kafkalogkit

import (
	"bytes"

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

// recordOf calls an AppendRecord on in.
func recordOf(f func([]byte, *kafkalog.Record) []byte) func(recordInput) []byte {
	return func(in recordInput) []byte { r := *in.r; return f(nil, &r) }
}

// batchOf calls an AppendBatch on in, on a copy of dst.
func batchOf(f func([]byte, *kafkalog.RecordBatch) []byte) func(batchInput) []byte {
	return func(in batchInput) []byte { return f(bytes.Clone(in.dst), in.b) }
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
	return in
}

func batchProbes() []batchInput {
	var in []batchInput
	for _, dst := range knownDsts {
		for _, c := range knownBatches() {
			in = append(in, batchInput{dst, &c.batch})
		}
	}
	return in
}

// batchSubject is an encoder under judgement, with the known mistakes to
// recognise in it: the record-level ones differ in AppendRecord, the others
// only in AppendBatch (a header field written from the records, for example).
type batchSubject struct {
	BatchEncoder
	records *kit.Signatures[recordInput, []byte]
	batches *kit.Signatures[batchInput, []byte]
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
	}
}
