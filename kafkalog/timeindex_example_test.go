package kafkalog_test

import (
	"fmt"

	"github.com/kafkalive/kafkalive/kafkalog"
)

func ExampleDecodeTimeIndex() {
	// One .timeindex entry of the segment at base offset 100: timestamp
	// 1700000000000 (0x18bcfe56800), relative offset 35.
	b := []byte{0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, 0, 0, 0, 35}
	entries, err := kafkalog.DecodeTimeIndex(b, 100)
	fmt.Println(entries, err)
	// Output: [{1700000000000 135}] <nil>
}
