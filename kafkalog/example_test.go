package kafkalog_test

import (
	"errors"
	"fmt"

	"github.com/kafkalive/kafkalive/kafkalog"
)

func ExampleAppendVarint() {
	var b []byte
	for _, v := range []int32{0, -1, 1, 63, -64, 64, 8191, 8192} {
		b = kafkalog.AppendVarint(b[:0], v)
		got, n := kafkalog.Varint(b)
		fmt.Printf("%5d -> % x -> %d (%d bytes)\n", v, b, got, n)
	}
	// Output:
	//     0 -> 00 -> 0 (1 bytes)
	//    -1 -> 01 -> -1 (1 bytes)
	//     1 -> 02 -> 1 (1 bytes)
	//    63 -> 7e -> 63 (1 bytes)
	//   -64 -> 7f -> -64 (1 bytes)
	//    64 -> 80 01 -> 64 (2 bytes)
	//  8191 -> fe 7f -> 8191 (2 bytes)
	//  8192 -> 80 80 01 -> 8192 (3 bytes)
}

func ExampleVarint() {
	// Kafka reads the 5th byte into a 32-bit int, so its bits 4-6 are dropped:
	// a non-canonical encoding still decodes.
	v, n := kafkalog.Varint([]byte{0xfe, 0xff, 0xff, 0xff, 0x7f})
	fmt.Println(v, n)
	// A 5th byte with the continuation bit set is an overflow (n < 0) ...
	_, n = kafkalog.Varint([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	fmt.Println(n)
	// ... and input that ends mid-varint is truncated (n == 0).
	_, n = kafkalog.Varint([]byte{0x80})
	fmt.Println(n)
	// Output:
	// 2147483647 5
	// -5
	// 0
}

// The golden batch G1 (golden_test.go): one record, key "k", value "v".
func ExampleRecordBatch_AppendTo() {
	b := kafkalog.RecordBatch{BatchHeader: kafkalog.BatchHeader{
		BaseOffset:           0,
		PartitionLeaderEpoch: 0,
		BaseTimestamp:        1700000000000,
		MaxTimestamp:         1700000000000,
		ProducerID:           kafkalog.NoProducerID,
		ProducerEpoch:        kafkalog.NoProducerEpoch,
		BaseSequence:         kafkalog.NoSequence,
	}}
	b.Records = []kafkalog.Record{{Key: []byte("k"), Value: []byte("v")}}
	enc := b.AppendTo(nil)
	fmt.Printf("%d bytes, crc 0x%x\n", len(enc), kafkalog.CRC32C(enc[21:]))
	fmt.Printf("header  % x\n", enc[:21])
	fmt.Printf("record  % x\n", enc[61:])
	// Output:
	// 70 bytes, crc 0xe99b8dd8
	// header  00 00 00 00 00 00 00 00 00 00 00 3a 00 00 00 00 02 e9 9b 8d d8
	// record  10 00 00 00 02 6b 02 76 00
}

func ExampleReadBatch() {
	var b kafkalog.RecordBatch
	b.AppendRecord(5, 1700000000000, []byte("key"), []byte("value"))
	b.AppendRecord(6, 1700000030000, nil, []byte("value"))
	b.AppendRecord(7, 1700000060000, []byte("key"), nil, kafkalog.Header{Key: []byte("foo"), Value: []byte("bar")})
	b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, kafkalog.NoSequence
	enc := b.AppendTo(nil)

	got, n, err := kafkalog.ReadBatch(enc)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d bytes, offsets %d..%d\n", n, got.BaseOffset, got.LastOffset())
	for i := range got.Records {
		r := &got.Records[i]
		fmt.Printf("offset %d ts %d key %q value %q headers %d\n", got.Offset(r), got.Timestamp(r), r.Key, r.Value, len(r.Headers))
	}
	// Output:
	// 110 bytes, offsets 5..7
	// offset 5 ts 1700000000000 key "key" value "value" headers 0
	// offset 6 ts 1700000030000 key "" value "value" headers 0
	// offset 7 ts 1700000060000 key "key" value "" headers 1
}

func ExampleCheckBatch() {
	var b kafkalog.RecordBatch
	b.AppendRecord(0, 1700000000000, nil, []byte("hello"))
	enc := b.AppendTo(nil)

	h, size, err := kafkalog.CheckBatch(enc)
	fmt.Println(h.BaseOffset, size, err)

	// The leader epoch is outside the CRC: stamping it keeps the batch valid.
	_ = kafkalog.SetPartitionLeaderEpoch(enc, 7)
	_, _, err = kafkalog.CheckBatch(enc)
	fmt.Println(err)

	// A flipped bit in the records is caught by the CRC ...
	enc[len(enc)-2] ^= 1
	_, _, err = kafkalog.CheckBatch(enc)
	fmt.Println(errors.Is(err, kafkalog.ErrCorruptBatch))

	// ... and a batch cut short is a torn tail, which recovery truncates.
	_, _, err = kafkalog.CheckBatch(enc[:40])
	fmt.Println(kafkalog.IsTornTail(err), err)
	// Output:
	// 0 73 <nil>
	// <nil>
	// true
	// true batch at base offset 0 (position 0): header: kafkalog: truncated input
}
