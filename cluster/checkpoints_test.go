package cluster_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/kafkalog"
	"github.com/kafkalive/kafkalive/replica"
)

// checkpointWorld is a world of one topic with 300-byte segments, so that
// produces roll segments and move the recovery point, and a producer p.
func checkpointWorld(t *testing.T, change func(*cluster.Config)) *cluster.World {
	t.Helper()
	log := cluster.DefaultLogConfig()
	log.SegmentBytes = 300
	cfg := cluster.Config{Seed: 1, Rules: replica.Modern, Log: log}
	change(&cfg)
	w, err := cluster.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.CreateTopic(cluster.TopicSpec{Name: "t", Partitions: 1, ReplicationFactor: 3}); err != nil {
		t.Fatal(err)
	}
	if err := w.AddProducer(cluster.ProducerConfig{Name: "p", Topic: "t", Acks: "all"}); err != nil {
		t.Fatal(err)
	}
	return w
}

// checkpointOf reads broker 1's checkpoint file name: "t-0=N", or "absent".
func checkpointOf(t *testing.T, w *cluster.World, name string) string {
	t.Helper()
	fsys, err := w.BrokerFS(1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fsys.Stat(cluster.LogDir + "/" + name); err != nil {
		return "absent"
	}
	m, err := kafkalog.ReadOffsetCheckpoint(fsys, cluster.LogDir+"/"+name)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for tp, off := range m {
		parts = append(parts, fmt.Sprintf("%s-%d=%d", tp.Topic, tp.Partition, off))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// activeBase is the base offset of broker 1's newest segment of t-0: the
// recovery point once every older segment was flushed at its roll.
func activeBase(t *testing.T, w *cluster.World) string {
	t.Helper()
	fsys, err := w.BrokerFS(1)
	if err != nil {
		t.Fatal(err)
	}
	names, err := fsys.List(cluster.LogDir + "/t-0")
	if err != nil {
		t.Fatal(err)
	}
	var base int64
	for _, n := range names {
		var b int64
		if _, err := fmt.Sscanf(n, "%020d.log", &b); err == nil && strings.HasSuffix(n, ".log") {
			base = max(base, b)
		}
	}
	return fmt.Sprintf("t-0=%d", base)
}

// produceAndRun produces n records, then runs the world until atMs.
func produceAndRun(t *testing.T, w *cluster.World, n int, atMs int64) {
	t.Helper()
	for i := range n {
		if err := w.Produce("p", "", fmt.Sprintf("value-%03d-%d", i, w.NowMs()), 0); err != nil {
			t.Fatal(err)
		}
		if err := w.RunFor(100); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.RunFor(atMs - w.NowMs()); err != nil {
		t.Fatal(err)
	}
}

// TestCheckpointsOnKafkasSchedules: with Kafka's intervals, broker 1 writes
// replication-offset-checkpoint every 5 s from its start (an HW that moved
// since waits for the next write), and recovery-point-offset-checkpoint
// every 60 s from 30 s after its start (LogManager.InitialTaskDelayMs), with
// the recovery point its rolls reached.
func TestCheckpointsOnKafkasSchedules(t *testing.T) {
	w := checkpointWorld(t, func(c *cluster.Config) {
		c.ReplicaHighWatermarkCheckpointIntervalMs = cluster.KafkaReplicaHighWatermarkCheckpointIntervalMs
		c.LogFlushOffsetCheckpointIntervalMs = cluster.KafkaLogFlushOffsetCheckpointIntervalMs
		c.LogFlushStartOffsetCheckpointIntervalMs = cluster.KafkaLogFlushStartOffsetCheckpointIntervalMs
	})
	const hwFile, rpFile = kafkalog.ReplicationOffsetCheckpointFile, kafkalog.RecoveryPointCheckpointFile
	type moment struct{ hw, rp string }
	var got, want []moment

	produceAndRun(t, w, 3, 5_500) // the HW reaches 3 by 0.3 s, written at 5 s
	got, want = append(got, moment{checkpointOf(t, w, hwFile), checkpointOf(t, w, rpFile)}), append(want, moment{"t-0=3", "absent"})
	produceAndRun(t, w, 2, 5_800) // HW 5 at 5.7 s, not written until 10 s
	got, want = append(got, moment{checkpointOf(t, w, hwFile), checkpointOf(t, w, rpFile)}), append(want, moment{"t-0=3", "absent"})
	produceAndRun(t, w, 0, 10_100)
	got, want = append(got, moment{checkpointOf(t, w, hwFile), checkpointOf(t, w, rpFile)}), append(want, moment{"t-0=5", "absent"})
	produceAndRun(t, w, 10, 29_900)
	got, want = append(got, moment{checkpointOf(t, w, hwFile), checkpointOf(t, w, rpFile)}), append(want, moment{"t-0=15", "absent"})
	produceAndRun(t, w, 0, 30_100)
	rollsAt30 := activeBase(t, w)
	got, want = append(got, moment{checkpointOf(t, w, hwFile), checkpointOf(t, w, rpFile)}), append(want, moment{"t-0=15", rollsAt30})
	produceAndRun(t, w, 10, 89_900) // more rolls: the file keeps the point of 30 s
	got, want = append(got, moment{checkpointOf(t, w, hwFile), checkpointOf(t, w, rpFile)}), append(want, moment{"t-0=25", rollsAt30})
	produceAndRun(t, w, 0, 90_100)
	got, want = append(got, moment{checkpointOf(t, w, hwFile), checkpointOf(t, w, rpFile)}), append(want, moment{"t-0=25", activeBase(t, w)})

	if rollsAt30 == "t-0=0" || rollsAt30 == activeBase(t, w) {
		t.Fatalf("the segments did not roll as the test needs: active segment %s at 30 s, %s at 90 s", rollsAt30, activeBase(t, w))
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(moment{})); diff != "" {
		t.Errorf("broker 1's checkpoints at 5.5, 5.8, 10.1, 29.9, 30.1, 89.9 and 90.1 s (-want +got):\n%s", diff)
	}
}

// TestCheckpointsByDefault: with the zero Config (the scenarios'), the HW
// checkpoint follows every step in which an HW moved, and the recovery
// points are written only at a clean shutdown.
func TestCheckpointsByDefault(t *testing.T) {
	w := checkpointWorld(t, func(*cluster.Config) {})
	produceAndRun(t, w, 12, 95_000)
	got := []string{checkpointOf(t, w, kafkalog.ReplicationOffsetCheckpointFile), checkpointOf(t, w, kafkalog.RecoveryPointCheckpointFile)}
	if err := w.Stop(1); err != nil {
		t.Fatal(err)
	}
	got = append(got, checkpointOf(t, w, kafkalog.RecoveryPointCheckpointFile))
	if diff := cmp.Diff([]string{"t-0=12", "absent", "t-0=12"}, got); diff != "" {
		t.Errorf("HW and recovery point checkpoints at 95 s, and the recovery points after a clean stop (-want +got):\n%s", diff)
	}
}
