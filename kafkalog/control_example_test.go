package kafkalog_test

import (
	"fmt"

	"github.com/kafkalive/kafkalive/kafkalog"
)

func ExampleParseControlRecordKey() {
	// A COMMIT marker as a transaction coordinator (epoch 3) has it written.
	b := kafkalog.NewEndTxnMarkerBatch(42, 1700000000000, 7, 0, kafkalog.ControlCommit, 3)
	r := b.Records[0]
	key, err := kafkalog.ParseControlRecordKey(r.Key)
	if err != nil {
		panic(err)
	}
	marker, err := kafkalog.ParseEndTxnMarker(r.Value)
	if err != nil {
		panic(err)
	}
	fmt.Printf("key % x: %v, txn marker %v\n", r.Key, key.Type, key.Type.IsTxnMarker())
	fmt.Printf("value % x: coordinator epoch %d\n", r.Value, marker.CoordinatorEpoch)
	fmt.Println("transactional", b.Attributes.IsTransactional(), "control", b.Attributes.IsControl())
	// Output:
	// key 00 00 00 01: COMMIT, txn marker true
	// value 00 00 00 00 00 03: coordinator epoch 3
	// transactional true control true
}
