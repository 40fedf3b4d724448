package cluster

import (
	"fmt"

	"github.com/kafkalive/kafkalive/group"
	"github.com/kafkalive/kafkalive/replica"
)

// OffsetReset is kafka-consumer-groups --reset-offsets --group Group
// --topic Topic --to-earliest | --to-latest | --to-offset Offset --execute.
type OffsetReset struct {
	Group, Topic string
	// To is "earliest" (the log start offset), "latest" (the high
	// watermark) or "offset" (Offset, clamped to those two as the tool
	// does).
	To     string
	Offset int64
}

// The reset targets of [OffsetReset.To].
const (
	ResetEarliest = "earliest"
	ResetLatest   = "latest"
	ResetToOffset = "offset"
)

// ResetTarget is one partition's new committed offset.
type ResetTarget struct {
	Topic     string
	Partition int32
	Offset    int64
}

// ResetOffsets commits new offsets for a group on every partition of a
// topic, as an admin client's OffsetCommit with no member and generation
// -1; the coordinator takes it only while the group is Empty (Kafka: "Assignments can
// only be reset if the group is inactive"). The commit is stored like
// any other (appended to __consumer_offsets, acks=all) as the world runs.
func (w *World) ResetOffsets(r OffsetReset) error {
	return w.Do(Action{Kind: ActResetOffsets, Reset: r})
}

// PlanReset returns the offsets [World.ResetOffsets] would commit, or why
// it would refuse.
func (w *World) PlanReset(r OffsetReset) ([]ResetTarget, error) {
	t := w.ctl.Topic(r.Topic)
	if t == nil || t.Internal {
		return nil, fmt.Errorf("%w: reset-offsets: no topic %q", ErrInvalidConfig, r.Topic)
	}
	if r.To != ResetEarliest && r.To != ResetLatest && r.To != ResetToOffset {
		return nil, fmt.Errorf("%w: reset-offsets: --to-%s", ErrInvalidConfig, r.To)
	}
	gi := w.groupInfo(r.Group)
	switch gi.State {
	case group.Empty.String(), group.Dead.String():
	case "Unknown":
		return nil, fmt.Errorf("%w: reset-offsets: group %s has no coordinator (COORDINATOR_NOT_AVAILABLE)", ErrInvalidConfig, r.Group)
	default:
		// ConsumerGroupCommand.resetOffsets' printError, in its words
		return nil, fmt.Errorf("%w: reset-offsets: %w", ErrInvalidConfig,
			&KafkaError{Message: fmt.Sprintf("Assignments can only be reset if the group '%s' is inactive, but the current state is %s.", r.Group, gi.State)})
	}
	var out []ResetTarget
	for p := range int32(len(t.Assignment)) {
		start, hw, ok := w.leaderOffsets(partitionKey{Topic: r.Topic, Partition: p})
		if !ok {
			return nil, fmt.Errorf("%w: reset-offsets: %s-%d has no leader (LEADER_NOT_AVAILABLE)", ErrInvalidConfig, r.Topic, p)
		}
		off := hw
		switch r.To {
		case ResetEarliest:
			off = start
		case ResetToOffset:
			off = min(max(r.Offset, start), hw)
		}
		out = append(out, ResetTarget{Topic: r.Topic, Partition: p, Offset: off})
	}
	return out, nil
}

// leaderOffsets returns the log start offset and HW of tp's leader.
func (w *World) leaderOffsets(tp partitionKey) (start, hw int64, ok bool) {
	l := w.PartitionLeader(tp.Topic, tp.Partition)
	if l == replica.NoLeader {
		return 0, 0, false
	}
	s := w.brokers[l-1].Partition(tp)
	if s == nil || w.brokers[l-1].State() != BrokerRunning {
		return 0, 0, false
	}
	return s.Log.LogStartOffset(), s.Node.Progress().HighWatermark, true
}

// resetOffsets hands the admin client's commit to the group's coordinator.
func (w *World) resetOffsets(r OffsetReset) error {
	targets, err := w.PlanReset(r)
	if err != nil {
		return err
	}
	b := w.coordinatorOf(r.Group)
	req := group.OffsetCommit{GroupID: r.Group, GenerationID: -1}
	for _, t := range targets {
		req.Offsets = append(req.Offsets, group.PartitionOffset{TopicPartition: group.TopicPartition{Topic: t.Topic, Partition: t.Partition}, Offset: t.Offset, LeaderEpoch: -1})
	}
	b.StepGroup(w.env(), adminClient, req)
	return nil
}

// adminClient is the address the coordinator answers kafka-consumer-groups
// at; no one listens.
const adminClient = "kafka-consumer-groups#0"
