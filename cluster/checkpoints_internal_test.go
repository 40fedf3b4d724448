package cluster

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// TestTruncationRewritesTheRecoveryPoints: with the recovery point schedule
// on, a step in which a log is truncated ends with
// recovery-point-offset-checkpoint rewritten (LogManager.truncateTo), with
// the recovery point the truncation lowered; a step without one leaves the
// file as the schedule wrote it.
func TestTruncationRewritesTheRecoveryPoints(t *testing.T) {
	log := DefaultLogConfig()
	log.SegmentBytes = 300
	w, err := New(Config{Seed: 1, Rules: replica.Modern, Log: log, LogFlushOffsetCheckpointIntervalMs: KafkaLogFlushOffsetCheckpointIntervalMs})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.CreateTopic(TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 3}); err != nil {
		t.Fatal(err)
	}
	if err := w.AddProducer(ProducerConfig{Name: "p", Topic: "t", Acks: "all"}); err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		if err := w.Produce("p", "", fmt.Sprintf("value-%03d", i), 0); err != nil {
			t.Fatal(err)
		}
		if err := w.RunFor(100); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.RunFor(LogManagerInitialTaskDelayMs + 100 - w.NowMs()); err != nil {
		t.Fatal(err)
	}
	b := w.brokers[0]
	tp := partitionKey{Topic: "t", Partition: 0}
	read := func() int64 {
		t.Helper()
		m, err := kafkalog.ReadOffsetCheckpoint(b.FS(), LogDir+"/"+kafkalog.RecoveryPointCheckpointFile)
		if err != nil {
			t.Fatal(err)
		}
		return m[tp]
	}
	scheduled := read()
	if scheduled == 0 {
		t.Fatalf("the checkpoint at 30 s holds recovery point 0: the segments did not roll as the test needs")
	}
	w.flushCheckpoints() // a step without a truncation
	untouched := read()
	if err := b.Partition(tp).Log.TruncateTo(1); err != nil {
		t.Fatal(err)
	}
	b.MarkChanged(b.Partition(tp)) // as its replica does when it truncates
	w.flushCheckpoints()
	got := []int64{untouched, read()}
	want := []int64{scheduled, b.Partition(tp).Log.Kafka().RecoveryPoint()}
	if diff := cmp.Diff(want, got); diff != "" || want[1] >= scheduled {
		t.Errorf("the recovery point of t-0 in the file after a step without and with a truncation to 1 (-want +got):\n%s(the log's recovery point %d, the scheduled one %d)", diff, want[1], scheduled)
	}
}
