package cluster

import (
	"errors"
	"fmt"
)

// ErrUnknownTopicOrPartition is a delete-topic of a topic the cluster does
// not have: Kafka's UNKNOWN_TOPIC_OR_PARTITION
// (ReplicationControlManager.findTopicIds). It is wrapped together with
// [ErrInvalidConfig], as every refused action is.
var ErrUnknownTopicOrPartition = errors.New("cluster: UNKNOWN_TOPIC_OR_PARTITION: this server does not host this topic-partition")

// DeleteTopic deletes topic name, as kafka-topics --delete --topic name does
// (a DeleteTopics request to the active controller), with Kafka 3.7's KRaft
// behaviour:
//
//   - the controller removes the topic and its partitions
//     (ReplicationControlManager.deleteTopic: a RemoveTopicRecord), so from
//     then on metadata answers no longer list it;
//   - every running broker hosting one of its replicas stops it and renames
//     its directory to topic-partition.<32 hex digits>-delete
//     (LogManager.asyncDelete, LocalLog.logDeleteDirName), then deletes that
//     directory file.delete.delay.ms later (LogManager.deleteLogs, the
//     broker's default, 60000); a broker that is down then does it once it
//     runs again. A broker that is down at the deletion keeps its directory
//     under its old name and no longer opens it (Kafka 3.7 renames it
//     -stray at the next start, LogManager.deleteStrayKRaftReplicas; not
//     modelled);
//   - the members of consumer groups learn it with their next metadata: a
//     leader whose assignment counted the topic rejoins
//     (ConsumerCoordinator.rejoinNeededOrPending: the metadata snapshot
//     changed), the group rebalances, every member still lists what it owns,
//     the deleted partitions included, and the assignor must leave those out
//     (AbstractStickyAssignor.allSubscriptionsEqual keeps only partitions of
//     topics in the metadata); the members then revoke them;
//   - every group coordinator removes the groups' committed offsets of the
//     deleted partitions, appending tombstones to __consumer_offsets
//     (GroupCoordinator.onPartitionsDeleted,
//     GroupMetadataManager.cleanupGroupMetadata).
//
// A topic the cluster does not have is [ErrUnknownTopicOrPartition]. The
// internal __consumer_offsets, and a topic a producer writes or a simple
// consumer reads, are refused with [ErrInvalidConfig]: those clients are not
// written to lose their topic. A consumer commits no position of a partition
// whose topic is gone: a broker would answer UNKNOWN_TOPIC_OR_PARTITION for it
// (KafkaApis.handleOffsetCommitRequest).
func (w *World) DeleteTopic(name string) error {
	return w.Do(Action{Kind: ActDeleteTopic, Name: name})
}

// validateDeleteTopic refuses a delete-topic the world cannot apply.
func (w *World) validateDeleteTopic(a Action) error {
	t := w.ctl.Topic(a.Name)
	switch {
	case t == nil:
		return fmt.Errorf("%w: delete-topic %q: %w", ErrInvalidConfig, a.Name, ErrUnknownTopicOrPartition)
	case t.Internal:
		return fmt.Errorf("%w: delete-topic %s: the internal topic holds the groups' offsets", ErrInvalidConfig, a.Name)
	case w.topicInUse(a.Name):
		return fmt.Errorf("%w: delete-topic %s: a producer or a simple consumer of the world uses it (they are not written to lose their topic)", ErrInvalidConfig, a.Name)
	}
	return nil
}

// deleteTopic removes topic from the controller and the brokers (see
// [World.DeleteTopic]) and tells the group members; by says who asked.
func (w *World) deleteTopic(topic, by string) {
	t, _ := w.ctl.RemoveTopic(topic)
	w.record(EventController, 0, nil, "topic %s deleted (%s): the controller removes its %d partitions", topic, by, len(t.Assignment))
	for p := range t.Assignment {
		tp := partitionKey{Topic: topic, Partition: int32(p)}
		w.ctl.RemovePartition(tp)
		delete(w.check.leaderHW, tp)
		for k := range w.check.epochOwner {
			if k.tp == tp {
				delete(w.check.epochOwner, k)
			}
		}
		for k := range w.check.matched {
			if k.tp == tp {
				delete(w.check.matched, k)
			}
		}
		for _, b := range w.brokers {
			b.DeletePartition(w.env(), tp)
		}
	}
	w.removeOffsets(topic)
	w.refreshGroupMetadata()
}

// removeOffsets is GroupCoordinator.onPartitionsDeleted on every running
// coordinator (broker.Broker.RemoveOffsets).
func (w *World) removeOffsets(topic string) {
	for _, b := range w.brokers {
		b.RemoveOffsets(w.env(), topic)
	}
}

// topicInUse reports whether a producer or a simple consumer of the world
// reads or writes topic (a group member may lose its topic: see
// [World.DeleteTopic]).
func (w *World) topicInUse(topic string) bool {
	for _, p := range w.producers {
		if p.Config().Topic == topic {
			return true
		}
	}
	for _, c := range w.consumers {
		if cfg := c.Config(); cfg.Group == "" && cfg.Topic == topic {
			return true
		}
	}
	return false
}
