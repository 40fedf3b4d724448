package cluster

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// FuzzExternalProduce feeds any bytes to a three-broker world as the
// record batch of a client's Produce (acks=all), then lets it replicate:
// the world answers without an internal error, and every replica's mirror
// holds what its files hold (go test -fuzz FuzzExternalProduce ./cluster).
func FuzzExternalProduce(f *testing.F) {
	for _, c := range []kafkalog.Compression{kafkalog.CompressionNone, kafkalog.CompressionGzip, kafkalog.CompressionSnappy, kafkalog.CompressionLZ4, kafkalog.CompressionZstd} {
		var b kafkalog.RecordBatch
		b.Attributes = b.Attributes.WithCompression(c)
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = 7, 0, 0
		for i := range 3 {
			b.AppendRecord(int64(i), 1_700_000_000_000+int64(i), []byte{'k', byte(i)}, []byte("value"))
		}
		raw := b.AppendTo(nil)
		f.Add(raw)
		f.Add(raw[:len(raw)-3])
		// headers that lie about the records' timestamps: the leader
		// writes the truth
		for _, lie := range []struct {
			tt kafkalog.TimestampType
			ms int64
		}{{kafkalog.CreateTime, 0}, {kafkalog.CreateTime, 1_800_000_000_000}, {kafkalog.LogAppendTime, 1_600_000_000_000}} {
			lied := append([]byte(nil), raw...)
			if err := kafkalog.SetMaxTimestamp(lied, lie.tt, lie.ms); err != nil {
				f.Fatal(err)
			}
			f.Add(lied)
		}
	}
	base := topicWorld(f, 5)
	f.Fuzz(func(t *testing.T, batch []byte) {
		w := base.Clone()
		x := clientProduce("fuzz", "t", batch)
		if _, err := w.ExternalPrepared(x, PrepareExternal(&x)); err != nil {
			t.Fatalf("produce: %v", err)
		}
		if err := w.RunFor(300); err != nil {
			t.Fatalf("run: %v", err)
		}
		if errs := w.InternalErrors(); len(errs) > 0 {
			t.Fatalf("internal errors: %v", errs)
		}
		for _, b := range w.brokers {
			for _, tp := range b.Partitions() {
				if s := b.Partition(tp); s != nil && !s.Log.Damaged() {
					if p := s.Log.MirrorProblem(); p != "" {
						t.Fatalf("broker %d's %s: %s", b.ID(), tp, p)
					}
				}
			}
		}
		if p := createTimeProblem(w, "t", sentMaxTimestamp(batch)); p != "" {
			t.Fatal(p)
		}
	})
}

// sentMaxTimestamp is the maxTimestamp Kafka 3.7's LogValidator writes
// into batch, a batch a client sends to a CreateTime topic: the largest of
// its records' timestamps as DefaultRecordBatch reads them (each the
// batch's maxTimestamp if the batch says LogAppendTime), or nil to compute
// it from the stored batch (a batch that does not decode is refused).
func sentMaxTimestamp(batch []byte) *int64 {
	var dec kafkalog.Decoder
	var b kafkalog.RecordBatch
	if _, err := dec.Decode(batch, &b); err != nil {
		return nil
	}
	want := int64(kafkalog.NoTimestamp)
	for i := range b.Records {
		want = max(want, b.Timestamp(&b.Records[i]))
	}
	return &want
}

// createTimeProblem says how a stored batch of topic (a CreateTime topic)
// differs from what Kafka 3.7's LogValidator makes of it: a batch of
// timestamp type CreateTime whose maxTimestamp is the largest of its
// records' timestamps, whatever the client's header said; that is want
// when not nil (a client's batch that said LogAppendTime has its
// maxTimestamp as every record's timestamp, and keeps it), else the
// largest of the stored records' timestamps. "" if none.
func createTimeProblem(w *World, topic string, want *int64) string {
	var dec kafkalog.Decoder
	var batch kafkalog.RecordBatch
	for _, b := range w.brokers {
		for _, tp := range b.Partitions() {
			s := b.Partition(tp)
			if tp.Topic != topic || s == nil || s.Log.Damaged() {
				continue
			}
			for _, seg := range s.Log.Kafka().Segments() {
				data, err := s.Log.ReadSegment(seg)
				if err != nil {
					return err.Error()
				}
				for pos := 0; pos < len(data); {
					n, err := dec.Decode(data[pos:], &batch)
					if err != nil {
						return fmt.Sprintf("broker %d's %s: batch at byte %d: %v", b.ID(), tp, pos, err)
					}
					pos += n
					if batch.Attributes.IsControl() {
						continue
					}
					largest := int64(kafkalog.NoTimestamp)
					for i := range batch.Records {
						largest = max(largest, batch.Timestamp(&batch.Records[i]))
					}
					if want != nil {
						largest = *want
					}
					if tt := batch.Attributes.TimestampType(); tt != kafkalog.CreateTime || batch.MaxTimestamp != largest {
						return fmt.Sprintf("broker %d's %s: batch at offset %d is %v with maxTimestamp %d, want CreateTime and %d", b.ID(), tp, batch.BaseOffset, tt, batch.MaxTimestamp, largest)
					}
				}
			}
		}
	}
	return ""
}

// TestLeaderWritesMaxTimestamp: a client's batch whose header says another
// maxTimestamp than its records' largest, or LogAppendTime, is stored in a
// CreateTime topic as Kafka 3.7's LogValidator stores it, CreateTime with
// the records' largest timestamp and a CRC to match, on every replica; the
// timeline's copy of the request keeps what the client sent.
func TestLeaderWritesMaxTimestamp(t *testing.T) {
	for _, c := range []kafkalog.Compression{kafkalog.CompressionNone, kafkalog.CompressionZstd} {
		for _, lie := range []struct {
			tt kafkalog.TimestampType
			ms int64
		}{{kafkalog.CreateTime, 1_700_000_000_000}, {kafkalog.CreateTime, 5}, {kafkalog.CreateTime, 1_900_000_000_000}, {kafkalog.LogAppendTime, 1_700_000_000_009}} {
			var b kafkalog.RecordBatch
			b.Attributes = b.Attributes.WithCompression(c)
			b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, -1, -1
			for i, ts := range []int64{1_700_000_000_000, 1_700_000_000_007, 1_699_000_000_000} {
				b.AppendRecord(int64(i), ts, []byte{'k'}, []byte("v"))
			}
			raw := b.AppendTo(nil)
			if err := kafkalog.SetMaxTimestamp(raw, lie.tt, lie.ms); err != nil {
				t.Fatal(err)
			}
			sent := append([]byte(nil), raw...)
			w := topicWorld(t, 7)
			x := clientProduce("liar", "t", raw)
			if _, err := w.ExternalPrepared(x, PrepareExternal(&x)); err != nil {
				t.Fatal(err)
			}
			if err := w.RunFor(300); err != nil {
				t.Fatal(err)
			}
			if errs := w.InternalErrors(); len(errs) > 0 {
				t.Fatalf("internal errors: %v", errs)
			}
			if got := w.brokers[0].Partition(partitionKey{Topic: "t"}).Log.LogEndOffset(); got != 3 {
				t.Fatalf("%v, header %v %d: leader's log end %d, want 3", c, lie.tt, lie.ms, got)
			}
			if p := createTimeProblem(w, "t", sentMaxTimestamp(sent)); p != "" {
				t.Errorf("%v, header %v %d: %s", c, lie.tt, lie.ms, p)
			}
			if !bytes.Equal(raw, sent) {
				t.Errorf("%v, header %v %d: the request's bytes changed", c, lie.tt, lie.ms)
			}
		}
	}
}

// clientProduce is client 1 (clientID) sending batch to partition 0 of
// topic through broker 1, as a Produce v9 with acks=all.
// topicWorld is a three-broker world (min.insync.replicas 2, the modern
// rules) with topic t, one partition on brokers 1, 2 and 3, after 500 ms.
func topicWorld(tb testing.TB, seed uint64) *World {
	tb.Helper()
	w, err := New(Config{ClockStartMs: 1_700_000_000_000, Seed: seed, MinInsyncReplicas: 2, Rules: replica.Modern})
	if err != nil {
		tb.Fatal(err)
	}
	if err := w.CreateTopic(TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}}); err != nil {
		tb.Fatal(err)
	}
	if err := w.RunFor(500); err != nil {
		tb.Fatal(err)
	}
	return w
}

func clientProduce(clientID, topic string, batch []byte) ExternalRequest {
	req := kmsg.NewPtrProduceRequest()
	req.SetVersion(9)
	req.Acks, req.TimeoutMillis = -1, 5000
	rt := kmsg.NewProduceRequestTopic()
	rt.Topic = topic
	rp := kmsg.NewProduceRequestTopicPartition()
	rp.Records = batch
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	return ExternalRequest{Client: 1, ClientID: clientID, Broker: 1, Key: req.Key(), Version: req.GetVersion(), Body: req.AppendTo(nil)}
}
