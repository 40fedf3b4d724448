package cluster

import (
	"testing"

	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// decodedEntries counts the records the world's replica logs hold decoded
// (lazy chunks' cached entries and eager chunks), running or peeked.
func decodedEntries(w *World) int {
	n := 0
	count := func(l *replicalog.Log) { n += l.DecodedEntries() }
	for _, b := range w.brokers {
		for _, tp := range b.Partitions() {
			count(b.Partition(tp).Log)
		}
	}
	for _, p := range w.peeks.logs {
		if p.log != nil {
			count(p.log)
		}
	}
	return n
}

// A client that wrote many records leaves the world's tools as quick as
// before: the brokers, the groups, kafka-topics --describe and a state of
// the logs' tails decode no more than the batches of the tails, the
// followers' fetches decoded nothing, and a stopped broker's logs are
// opened once, not at every look, until its files change.
func TestToolsDecodeOnlyTheTail(t *testing.T) {
	w, err := New(Config{Seed: 9, MinInsyncReplicas: 2, Rules: replica.Modern})
	if err != nil {
		t.Fatal(err)
	}
	cfg := kafkalog.DefaultConfig()
	cfg.SegmentBytes = 1 << 20
	if err := w.CreateTopic(TopicSpec{Name: "t", Assignment: [][]int32{{1, 2, 3}}, Config: &cfg}); err != nil {
		t.Fatal(err)
	}
	if err := w.RunFor(500); err != nil {
		t.Fatal(err)
	}
	const batches, perBatch = 40, 500
	for i := range batches {
		var b kafkalog.RecordBatch
		b.Attributes = b.Attributes.WithCompression(kafkalog.CompressionSnappy)
		b.ProducerID, b.ProducerEpoch, b.BaseSequence = 7, 0, int32(i*perBatch)
		for r := range perBatch {
			b.AppendRecord(int64(r), 1_700_000_000_000, nil, make([]byte, 100))
		}
		x := clientProduce("flood", "t", b.AppendTo(nil))
		if _, err := w.ExternalPrepared(x, PrepareExternal(&x)); err != nil {
			t.Fatalf("produce %d: %v", i, err)
		}
		if err := w.RunFor(100); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.RunFor(2000); err != nil {
		t.Fatal(err)
	}
	for _, b := range w.brokers {
		if got := b.Partition(partitionKey{Topic: "t"}).Log.LogEndOffset(); got != batches*perBatch {
			t.Fatalf("broker %d's LEO is %d, want %d", b.ID(), got, batches*perBatch)
		}
	}
	if n := decodedEntries(w); n != 0 {
		t.Fatalf("the produce and its replication decoded %d records, want none", n)
	}
	w.Brokers()
	w.Groups()
	// What kafka-topics --describe reads (internal/kafkatools).
	w.Topics()
	w.TopicSettings("t")
	w.TopicPartitions("t")
	w.NonDefaultTopicConfigs("t")
	if n := decodedEntries(w); n != 0 {
		t.Fatalf("the brokers, the groups and kafka-topics --describe decoded %d records, want none", n)
	}
	const tail = 100
	st := w.StateWith(StateOptions{Tail: tail})
	for _, p := range st.Partitions {
		if p.Topic != "t" {
			continue
		}
		for _, l := range p.Logs {
			if len(l.Records) != tail || l.Omitted != batches*perBatch-tail {
				t.Fatalf("broker %d's log lists %d records and omits %d, want %d and %d", l.Broker, len(l.Records), l.Omitted, tail, batches*perBatch-tail)
			}
		}
	}
	if n, most := decodedEntries(w), 3*perBatch; n > most {
		t.Fatalf("a state of the logs' last %d records decoded %d records, more than their batches' %d", tail, n, most)
	}

	if err := w.Stop(3); err != nil {
		t.Fatal(err)
	}
	tp := partitionKey{Topic: "t"}
	w.StateWith(StateOptions{Tail: tail})
	first := w.peeks.logs[peekKey{broker: 3, tp: tp}].log
	if first == nil {
		t.Fatal("a state with broker 3 stopped did not open its log")
	}
	if err := w.RunFor(1000); err != nil {
		t.Fatal(err)
	}
	w.StateWith(StateOptions{Tail: tail})
	if again := w.peeks.logs[peekKey{broker: 3, tp: tp}].log; again != first {
		t.Fatal("a second state opened the stopped broker's log again, its files unchanged")
	}
	if err := w.PowerCut(3, false); err != nil {
		t.Fatal(err)
	}
	w.StateWith(StateOptions{Tail: tail})
	if again := w.peeks.logs[peekKey{broker: 3, tp: tp}].log; again == first {
		t.Fatal("after a power cut the state showed the log opened before it")
	}
	if err := w.Start(3); err != nil {
		t.Fatal(err)
	}
	if len(w.peeks.logs) != 0 {
		t.Fatalf("broker 3 started and %d peeked logs are still kept", len(w.peeks.logs))
	}
}

// A world's scratch space (the Preparer of the requests it applies
// unprepared, the logs it peeked on stopped brokers) stays out of its
// clones and snapshots: they would copy buffers and whole logs.
func TestClonesLeaveScratchBehind(t *testing.T) {
	w := topicWorld(t, 3)
	var b kafkalog.RecordBatch
	b.ProducerID, b.ProducerEpoch, b.BaseSequence = kafkalog.NoProducerID, kafkalog.NoProducerEpoch, -1
	b.AppendRecord(0, 1_700_000_000_000, nil, []byte("v"))
	if _, err := w.External(clientProduce("replayed", "t", b.AppendTo(nil))); err != nil {
		t.Fatal(err)
	}
	if err := w.Stop(3); err != nil {
		t.Fatal(err)
	}
	w.StateWith(StateOptions{Tail: 10})
	if !w.reqs.HasScratch() || len(w.peeks.logs) == 0 {
		t.Fatal("the world used neither its own Preparer nor a peeked log: the test proves nothing")
	}
	c := w.Clone()
	if c.reqs.HasScratch() || len(c.peeks.logs) != 0 {
		t.Fatalf("a clone took the world's scratch space: Preparer %v, %d peeked logs", c.reqs.HasScratch(), len(c.peeks.logs))
	}
	// and each of the clone's mirrors reads its batches back from the
	// clone's files, not the original's
	for _, b := range c.brokers {
		for _, tp := range b.Partitions() {
			if !b.Partition(tp).Log.ReadsItself() {
				t.Fatalf("broker %d's clone of %s reads its batches from another log", b.ID(), tp)
			}
		}
	}
}
