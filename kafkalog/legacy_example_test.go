package kafkalog_test

import (
	"fmt"

	"github.com/kafkalive/kafkalive/kafkalog"
)

func ExampleReadLegacyMessage() {
	// A magic 1 message as a Kafka 0.10 producer wrote it: offset 5, key "k",
	// value "v", CreateTime 1000. The CRC (e4 e3 21 bc) is CRC-32/IEEE, as zlib
	// computes it, of the bytes from the magic on.
	m := kafkalog.LegacyMessage{Offset: 5, Magic: kafkalog.MagicV1, Timestamp: 1000, Key: []byte("k"), Value: []byte("v")}
	b := m.AppendTo(nil)
	fmt.Printf("% x\n", b)
	got, n, err := kafkalog.ReadLegacyMessage(b)
	fmt.Println(n, err, got.Offset, got.TimestampType(), got.Timestamp, string(got.Key), string(got.Value))
	// Output:
	// 00 00 00 00 00 00 00 05 00 00 00 18 e4 e3 21 bc 01 00 00 00 00 00 00 00 03 e8 00 00 00 01 6b 00 00 00 01 76
	// 36 <nil> 5 CreateTime 1000 k v
}
