package kafkalog_test

import (
	"fmt"

	"github.com/kafkalive/kafkalive/kafkalog"
)

func ExampleDecodeTxnIndex() {
	b := kafkalog.AppendAbortedTxn(nil, kafkalog.AbortedTxn{ProducerID: 7, FirstOffset: 10, LastOffset: 14, LastStableOffset: 10})
	fmt.Printf("%d bytes: % x\n", len(b), b)
	entries, err := kafkalog.DecodeTxnIndex(b)
	fmt.Println(entries, err)
	// Output:
	// 34 bytes: 00 00 00 00 00 00 00 00 00 07 00 00 00 00 00 00 00 0a 00 00 00 00 00 00 00 0e 00 00 00 00 00 00 00 0a
	// [AbortedTxn(producerId=7, firstOffset=10, lastOffset=14, lastStableOffset=10)] <nil>
}
