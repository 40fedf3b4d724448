package cluster

import (
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
			for _, tp := range b.order {
				if s := b.replicas[tp]; s != nil && len(s.log.damaged) == 0 {
					if p := s.log.mirrorProblem(); p != "" {
						t.Fatalf("broker %d's %s: %s", b.id, tp, p)
					}
				}
			}
		}
	})
}

// clientProduce is client 1 (clientID) sending batch to partition 0 of
// topic through broker 1, as a Produce v9 with acks=all.
// topicWorld is a three-broker world (min.insync.replicas 2, the modern
// rules) with topic t, one partition on brokers 1, 2 and 3, after 500 ms.
func topicWorld(tb testing.TB, seed uint64) *World {
	tb.Helper()
	w, err := New(Config{Seed: seed, MinInsyncReplicas: 2, Rules: replica.Modern})
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
