package kafkalogkit

import (
	"bytes"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/crcheaderonly"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/crcieee"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/crcincludesepoch"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/crcrecordsonly"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/crcwholebatch"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/lastdeltafromrecords"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/lengthafterbaseoffset"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/lengthrecordsonly"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/lengthwholebatch"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/littleendian"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/maxtimestampfromrecords"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/nullasempty"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/offsetdeltacounter"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/recordlengthcountsitself"
	"github.com/kafkalive/kafkalive/solutions/ch01/batch/mutants/timestampdeltavarint"
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
	for _, c := range knownBatches() {
		in = append(in, batchInput{nil, &c.batch})
	}
	return in
}

// recordMistakes and batchMistakes are the bank's mutants
// (solutions/ch01/batch/mutants), run as they are: the record-level ones
// differ in AppendRecord, the others only in AppendBatch (lastdeltafromrecords
// and maxtimestampfromrecords write a header field from the records, so only
// batchMistakes holds them).
var recordMistakes = kit.NewSignatures(recordProbes,
	kit.Mistake[recordInput, []byte]{Name: "crcheaderonly", Says: "the CRC covers only the header after the crc field, not the records", Do: recordOf(crcheaderonly.AppendRecord)},
	kit.Mistake[recordInput, []byte]{Name: "crcieee", Says: "CRC-32/IEEE (crc32.ChecksumIEEE) instead of CRC-32C (Castagnoli)", Do: recordOf(crcieee.AppendRecord)},
	kit.Mistake[recordInput, []byte]{Name: "crcincludesepoch", Says: "the CRC starts at partitionLeaderEpoch (byte 12); the epoch is outside the CRC so the leader can stamp it", Do: recordOf(crcincludesepoch.AppendRecord)},
	kit.Mistake[recordInput, []byte]{Name: "crcrecordsonly", Says: "the CRC covers only the records (from byte 61); Kafka's starts at attributes (byte 21)", Do: recordOf(crcrecordsonly.AppendRecord)},
	kit.Mistake[recordInput, []byte]{Name: "crcwholebatch", Says: "the CRC covers the whole batch from byte 0; Kafka's starts at attributes (byte 21)", Do: recordOf(crcwholebatch.AppendRecord)},
	kit.Mistake[recordInput, []byte]{Name: "lengthafterbaseoffset", Says: "the length field counts the bytes after baseOffset (size - 8)", Do: recordOf(lengthafterbaseoffset.AppendRecord)},
	kit.Mistake[recordInput, []byte]{Name: "lengthrecordsonly", Says: "the length field counts only the records; it counts everything after itself, header included", Do: recordOf(lengthrecordsonly.AppendRecord)},
	kit.Mistake[recordInput, []byte]{Name: "lengthwholebatch", Says: "the length field counts the whole batch; it counts the bytes after itself (size - 12)", Do: recordOf(lengthwholebatch.AppendRecord)},
	kit.Mistake[recordInput, []byte]{Name: "littleendian", Says: "the header integers are little-endian; Kafka writes them big-endian", Do: recordOf(littleendian.AppendRecord)},
	kit.Mistake[recordInput, []byte]{Name: "nullasempty", Says: "a null key or value is written with length 0; null is length -1 (varint 01), 0 is the empty string", Do: recordOf(nullasempty.AppendRecord)},
	kit.Mistake[recordInput, []byte]{Name: "offsetdeltacounter", Says: "offsetDelta is the record's index in the batch; after compaction offsets have gaps, so use the record's own OffsetDelta", Do: recordOf(offsetdeltacounter.AppendRecord)},
	kit.Mistake[recordInput, []byte]{Name: "recordlengthcountsitself", Says: "a record's length counts its own length varint; it counts only the bytes after it", Do: recordOf(recordlengthcountsitself.AppendRecord)},
	kit.Mistake[recordInput, []byte]{Name: "timestampdeltavarint", Says: "timestampDelta is written as a varint (int32); it is a varlong", Do: recordOf(timestampdeltavarint.AppendRecord)},
)

var batchMistakes = kit.NewSignatures(batchProbes,
	kit.Mistake[batchInput, []byte]{Name: "crcheaderonly", Says: "the CRC covers only the header after the crc field, not the records", Do: batchOf(crcheaderonly.AppendBatch)},
	kit.Mistake[batchInput, []byte]{Name: "crcieee", Says: "CRC-32/IEEE (crc32.ChecksumIEEE) instead of CRC-32C (Castagnoli)", Do: batchOf(crcieee.AppendBatch)},
	kit.Mistake[batchInput, []byte]{Name: "crcincludesepoch", Says: "the CRC starts at partitionLeaderEpoch (byte 12); the epoch is outside the CRC so the leader can stamp it", Do: batchOf(crcincludesepoch.AppendBatch)},
	kit.Mistake[batchInput, []byte]{Name: "crcrecordsonly", Says: "the CRC covers only the records (from byte 61); Kafka's starts at attributes (byte 21)", Do: batchOf(crcrecordsonly.AppendBatch)},
	kit.Mistake[batchInput, []byte]{Name: "crcwholebatch", Says: "the CRC covers the whole batch from byte 0; Kafka's starts at attributes (byte 21)", Do: batchOf(crcwholebatch.AppendBatch)},
	kit.Mistake[batchInput, []byte]{Name: "lengthafterbaseoffset", Says: "the length field counts the bytes after baseOffset (size - 8)", Do: batchOf(lengthafterbaseoffset.AppendBatch)},
	kit.Mistake[batchInput, []byte]{Name: "lengthrecordsonly", Says: "the length field counts only the records; it counts everything after itself, header included", Do: batchOf(lengthrecordsonly.AppendBatch)},
	kit.Mistake[batchInput, []byte]{Name: "lengthwholebatch", Says: "the length field counts the whole batch; it counts the bytes after itself (size - 12)", Do: batchOf(lengthwholebatch.AppendBatch)},
	kit.Mistake[batchInput, []byte]{Name: "littleendian", Says: "the header integers are little-endian; Kafka writes them big-endian", Do: batchOf(littleendian.AppendBatch)},
	kit.Mistake[batchInput, []byte]{Name: "nullasempty", Says: "a null key or value is written with length 0; null is length -1 (varint 01), 0 is the empty string", Do: batchOf(nullasempty.AppendBatch)},
	kit.Mistake[batchInput, []byte]{Name: "offsetdeltacounter", Says: "offsetDelta is the record's index in the batch; after compaction offsets have gaps, so use the record's own OffsetDelta", Do: batchOf(offsetdeltacounter.AppendBatch)},
	kit.Mistake[batchInput, []byte]{Name: "recordlengthcountsitself", Says: "a record's length counts its own length varint; it counts only the bytes after it", Do: batchOf(recordlengthcountsitself.AppendBatch)},
	kit.Mistake[batchInput, []byte]{Name: "timestampdeltavarint", Says: "timestampDelta is written as a varint (int32); it is a varlong", Do: batchOf(timestampdeltavarint.AppendBatch)},
	kit.Mistake[batchInput, []byte]{Name: "lastdeltafromrecords", Says: "lastOffsetDelta is taken from the last record's offsetDelta; it is a field of its own, which a compacted batch keeps after its last records are gone (and the cleaner's empty batch has no records at all)", Do: batchOf(lastdeltafromrecords.AppendBatch)},
	kit.Mistake[batchInput, []byte]{Name: "maxtimestampfromrecords", Says: "maxTimestamp is computed from the records (baseTimestamp + the largest timestampDelta); it is a field of its own, which the cleaner's empty batch keeps with no records and baseTimestamp -1", Do: batchOf(maxtimestampfromrecords.AppendBatch)},
)
