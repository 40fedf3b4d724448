package kafkalog_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/kafkalog"
)

func drawTxnLogValue(t *rapid.T) kafkalog.TxnLogValue {
	v := kafkalog.TxnLogValue{
		Version:               int16(rapid.IntRange(0, 1).Draw(t, "version")),
		ProducerID:            rapid.Int64Range(-1, 1<<40).Draw(t, "producer id"),
		PreviousProducerID:    -1,
		NextProducerID:        -1,
		ProducerEpoch:         int16(rapid.IntRange(-1, 32767).Draw(t, "epoch")),
		TransactionTimeoutMs:  int32(rapid.IntRange(1, 900000).Draw(t, "timeout")),
		State:                 kafkalog.TxnState(rapid.IntRange(0, 7).Draw(t, "state")),
		LastUpdateTimestampMs: rapid.Int64Range(-1, 1<<45).Draw(t, "last update"),
		StartTimestampMs:      rapid.Int64Range(-1, 1<<45).Draw(t, "start"),
	}
	if v.Version == 1 {
		v.PreviousProducerID = rapid.SampledFrom([]int64{-1, 7, 1 << 33}).Draw(t, "previous producer id")
		v.NextProducerID = rapid.SampledFrom([]int64{-1, 8, 1 << 34}).Draw(t, "next producer id")
		v.ClientTransactionVersion = int16(rapid.IntRange(0, 2).Draw(t, "client transaction version"))
	}
	if v.State != kafkalog.TxnEmpty {
		v.Partitions = []kafkalog.TopicPartition{}
		topics := rapid.IntRange(0, 3).Draw(t, "topics")
		for i := range topics {
			for p := range rapid.IntRange(1, 3).Draw(t, "partitions") {
				v.Partitions = append(v.Partitions, kafkalog.TopicPartition{Topic: fmt.Sprintf("topic-%d", i), Partition: int32(p)})
			}
		}
	}
	return v
}

// franzValue is v as franz-go's kmsg.TxnMetadataValue (its generated code of
// Kafka's TransactionLogValue schema).
func franzValue(v kafkalog.TxnLogValue) kmsg.TxnMetadataValue {
	f := kmsg.NewTxnMetadataValue()
	f.Version, f.ProducerID, f.ProducerEpoch, f.TimeoutMillis = v.Version, v.ProducerID, v.ProducerEpoch, v.TransactionTimeoutMs
	f.State = kmsg.TransactionState(v.State)
	f.LastUpdateTimestamp, f.StartTimestamp = v.LastUpdateTimestampMs, v.StartTimestampMs
	f.PreviousProducerID, f.NextProducerID, f.ClientTransactionVersion = v.PreviousProducerID, v.NextProducerID, v.ClientTransactionVersion
	if v.Partitions == nil {
		f.Topics = nil
	} else {
		f.Topics = []kmsg.TxnMetadataValueTopic{}
	}
	for _, tp := range v.Partitions {
		if n := len(f.Topics); n == 0 || f.Topics[n-1].Topic != tp.Topic {
			f.Topics = append(f.Topics, kmsg.TxnMetadataValueTopic{Topic: tp.Topic})
		}
		f.Topics[len(f.Topics)-1].Partitions = append(f.Topics[len(f.Topics)-1].Partitions, tp.Partition)
	}
	return f
}

// A __transaction_state value reads back as written, at versions 0 and 1,
// and its bytes are those of franz-go's encoding of Kafka's schema.
func TestTxnLogValueRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := drawTxnLogValue(t)
		b := kafkalog.AppendTxnLogValue(nil, v)
		f := franzValue(v)
		if want := f.AppendTo(nil); string(want) != string(b) {
			t.Fatalf("value %+v: bytes\n%x\nfranz-go's kmsg writes\n%x", v, b, want)
		}
		got, err := kafkalog.ParseTxnLogValue(b)
		if err != nil {
			t.Fatalf("value %+v does not read back: %v", v, err)
		}
		if diff := cmp.Diff(v, got); diff != "" {
			t.Fatalf("value read back (-written +read):\n%s", diff)
		}
		for n := range len(b) {
			if _, err := kafkalog.ParseTxnLogValue(b[:n]); err == nil {
				t.Fatalf("a value cut at %d of %d bytes reads", n, len(b))
			}
		}
	})
}

// Kafka's TransactionLogTest.testTransactionMetadataParsing and the
// tombstone's: what kafka-dump-log --transaction-log-decoder prints.
func TestFormatTxnLogRecord(t *testing.T) {
	key := kafkalog.AppendTxnLogKey(nil, "id")
	require.Equal(t, []byte{0, 0, 0, 2, 'i', 'd'}, key)
	value := kafkalog.AppendTxnLogValue(nil, kafkalog.TxnLogValue{ProducerID: 1334, PreviousProducerID: -1, NextProducerID: -1, ProducerEpoch: 2,
		TransactionTimeoutMs: 1000, State: kafkalog.TxnOngoing, Partitions: []kafkalog.TopicPartition{{Topic: "topic", Partition: 0}}})
	k, v, ok, err := kafkalog.FormatTxnLogRecord(key, value)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, "transaction_metadata::transactionalId=id", k)
	require.Equal(t, "producerId:1334,producerEpoch:2,state=Ongoing,partitions=[topic-0],txnLastUpdateTimestamp=0,txnTimeoutMs=1000", v)
	_, v, _, err = kafkalog.FormatTxnLogRecord(key, nil)
	require.NoError(t, err)
	require.Equal(t, "<DELETE>", v)
	k, _, ok, err = kafkalog.FormatTxnLogRecord([]byte{0, 3, 0, 0}, nil)
	require.NoError(t, err)
	require.False(t, ok)
	require.Equal(t, "unknown::version=3", k)
}

// The Empty state's partitions are a null array, and read back as none.
func TestTxnLogValueEmptyState(t *testing.T) {
	b := kafkalog.AppendTxnLogValue(nil, kafkalog.TxnLogValue{ProducerID: 5, PreviousProducerID: -1, NextProducerID: -1, State: kafkalog.TxnEmpty})
	require.Equal(t, []byte{0xff, 0xff, 0xff, 0xff}, b[17:21], "a null array")
	v, err := kafkalog.ParseTxnLogValue(b)
	require.NoError(t, err)
	require.Nil(t, v.Partitions)
	_, err = kafkalog.ParseTxnLogValue([]byte{0, 2, 0})
	require.True(t, errors.Is(err, kafkalog.ErrCorruptTxnLogRecord), "version 2: %v", err)
}

func FuzzParseTxnLogValue(f *testing.F) {
	f.Add(kafkalog.AppendTxnLogValue(nil, kafkalog.TxnLogValue{Version: 1, ProducerID: 1, PreviousProducerID: 3, NextProducerID: -1, State: kafkalog.TxnOngoing,
		Partitions: []kafkalog.TopicPartition{{Topic: "t", Partition: 1}}}))
	f.Add(kafkalog.AppendTxnLogValue(nil, kafkalog.TxnLogValue{ProducerID: 1, PreviousProducerID: -1, NextProducerID: -1, State: kafkalog.TxnCompleteAbort, Partitions: []kafkalog.TopicPartition{}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := kafkalog.ParseTxnLogValue(b)
		if err != nil {
			return
		}
		again, err := kafkalog.ParseTxnLogValue(kafkalog.AppendTxnLogValue(nil, v))
		if err != nil {
			t.Fatalf("a value that read does not read back once written: %v", err)
		}
		if v.Version == 0 {
			if diff := cmp.Diff(v, again); diff != "" {
				t.Fatalf("(-first +again):\n%s", diff)
			}
		}
	})
}

func FuzzParseTxnLogKey(f *testing.F) {
	f.Add(kafkalog.AppendTxnLogKey(nil, "orders-tx"))
	f.Fuzz(func(t *testing.T, b []byte) {
		id, err := kafkalog.ParseTxnLogKey(b)
		if err == nil && string(kafkalog.AppendTxnLogKey(nil, id)) != string(b[:4+len(id)]) {
			t.Fatalf("key %q does not write back as read", id)
		}
	})
}
