package notes

import (
	"fmt"
	"strings"

	"github.com/kafkalive/kafkalive/internal/kit"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/kafkalog/kafkalogkit"
	"github.com/kafkalive/kafkalive/solutions/bank"
	"github.com/kafkalive/kafkalive/solutions/ch07/readcommitted"
)

// The generators of chapter 7.
func init() {
	generators["abort-marker-bytes"] = abortMarkerBytes
	generators["txnindex-entry"] = txnindexEntry
	generators["example-delivered"] = exampleDelivered
	generators["failure-assumes-sorted"] = failureAssumesSorted
}

// abortMarkerBytes is the ABORT marker of the aborted-transaction
// scenario: producer 10000, epoch 1 (transaction.version 2 bumped the
// records' 0 as the transaction ended), at offset 3, coordinator epoch 0.
func abortMarkerBytes() string {
	b := kafkalog.NewEndTxnMarkerBatch(3, 0, 10000, 1, kafkalog.ControlAbort, 0)
	b.PartitionLeaderEpoch = 0
	raw := b.AppendTo(nil)
	h, err := kafkalog.ReadBatchHeader(raw)
	if err != nil {
		panic(err)
	}
	return fmt.Sprintf("%s\nattributes 0x%04x: transactional %v, control %v; producerId %d, producerEpoch %d, baseSequence %d, records %d",
		strings.TrimRight(kit.Hexdump(raw, -1), "\n"), uint16(h.Attributes), h.Attributes.IsTransactional(), h.Attributes.IsControl(), h.ProducerID, h.ProducerEpoch, h.BaseSequence, h.NumRecords)
}

// txnindexEntry is the .txnindex entry of that transaction: 0 to 3, the
// last stable offset 4 when the marker was written.
func txnindexEntry() string {
	t := kafkalog.AbortedTxn{ProducerID: 10000, FirstOffset: 0, LastOffset: 3, LastStableOffset: 4}
	return strings.TrimRight(kit.Hexdump(kafkalog.AppendAbortedTxn(nil, t), -1), "\n") + "\n" + t.String()
}

// exampleDelivered runs the solution on the chapter's example fetch: a1-a3
// aborted, b1 committed.
func exampleDelivered() string {
	var batches []kafkalog.RecordBatch
	for i, v := range []string{"a1", "a2", "a3"} {
		var b kafkalog.RecordBatch
		b.AppendRecord(0, 0, nil, []byte(v))
		b.BaseOffset, b.ProducerID, b.ProducerEpoch, b.BaseSequence = int64(i), 10000, 0, int32(i)
		b.Attributes = kafkalog.NewAttributes(kafkalog.CompressionNone, kafkalog.CreateTime, true, false)
		batches = append(batches, b)
	}
	batches = append(batches, kafkalog.NewEndTxnMarkerBatch(3, 0, 10000, 0, kafkalog.ControlAbort, 0))
	var b1 kafkalog.RecordBatch
	b1.AppendRecord(0, 0, nil, []byte("b1"))
	b1.BaseOffset, b1.ProducerID, b1.ProducerEpoch, b1.BaseSequence = 4, 10000, 0, 3
	b1.Attributes = kafkalog.NewAttributes(kafkalog.CompressionNone, kafkalog.CreateTime, true, false)
	batches = append(batches, b1, kafkalog.NewEndTxnMarkerBatch(5, 0, 10000, 0, kafkalog.ControlCommit, 0))
	list := []readcommitted.AbortedTransaction{{ProducerID: 10000, FirstOffset: 0}}
	return fmt.Sprintf("Deliver(0, batches at 0 1 2 3(ABORT) 4 5(COMMIT), [{10000 0}]) = %v", readcommitted.Deliver(0, batches, list))
}

func failureAssumesSorted() string {
	return kafkalogkit.CheckReadCommitted(mistake(bank.ReadCommitted(), "assumessorted"), bank.ReadCommitted()...).Error()
}
