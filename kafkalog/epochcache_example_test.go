package kafkalog_test

import (
	"fmt"

	"github.com/kafkalive/kafkalive/kafkalog"
)

func ExampleDecodeLeaderEpochCheckpoint() {
	// A partition led in epoch 0 from offset 0 and in epoch 2 from offset 35.
	b := kafkalog.AppendLeaderEpochCheckpoint(nil, []kafkalog.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 2, StartOffset: 35}})
	fmt.Printf("%q\n", b)
	entries, err := kafkalog.DecodeLeaderEpochCheckpoint(b)
	fmt.Println(entries, err)
	// Output:
	// "0\n2\n0 0\n2 35\n"
	// [{0 0} {2 35}] <nil>
}
