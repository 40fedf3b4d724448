package broker

import (
	"math"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// describeLogDirs answers DescribeLogDirs (v1-4) at b as Kafka 3.9's
// ReplicaManager.describeLogDirs does for its one log dir, /kafka-logs:
// every replica log the broker holds (all of them for a null topic list,
// else those asked that it holds; __consumer_offsets' too), by topic,
// each with its size (the bytes of its segments, page cache included:
// UnifiedLog.size) and its offset lag, max(0, HW − LEO) of the broker's
// own replica (getLogEndOffsetLag: 0 for a replica whose log reaches its
// HW, which is every replica here; there are no future logs, no
// AlterReplicaLogDirs). From v4 the dir's total and usable bytes: the
// disk's capacity and what is left of it, both Long.MAX_VALUE for a disk
// without a bound (Kafka's adjustForLargeFileSystems for a store too
// large to say). A partition asked for that the broker does not hold is
// left out, as Kafka leaves it out.
func (b *Broker) describeLogDirs(req *kmsg.DescribeLogDirsRequest) *kmsg.DescribeLogDirsResponse {
	resp := kmsg.NewPtrDescribeLogDirsResponse()
	d := kmsg.NewDescribeLogDirsResponseDir()
	d.Dir = LogDir
	d.TotalBytes, d.UsableBytes = math.MaxInt64, math.MaxInt64
	if b.cfg.DiskBytes > 0 {
		d.TotalBytes, d.UsableBytes = b.cfg.DiskBytes, max(0, b.cfg.DiskBytes-b.fs.UsedBytes())
	}
	asked := askedLogDirs(req.Topics)
	for _, k := range b.order {
		if req.Topics != nil && !asked[k] {
			continue
		}
		s := b.replicas[k]
		if n := len(d.Topics); n == 0 || d.Topics[n-1].Topic != k.Topic {
			t := kmsg.NewDescribeLogDirsResponseDirTopic()
			t.Topic = k.Topic
			d.Topics = append(d.Topics, t)
		}
		p := kmsg.NewDescribeLogDirsResponseDirTopicPartition()
		pr := s.Node.Progress()
		p.Partition, p.Size, p.OffsetLag = k.Partition, s.Log.Kafka().Size(), max(0, pr.HighWatermark-pr.LogEndOffset)
		t := &d.Topics[len(d.Topics)-1]
		t.Partitions = append(t.Partitions, p)
	}
	resp.Dirs = []kmsg.DescribeLogDirsResponseDir{d}
	return resp
}

// askedLogDirs is the set of partitions a DescribeLogDirs topic list
// names.
func askedLogDirs(topics []kmsg.DescribeLogDirsRequestTopic) map[tp]bool {
	asked := map[tp]bool{}
	for _, t := range topics {
		for _, p := range t.Partitions {
			asked[tp{Topic: t.Topic, Partition: p}] = true
		}
	}
	return asked
}
