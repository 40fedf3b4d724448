package kafkalog_test

import (
	"fmt"

	"github.com/kafkalive/kafkalive/kafkalog"
)

func ExampleDecodeCleanShutdown() {
	b := kafkalog.AppendCleanShutdown(nil, 12)
	fmt.Println(string(b))
	fmt.Println(kafkalog.DecodeCleanShutdown(b))
	fmt.Println(kafkalog.DecodeCleanShutdown(nil)) // a marker from before Kafka 3.7
	// Output:
	// {"version":0,"brokerEpoch":12}
	// 12 true
	// 0 false
}
