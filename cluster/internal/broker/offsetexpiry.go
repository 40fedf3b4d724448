package broker

import (
	"cmp"
	"maps"
	"slices"

	"github.com/kafkalive/kafkalive/cluster/internal/event"
	"github.com/kafkalive/kafkalive/cluster/internal/metadata"
	"github.com/kafkalive/kafkalive/cluster/internal/replicalog"
	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/replica"
)

// expireOffsets is Kafka 3.7's GroupMetadataManager.cleanupGroupMetadata,
// every offsets.retention.check.interval.ms of a running broker: the
// committed offsets of the groups it coordinates that expired under
// offsets.retention.minutes ([group.Coordinator.ExpireOffsets]) are
// removed with tombstones in their __consumer_offsets partition, and a
// group left Empty without offsets is forgotten; the consumer-protocol
// groups (KIP-848) expire under their own rule
// ([group.ConsumerGroupCoordinator.ExpireOffsets]). So offsets-only groups
// (clients that commit under group ids of their own, as a simple consumer
// does) cost what the last retention's worth of them costs; the
// compacted log lets the tombstones go after delete.retention.ms.
//
// Kafka appends the tombstones with acks=0 (a lost one is appended again at
// the next check); here they go as the coordinator's commits do, acks=all,
// and nothing waits for them.
func (b *Broker) expireOffsets(env Env) {
	if env.Now() < b.nextOffsetsExpiryMs || b.state != BrokerRunning || b.cfg.OffsetsRetentionMinutes < 1 || b.cfg.OffsetsRetentionCheckIntervalMs < 1 {
		return
	}
	b.nextOffsetsExpiryMs = env.Now() + b.cfg.OffsetsRetentionCheckIntervalMs
	stored := map[string][]group.StoredOffset{}
	for _, k := range b.order {
		if k.Topic == metadata.OffsetsTopic && b.leads(env, k) {
			s := b.replicas[k]
			s.changing()
			storedOffsets(s.Log, s.Node.Progress().HighWatermark, stored)
		}
	}
	if len(stored) == 0 && b.coord == nil {
		return
	}
	cs := b.coordinator(env)
	cs.c.Tick(env.Now())
	cs.cg.Tick(env.Now())
	retentionMs := int64(b.cfg.OffsetsRetentionMinutes) * 60_000
	consumer := map[string][]group.StoredOffset{} // the consumer-protocol groups' (KIP-848)
	for g := range stored {
		if ok, _ := cs.cg.Hosts(g); ok {
			consumer[g] = stored[g]
			delete(stored, g)
		}
	}
	coordinates := func(g string) bool { return b.Coordinates(env, g) }
	expired := cs.c.ExpireOffsets(retentionMs, stored, coordinates)
	maps.Copy(expired, cs.cg.ExpireOffsets(retentionMs, consumer, coordinates))
	for _, g := range slices.Sorted(maps.Keys(expired)) {
		var recs []group.OffsetCommitRecord
		for _, k := range expired[g] {
			recs = append(recs, group.OffsetCommitRecord{Group: g, PartitionOffset: group.PartitionOffset{TopicPartition: k, LeaderEpoch: -1},
				CommitTimestampMs: env.Now(), Tombstone: true})
		}
		if _, err := b.appendCommits(env, recs); err != nil {
			env.Record(event.Group, b.id, nil, "coordinator: %s: expired offsets not removed: %v", g, err)
			continue
		}
		env.Record(event.Group, b.id, nil, "coordinator: %s: committed offsets of %s expired (offsets.retention.minutes=%d), removed with tombstones",
			g, group.FormatPartitions(expired[g]), b.cfg.OffsetsRetentionMinutes)
	}
	b.processCoordinator(env) // the metadata tombstones of the groups forgotten
}

// leads reports whether b's replica of k leads it, as the controller has it.
func (b *Broker) leads(env Env, k tp) bool {
	s := b.replicas[k]
	return s != nil && env.Leader(k) == b.id && s.Node.Progress().Role == replica.RoleLeader
}

// storedOffsets adds to out the committed offsets of the offsets
// partition's log (high watermark hw), group by group in partition order,
// as logOffsetStore reads them: each partition's latest commit below hw
// gives its commit time, a commit above it is pending, a tombstone
// (anywhere) removes it; a transactional commit counts once its
// transaction committed, is pending while it is open (Kafka keeps a
// group with pending transactional offsets; here they do not expire
// either), and an aborted one does not count.
func storedOffsets(log *replicalog.Log, hw int64, out map[string][]group.StoredOffset) {
	type key struct {
		group string
		tp    group.TopicPartition
	}
	f := newTxnFilter(log.Kafka(), hw)
	latest := map[key]group.StoredOffset{}
	for _, e := range log.Mirror().From(0) {
		st := f.state(e)
		visible := st == txnCounted
		rec, err := group.ReadOffsetCommit(e.Key, e.Value)
		if err != nil || st == txnAborted {
			continue // not an offset commit (group metadata), or of an aborted transaction
		}
		k := key{rec.Group, rec.TopicPartition}
		o := latest[k]
		switch {
		case !visible && rec.Tombstone:
			continue
		case rec.Tombstone:
			delete(latest, k)
			continue
		case e.Offset >= hw || !visible:
			o.Pending = true
		default:
			o.CommitTimestampMs = rec.CommitTimestampMs
		}
		o.TopicPartition = rec.TopicPartition
		latest[k] = o
	}
	keys := slices.SortedFunc(maps.Keys(latest), func(a, b key) int {
		return cmp.Or(cmp.Compare(a.group, b.group), group.CompareTopicPartitions(a.tp, b.tp))
	})
	for _, k := range keys {
		out[k.group] = append(out[k.group], latest[k])
	}
}
