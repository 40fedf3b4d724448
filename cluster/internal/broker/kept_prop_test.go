package broker

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
	"pgregory.net/rapid"

	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/kafkalog"
)

// What a broker keeps up to date as its replicas change, rather than reads
// anew from every replica, is what reading them anew gives, whatever
// topics come, grow and go, brokers stop, crash and start, and time runs:
// its heartbeat's epochs (Known: the last one's and the replicas changed
// since), replication-offset-checkpoint's high watermarks (hws, in the
// order of its partitions) and the compacted logs its cleaner looks at,
// also for a snapshot taken between and a clone of it.
func TestKeptUpToDateIsReadAnew(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := newFakeEnv(3, 1)
		for _, b := range f.brokers {
			if err := b.Start(f); err != nil {
				t.Fatal(err)
			}
		}
		f.quiet()
		var snaps []*Broker
		for i := range rapid.IntRange(1, 25).Draw(t, "steps") {
			b := f.brokers[rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("broker %d", i))]
			name := rapid.SampledFrom([]string{"t", "u"}).Draw(t, fmt.Sprintf("topic %d", i))
			switch op := rapid.IntRange(0, 9).Draw(t, fmt.Sprintf("op %d", i)); op {
			case 0:
				if f.ctl.Topic(name) == nil {
					_ = f.CreateTopic(metadata.TopicSpec{Name: name, Partitions: rapid.IntRange(1, 5).Draw(t, "partitions"),
						ReplicationFactor: rapid.IntRange(1, 3).Draw(t, "rf"), Config: drawPolicy(t)})
				}
			case 1:
				if top := f.ctl.Topic(name); top != nil {
					rf := len(top.Assignment[0])
					_ = f.AddPartitions(name, f.ctl.GrowthPlacement(len(top.Assignment), rapid.IntRange(1, 3).Draw(t, "more"), rf), "test")
				}
			case 2:
				if f.ctl.Topic(name) != nil {
					f.DeleteTopic(name, "test")
				}
			case 3:
				_ = b.Kill(f)
			case 4:
				_ = b.Stop(f)
			case 5:
				_ = b.Start(f)
			case 6:
				snaps = append(snaps, b.Snapshot(f.Clock(), f.Rand()))
			case 8:
				if f.ctl.Topic(name) != nil {
					f.AlterConfigs(name, metadata.TopicSpec{Name: name, Config: drawPolicy(t)}, "test")
				}
			case 7:
				if top := f.ctl.Topic(name); top != nil {
					part := int32(rapid.IntRange(0, len(top.Assignment)-1).Draw(t, "partition"))
					if leader := f.ctl.Leader(kafkalog.TopicPartition{Topic: name, Partition: part}); leader > 0 {
						_, _ = f.serve(leader, produceRequest(name, part, rapid.IntRange(1, 4).Draw(t, "records")))
					}
				}
			default:
				f.run(rapid.Int64Range(10, 6000).Draw(t, "ms"))
			}
			f.quiet()
			for _, b := range f.brokers {
				checkKept(t, fmt.Sprintf("step %d, broker %d", i, b.ID()), b)
			}
		}
		for i, s := range snaps {
			checkKept(t, fmt.Sprintf("snapshot %d", i), s)
			checkKept(t, fmt.Sprintf("a clone of snapshot %d", i), s.Clone(f.Clock(), f.Rand()))
		}
	})
}

// drawPolicy draws a topic's cleanup.policy: the brokers' (nil), or one
// of its own.
func drawPolicy(t *rapid.T) *kafkalog.Config {
	policy := rapid.SampledFrom([]string{"", kafkalog.CleanupPolicyDelete, kafkalog.CleanupPolicyCompact, "compact,delete"}).Draw(t, "cleanup.policy")
	if policy == "" {
		return nil
	}
	cfg := kafkalog.DefaultConfig()
	cfg.CleanupPolicy = policy
	return &cfg
}

// produceRequest is an acks=all Produce of n records to a partition.
func produceRequest(topic string, part int32, n int) *kmsg.ProduceRequest {
	r := kmsg.NewPtrProduceRequest()
	r.SetVersion(9)
	r.Acks, r.TimeoutMillis = -1, 5000
	var b kafkalog.RecordBatch
	b.PartitionLeaderEpoch, b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, -1, -1, -1
	for i := range int64(n) {
		b.AppendRecord(i, 1_700_000_000_000+i, []byte{'k', byte('a' + i)}, []byte("value"))
	}
	return addBatch(r, topic, part, &b)
}

// checkKept fails t unless broker b's heartbeat epochs, checkpoint high
// watermarks and compacted logs are those its replicas hold.
func checkKept(t *rapid.T, at string, b *Broker) {
	known := map[kafkalog.TopicPartition][2]int32{}
	hws := map[kafkalog.TopicPartition]int64{}
	var compacted []kafkalog.TopicPartition
	for k, s := range b.replicas {
		leaderEpoch, partitionEpoch := s.Node.Epochs()
		known[k], hws[k] = [2]int32{leaderEpoch, partitionEpoch}, s.lastHW
		if s.Log.Kafka().Config().Compact() {
			compacted = append(compacted, k)
		}
	}
	slices.SortFunc(compacted, metadata.ComparePartitions)
	if !slices.Equal(b.compacted, compacted) {
		t.Fatalf("%s: the cleaner looks at %v, the compacted logs are %v", at, b.compacted, compacted)
	}
	if !slices.Equal(b.order, slices.SortedFunc(maps.Keys(b.replicas), metadata.ComparePartitions)) || len(b.hws) != len(b.order) {
		t.Fatalf("%s: partitions %v with %d high watermarks, replicas of %v", at, b.order, len(b.hws), slices.Collect(maps.Keys(b.replicas)))
	}
	for i, k := range b.order {
		if b.hws[i] != hws[k] {
			t.Fatalf("%s: the checkpoint's high watermark of %s is %d, its replica's %d", at, k, b.hws[i], hws[k])
		}
	}
	if b.State() != BrokerRunning {
		return
	}
	got := b.Known()
	if got.Len() != len(known) {
		t.Fatalf("%s: the heartbeat lists %d partitions, the broker runs %d", at, got.Len(), len(known))
	}
	for k, want := range known {
		if e, ok := got.Epochs(k); !ok || e != want {
			t.Fatalf("%s: the heartbeat says %s is at epochs %v (%v), its replica at %v", at, k, e, ok, want)
		}
	}
}
