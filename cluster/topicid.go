package cluster

import (
	"slices"
)

// TopicPartitions returns the controller's view of every partition of
// topic: leader, leader epoch, replicas, ISR and ELR (no offsets, no logs).
// Unlike [World.State] it includes __consumer_offsets.
func (w *World) TopicPartitions(topic string) []PartitionInfo {
	var out []PartitionInfo
	for _, tp := range w.ctl.Partitions() {
		if tp.Topic != topic {
			continue
		}
		p, _ := w.ctl.View(tp)
		out = append(out, PartitionInfo{Topic: tp.Topic, Partition: tp.Partition, Leader: p.Leader, LeaderEpoch: p.LeaderEpoch,
			Replicas: slices.Clone(p.Replicas), ISR: slices.Clone(p.ISR), ELR: slices.Clone(p.ELR), LastKnownELR: slices.Clone(p.LastKnownELR),
			LogStartOffset: -1, HighWatermark: -1, LogEndOffset: -1})
	}
	return out
}
